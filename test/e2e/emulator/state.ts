/**
 * The emulator's in-memory world: users, the app and its installation, repositories, pull
 * requests, comments, reactions, permissions and check runs. Git content lives in the GitStore;
 * this module only holds what GitHub keeps beside git.
 */

export type Role = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface User {
  login: string;
  id: number;
  type: "User" | "Bot" | "Organization";
}

export interface AppInfo {
  id: number;
  slug: string;
  name: string;
  owner: User;
  bot: User;
  /** Installation permissions (`workflows` is granted/revoked by tests). */
  permissions: Record<string, "read" | "write">;
  events: string[];
  createdAt: string;
}

export interface Installation {
  id: number;
  account: User;
  createdAt: string;
}

export interface Repo {
  id: number;
  owner: User;
  name: string;
  fullName: string;
  defaultBranch: string;
  private: boolean;
  /** Set on forks: the repository it was forked from. */
  parent?: Repo;
  gitDir: string;
  createdAt: string;
  pushedAt: string;
  description: string | null;
}

export interface PullRequest {
  id: number;
  number: number;
  repo: Repo;
  title: string;
  body: string | null;
  user: User;
  state: "open" | "closed";
  merged: boolean;
  draft: boolean;
  maintainerCanModify: boolean;
  baseRef: string;
  headRepo: Repo;
  headRef: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

export interface IssueComment {
  id: number;
  repo: Repo;
  issueNumber: number;
  user: User;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export type ReactionContent = "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";
export const REACTION_CONTENTS: readonly ReactionContent[] = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];

export interface Reaction {
  id: number;
  commentId: number;
  user: User;
  content: ReactionContent;
  createdAt: string;
}

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

/** A line comment of a review (`line`/`start_line` on the RIGHT side: the head's lines). */
export interface ReviewComment {
  id: number;
  path: string;
  line: number;
  startLine: number | null;
  body: string;
}

/**
 * A review comment someone wrote on lines of a pull request's diff, or a reply in its thread.
 * `line`/`startLine` are null once the comment is outdated (its lines left the diff), as GitHub
 * sends them; `originalLine` keeps where it was written. `side`: RIGHT numbers the head's lines,
 * LEFT the base's.
 */
export interface LineComment {
  id: number;
  repo: Repo;
  number: number;
  user: User;
  body: string;
  path: string;
  line: number | null;
  startLine: number | null;
  originalLine: number;
  originalStartLine: number | null;
  side: "LEFT" | "RIGHT";
  /** The commit the comment's `line` numbers (it moves with the head while the lines are untouched: threads.ts). */
  commitId: string;
  /** The commit it was written on. */
  originalCommitId: string;
  /** The first comment of the thread, for replies. */
  inReplyTo: number | null;
  reviewId: number;
  diffHunk: string;
  createdAt: string;
  updatedAt: string;
}

export interface Review {
  id: number;
  repo: Repo;
  number: number;
  user: User;
  body: string;
  state: "COMMENTED" | "APPROVED" | "CHANGES_REQUESTED" | "PENDING";
  commitId: string;
  submittedAt: string;
  comments: ReviewComment[];
}

/**
 * Whether the app's installation token may push to a fork's pull request branch when the author
 * allowed edits by maintainers. GitHub's docs leave it open, so tests choose.
 */
export type ForkPushPolicy = "maintainer_can_modify" | "never";

export interface CheckAction {
  label: string;
  description: string;
  identifier: string;
}

export interface CheckRun {
  id: number;
  repo: Repo;
  appId: number;
  checkSuiteId: number;
  headSha: string;
  name: string;
  /** When GitHub created it, on the emulator's clock (runs incomplete 14 days later go stale). */
  createdAt: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: Annotation[];
  actions: CheckAction[];
}

/**
 * The emulator's clock: real time plus whatever a test fast-forwarded (GitHub's 14-day `stale`
 * rule). Module-wide, as jest gives each test file its own module registry.
 */
let clockOffsetMs = 0;

/** The GitHub Actions app's id on github.com (what GITHUB_TOKEN's check runs carry). */
export const ACTIONS_APP_ID = 15368;

export function clockNow(): number {
  return Date.now() + clockOffsetMs;
}

export function advanceClock(ms: number): void {
  clockOffsetMs += ms;
}

/** GitHub-style timestamps: second precision, `Z`. */
export function isoNow(): string {
  return new Date(clockNow()).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A webhook delivery as GitHub keeps it for the app (list and detail of `/app/hook/deliveries`). */
export interface HookDelivery {
  id: number;
  guid: string;
  /** Emulator clock, epoch ms. */
  deliveredAt: number;
  redelivery: boolean;
  /** Seconds. */
  duration: number;
  /** `OK`, `failed to connect`, `timed out`, `Invalid HTTP Response: 503`. */
  status: string;
  /** The server's answer; 0 when there was none. */
  statusCode: number;
  event: string;
  action: string | null;
  installationId: number | null;
  repositoryId: number | null;
  url: string;
  requestHeaders: Record<string, string>;
  payload: Record<string, unknown>;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
}

export class EmulatorState {
  private nextIds = new Map<string, number>();
  readonly users = new Map<string, User>();
  readonly repos = new Map<string, Repo>();
  readonly pulls: PullRequest[] = [];
  readonly comments: IssueComment[] = [];
  readonly reactions: Reaction[] = [];
  readonly checkRuns: CheckRun[] = [];
  readonly reviews: Review[] = [];
  /** Review comments on lines (people's, and the app's replies in their threads). */
  readonly lineComments: LineComment[] = [];
  /** The app's webhook deliveries, oldest first. */
  readonly deliveries: HookDelivery[] = [];
  forkPushPolicy: ForkPushPolicy = "never";
  /** `owner/repo` → login → role. */
  readonly permissions = new Map<string, Map<string, Role>>();
  /** Commits GitHub made (and signed) on the app's behalf: sha → signature payload. */
  readonly signedCommits = new Set<string>();
  private readonly checkSuites = new Map<string, number>();
  readonly app: AppInfo;
  /**
   * The GitHub Actions app: what a workflow's GITHUB_TOKEN acts as (its check runs, its
   * `github-actions[bot]` comments). Its id is github.com's.
   */
  readonly actionsApp: AppInfo;
  readonly installation: Installation;

  constructor(opts: { appId: number; appSlug: string; installationId: number; account: string }) {
    const createdAt = isoNow();
    const owner = this.user(opts.account, "Organization");
    this.app = {
      id: opts.appId,
      slug: opts.appSlug,
      name: opts.appSlug,
      owner,
      bot: this.user(`${opts.appSlug}[bot]`, "Bot"),
      permissions: {
        checks: "write",
        contents: "write",
        issues: "write",
        metadata: "read",
        pull_requests: "write",
      },
      events: ["check_run", "issue_comment", "pull_request", "pull_request_review", "pull_request_review_comment"],
      createdAt,
    };
    this.installation = { id: opts.installationId, account: owner, createdAt };
    this.actionsApp = {
      id: ACTIONS_APP_ID,
      slug: "github-actions",
      name: "GitHub Actions",
      owner: this.user("github", "Organization"),
      bot: this.user("github-actions[bot]", "Bot"),
      // What `permissions:` may grant a GITHUB_TOKEN; never `workflows`.
      permissions: { checks: "write", contents: "write", issues: "write", metadata: "read", pull_requests: "write" },
      events: [],
      createdAt,
    };
  }

  /** The app with this id (the app under test or GitHub Actions), for runs and comments it owns. */
  appById(id: number): AppInfo | undefined {
    return [this.app, this.actionsApp].find((app) => app.id === id);
  }

  /** The app whose bot account this is, if any. */
  appOfBot(user: User): AppInfo | undefined {
    return [this.app, this.actionsApp].find((app) => app.bot === user);
  }

  nextId(kind: string, start = 1000): number {
    const id = this.nextIds.get(kind) ?? start;
    this.nextIds.set(kind, id + 1);
    return id;
  }

  /** The user with that login, created on first mention. */
  user(login: string, type: User["type"] = login.endsWith("[bot]") ? "Bot" : "User"): User {
    let u = this.users.get(login.toLowerCase());
    if (!u) {
      u = { login, id: this.nextId("user", 5000), type };
      this.users.set(login.toLowerCase(), u);
    }
    return u;
  }

  repo(owner: string, name: string): Repo | undefined {
    return this.repos.get(`${owner}/${name}`.toLowerCase());
  }

  addRepo(repo: Repo): void {
    this.repos.set(repo.fullName.toLowerCase(), repo);
  }

  pull(repo: Repo, number: number): PullRequest | undefined {
    return this.pulls.find((p) => p.repo === repo && p.number === number);
  }

  /** Next issue/PR number of a repository (they share one sequence, as on GitHub). */
  nextNumber(repo: Repo): number {
    return this.nextId(`number:${repo.fullName}`, 1);
  }

  role(repo: Repo, login: string): Role {
    const set = this.permissions.get(repo.fullName.toLowerCase())?.get(login.toLowerCase());
    if (set) return set;
    return repo.owner.login.toLowerCase() === login.toLowerCase() ? "admin" : "none";
  }

  setRole(repo: Repo, login: string, role: Role): void {
    const key = repo.fullName.toLowerCase();
    if (!this.permissions.has(key)) this.permissions.set(key, new Map());
    this.permissions.get(key)!.set(login.toLowerCase(), role);
    this.user(login);
  }

  checkSuiteId(repo: Repo, headSha: string, appId: number): number {
    const key = `${repo.fullName}@${headSha}#${appId}`;
    let id = this.checkSuites.get(key);
    if (id === undefined) {
      id = this.nextId("check_suite", 7_000_000);
      this.checkSuites.set(key, id);
    }
    return id;
  }

  /**
   * Whether the installation may write to this repository. Every repository created by the test
   * counts as installed; a fork owned by someone else is not (apps cannot push to fork branches).
   */
  installedOn(repo: Repo): boolean {
    return !repo.parent || repo.owner.login.toLowerCase() === this.installation.account.login.toLowerCase();
  }

  /**
   * The branches of a fork the app may push to: head branches of open pull requests whose author
   * allowed edits by maintainers (when the policy lets apps do what maintainers may).
   */
  maintainerBranches(repo: Repo): string[] {
    if (this.forkPushPolicy === "never") return [];
    return this.pulls
      .filter(
        (pr) => pr.headRepo === repo && pr.repo !== repo && pr.state === "open" && pr.maintainerCanModify && this.installedOn(pr.repo),
      )
      .map((pr) => pr.headRef);
  }
}
