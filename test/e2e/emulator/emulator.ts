/**
 * GitHubEmulator: the control API tests use. It owns the HTTP server, the git store and the
 * state, and exposes setup (repos, PRs, pushes, permissions), observation (request log, check
 * runs, comments, reactions, git reads), steering (faults, hooks) and validation.
 */
import { AppAuth } from "./auth.js";
import { GitHttp } from "./git-http.js";
import { GitStore, ZERO_SHA, type CommitInfo, type FileMap, type GitIdentity, type TreeEntry } from "./git-store.js";
import { OpenApiValidator } from "./openapi.js";
import { Router, type RequestPattern } from "./router.js";
import { registerAppRoutes } from "./routes/app.js";
import { registerCheckRoutes } from "./routes/checks.js";
import { registerDeliveryRoutes } from "./routes/deliveries.js";
import { DeliveryLog, type DeliveryFault, type DeliveryFaultSpec, type RecordedDeliverySpec } from "./deliveries.js";
import { RouteContext } from "./routes/context.js";
import { registerGitRoutes } from "./routes/git.js";
import { registerRepoRoutes } from "./routes/repos.js";
import { registerReviewCommentRoutes } from "./routes/review-comments.js";
import { registerReviewRoutes } from "./routes/reviews.js";
import { API_PREFIX, EmulatorServer } from "./server.js";
import { Shapes } from "./shapes.js";
import {
  advanceClock,
  clockNow,
  EmulatorState,
  isoNow,
  type CheckRun,
  type ForkPushPolicy,
  type HookDelivery,
  type PullRequest,
  type Repo,
  type Review,
  type Role,
} from "./state.js";
import { Traffic, type Fault, type FaultSpec, type Hook, type LogEntry } from "./traffic.js";
import { WebhookFactory, type DeliveryResult, type WebhookEvent } from "./webhooks.js";

export interface EmulatorOptions {
  appId?: number;
  appSlug?: string;
  installationId?: number;
  /** Login of the account the app is installed on (an organisation). */
  account?: string;
  /** Verify JWTs with this key instead of generating a key pair (then `privateKey` is undefined). */
  publicKeyPem?: string;
}

export interface CommitSpec {
  files: FileMap;
  message?: string;
  /** Login of the author (a noreply address is derived) or a full identity. */
  author?: string | GitIdentity;
  /** Replace the whole tree with `files` instead of applying them on top of the parent. */
  replace?: boolean;
}

export interface PullRequestSpec {
  /** `owner/name` of the base repository. */
  repo: string;
  /** Base branch; defaults to the default branch. */
  base?: string;
  /** Head branch name; created from `base` (or `from`) when missing. */
  head: string;
  /** `owner/name` of the head repository for fork PRs (forked from `repo` when it does not exist). */
  headRepo?: string;
  /** Commits added to the head branch before the PR is opened. */
  commits?: CommitSpec[];
  title?: string;
  body?: string;
  /** PR author login; defaults to the head repository owner. */
  user?: string;
  maintainerCanModify?: boolean;
  draft?: boolean;
}

export interface Violation {
  seq: number;
  method: string;
  path: string;
  status: number;
  operation: string | undefined;
  errors: string[];
}

/** GitHub completes check runs that stay incomplete longer than this as `stale`. */
export const STALE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

function identityOf(author: string | GitIdentity | undefined): GitIdentity {
  if (typeof author === "object") return author;
  const login = author ?? "test-author";
  return { name: login, email: `${login}@users.noreply.github.com` };
}

function splitFullName(fullName: string): [string, string] {
  const [owner, name, ...rest] = fullName.split("/");
  if (!owner || !name || rest.length) throw new Error(`expected owner/name, got ${fullName}`);
  return [owner, name];
}

export class GitHubEmulator {
  readonly state: EmulatorState;
  readonly auth: AppAuth;
  readonly traffic = new Traffic();
  private readonly hookDeliveries: DeliveryLog;
  private readonly router = new Router();
  private server: EmulatorServer | undefined;
  private gitStore: GitStore | undefined;
  private context: RouteContext | undefined;
  private factory: WebhookFactory | undefined;

  constructor(opts: EmulatorOptions = {}) {
    const appId = opts.appId ?? 424242;
    this.state = new EmulatorState({
      appId,
      appSlug: opts.appSlug ?? "resolve-bot",
      installationId: opts.installationId ?? 31337,
      account: opts.account ?? "acme",
    });
    this.auth = new AppAuth(appId, opts.publicKeyPem ? { publicKeyPem: opts.publicKeyPem } : undefined);
    this.hookDeliveries = new DeliveryLog(this.state);
  }

  /** Construct and start in one step. */
  static async start(opts: EmulatorOptions = {}): Promise<GitHubEmulator> {
    const emulator = new GitHubEmulator(opts);
    await emulator.start();
    return emulator;
  }

  async start(): Promise<void> {
    if (this.server) return;
    this.gitStore = await GitStore.create();
    const git = new GitHttp(this.auth, (owner, name) => this.state.repo(owner, name)?.gitDir);
    this.server = new EmulatorServer(this.router, this.traffic, this.auth, git);
    await this.server.listen();
    const shapes = new Shapes(this.apiUrl, this.url);
    this.context = new RouteContext(this.state, this.gitStore, shapes, this.auth, (repo, ref) => this.afterRefUpdate(repo, ref));
    // Specific routes before greedy ones: `commits/{ref+}/check-runs` precedes `commits/{ref+}`.
    registerAppRoutes(this.router, this.context);
    registerDeliveryRoutes(this.router, this.context, this.hookDeliveries);
    registerCheckRoutes(this.router, this.context);
    registerGitRoutes(this.router, this.context);
    registerReviewRoutes(this.router, this.context);
    registerReviewCommentRoutes(this.router, this.context);
    registerRepoRoutes(this.router, this.context);
    this.factory = new WebhookFactory(this.context);
  }

  async stop(): Promise<void> {
    await this.server?.close();
    await this.gitStore?.dispose();
    this.server = undefined;
    this.gitStore = undefined;
  }

  // ---------------------------------------------------------------- addresses and app identity

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.requireServer().origin;
  }

  /** Octokit's baseUrl: `http://127.0.0.1:<port>/api/v3` */
  get apiUrl(): string {
    return `${this.url}${API_PREFIX}`;
  }

  /** For Probot's GHE_HOST: `127.0.0.1:<port>` */
  get host(): string {
    return this.url.replace(/^http:\/\//, "");
  }

  get appId(): number {
    return this.state.app.id;
  }

  get appSlug(): string {
    return this.state.app.slug;
  }

  get botLogin(): string {
    return this.state.app.bot.login;
  }

  get installationId(): number {
    return this.state.installation.id;
  }

  /** `github-actions[bot]`: who comments and reacts with a workflow's GITHUB_TOKEN. */
  get actionsBotLogin(): string {
    return this.state.actionsApp.bot.login;
  }

  get actionsAppId(): number {
    return this.state.actionsApp.id;
  }

  /**
   * A workflow's GITHUB_TOKEN: it acts as the GitHub Actions app (its check runs, comments and
   * commits are that app's), never pushes to forks or changes workflows; `readOnly` is the token of
   * a workflow started by a pull request from a fork (every write: 403 "Resource not accessible by integration").
   */
  actionsToken(opts: { readOnly?: boolean } = {}): string {
    return this.auth.issueToken(this.installationId, 60 * 60 * 1000, { appId: this.state.actionsApp.id, ...opts }).token;
  }

  /**
   * A person's GitHub token, as an MCP client sends it: an OAuth user-to-server token of the app
   * (`kind: "oauth"`, the default) or a fine-grained personal access token (`"pat"`). `GET /user`
   * answers with that user; a negative `ttlMs` makes one that has already expired (401).
   */
  userToken(login: string, opts: { kind?: "oauth" | "pat"; ttlMs?: number } = {}): string {
    this.state.user(login);
    return this.auth.issueUserToken(login, opts).token;
  }

  /** PEM (PKCS#1) of the generated app key, for Probot's PRIVATE_KEY. */
  get privateKey(): string {
    if (!this.auth.privateKeyPem) throw new Error("the emulator was given a public key; it has no private key");
    return this.auth.privateKeyPem;
  }

  /** Environment for a Probot process pointed at this emulator. */
  probotEnv(webhookSecret: string): Record<string, string> {
    return {
      APP_ID: String(this.appId),
      PRIVATE_KEY: this.privateKey,
      WEBHOOK_SECRET: webhookSecret,
      GHE_HOST: this.host,
      GHE_PROTOCOL: "http",
    };
  }

  private requireServer(): EmulatorServer {
    if (!this.server) throw new Error("emulator not started");
    return this.server;
  }

  private get ctx(): RouteContext {
    if (!this.context) throw new Error("emulator not started");
    return this.context;
  }

  private get git(): GitStore {
    if (!this.gitStore) throw new Error("emulator not started");
    return this.gitStore;
  }

  private repoOf(fullName: string): Repo {
    const [owner, name] = splitFullName(fullName);
    const repo = this.state.repo(owner, name);
    if (!repo) throw new Error(`no repository ${fullName}`);
    return repo;
  }

  private pullOf(fullName: string, number: number): PullRequest {
    const pr = this.state.pull(this.repoOf(fullName), number);
    if (!pr) throw new Error(`no pull request ${fullName}#${number}`);
    return pr;
  }

  // ---------------------------------------------------------------- setup

  /** A repository whose default branch has one commit with `files`. */
  async createRepo(
    owner: string,
    name: string,
    files: FileMap,
    opts: { defaultBranch?: string; private?: boolean; message?: string; author?: string | GitIdentity; description?: string } = {},
  ): Promise<{ fullName: string; defaultBranch: string; headSha: string }> {
    const fullName = `${owner}/${name}`;
    if (this.state.repo(owner, name)) throw new Error(`repository ${fullName} exists`);
    const defaultBranch = opts.defaultBranch ?? "main";
    const gitDir = this.git.repoDir(fullName);
    await this.git.init(gitDir, defaultBranch);
    this.registerRepo(owner, name, gitDir, { ...opts, defaultBranch });
    const headSha = await this.git.commitFiles(gitDir, {
      files,
      message: opts.message ?? "Initial commit",
      author: identityOf(opts.author ?? owner),
    });
    await this.git.updateRef(gitDir, `refs/heads/${defaultBranch}`, headSha, ZERO_SHA);
    return { fullName, defaultBranch, headSha };
  }

  /**
   * A repository whose history is a copy of the bare repository `source` (hard links where the
   * file system allows): for repositories too big to build through createRepo in every test
   * file (test/helpers/big-repos.ts builds them once).
   */
  async importRepo(
    owner: string,
    name: string,
    source: string,
    opts: { defaultBranch?: string } = {},
  ): Promise<{ fullName: string; headSha: string }> {
    const fullName = `${owner}/${name}`;
    if (this.state.repo(owner, name)) throw new Error(`repository ${fullName} exists`);
    const defaultBranch = opts.defaultBranch ?? "main";
    const gitDir = this.git.repoDir(fullName);
    await this.git.cloneBare(source, gitDir, { local: true });
    this.registerRepo(owner, name, gitDir, { defaultBranch });
    const headSha = await this.git.refSha(gitDir, `refs/heads/${defaultBranch}`);
    if (!headSha) throw new Error(`${source} has no branch ${defaultBranch}`);
    return { fullName, headSha };
  }

  private registerRepo(
    owner: string,
    name: string,
    gitDir: string,
    opts: { defaultBranch: string; private?: boolean; description?: string },
  ): void {
    const now = isoNow();
    this.state.addRepo({
      id: this.state.nextId("repo", 100_000),
      owner: this.state.user(owner),
      name,
      fullName: `${owner}/${name}`,
      defaultBranch: opts.defaultBranch,
      private: opts.private ?? false,
      gitDir,
      createdAt: now,
      pushedAt: now,
      description: opts.description ?? null,
    });
  }

  /** Fork `source` (`owner/name`) to `owner` with all its branches. */
  async forkRepo(source: string, owner: string, opts: { name?: string } = {}): Promise<{ fullName: string }> {
    const parent = this.repoOf(source);
    const name = opts.name ?? parent.name;
    const fullName = `${owner}/${name}`;
    if (this.state.repo(owner, name)) throw new Error(`repository ${fullName} exists`);
    const gitDir = this.git.repoDir(fullName);
    await this.git.cloneBare(parent.gitDir, gitDir);
    const now = isoNow();
    this.state.addRepo({
      ...parent,
      id: this.state.nextId("repo", 100_000),
      owner: this.state.user(owner),
      name,
      fullName,
      parent,
      gitDir,
      createdAt: now,
      pushedAt: now,
    });
    return { fullName };
  }

  /** Create `branch` at `from` (a branch, tag or sha; default branch when omitted). */
  async createBranch(fullName: string, branch: string, from?: string): Promise<string> {
    const repo = this.repoOf(fullName);
    const sha = await this.git.resolve(repo.gitDir, from ?? repo.defaultBranch);
    if (!sha) throw new Error(`cannot resolve ${from ?? repo.defaultBranch} in ${fullName}`);
    await this.git.withLock(repo.gitDir, () => this.git.updateRef(repo.gitDir, `refs/heads/${branch}`, sha, ZERO_SHA));
    await this.afterRefUpdate(repo, `refs/heads/${branch}`);
    return sha;
  }

  /**
   * Push a commit made of `files` on top of `branch` (a "concurrent push" when called while the
   * app works, e.g. from `onceBefore`). `null` deletes a path. Returns the new head sha.
   */
  async pushCommit(fullName: string, branch: string, spec: CommitSpec): Promise<string> {
    const repo = this.repoOf(fullName);
    const ref = `refs/heads/${branch}`;
    const sha = await this.git.withLock(repo.gitDir, async () => {
      const parent = await this.git.refSha(repo.gitDir, ref);
      const author = identityOf(spec.author);
      const next = await this.git.commitFiles(repo.gitDir, {
        parent,
        files: spec.files,
        message: spec.message ?? `Update ${Object.keys(spec.files).join(", ")}`,
        author,
        replace: spec.replace,
      });
      await this.git.updateRef(repo.gitDir, ref, next, parent ?? ZERO_SHA);
      return next;
    });
    await this.afterRefUpdate(repo, ref);
    return sha;
  }

  /** Move a branch to any commit (force push). */
  async forcePush(fullName: string, branch: string, sha: string): Promise<void> {
    const repo = this.repoOf(fullName);
    await this.git.withLock(repo.gitDir, () => this.git.updateRef(repo.gitDir, `refs/heads/${branch}`, sha));
    await this.afterRefUpdate(repo, `refs/heads/${branch}`);
  }

  async createPullRequest(spec: PullRequestSpec): Promise<{ number: number; headSha: string; baseSha: string; headRepo: string }> {
    const repo = this.repoOf(spec.repo);
    const base = spec.base ?? repo.defaultBranch;
    let headRepo = repo;
    if (spec.headRepo && spec.headRepo.toLowerCase() !== repo.fullName.toLowerCase()) {
      const [owner, name] = splitFullName(spec.headRepo);
      headRepo = this.state.repo(owner, name) ?? this.repoOf((await this.forkRepo(repo.fullName, owner, { name })).fullName);
    }
    if (!(await this.git.refSha(headRepo.gitDir, `refs/heads/${spec.head}`))) {
      await this.createBranch(
        headRepo.fullName,
        spec.head,
        (await this.git.refSha(headRepo.gitDir, `refs/heads/${base}`)) ? base : undefined,
      );
    }
    for (const c of spec.commits ?? [])
      await this.pushCommit(headRepo.fullName, spec.head, { author: spec.user ?? headRepo.owner.login, ...c });
    const now = isoNow();
    const pr: PullRequest = {
      id: this.state.nextId("pull", 600_000_000),
      number: this.state.nextNumber(repo),
      repo,
      title: spec.title ?? `Update ${spec.head}`,
      body: spec.body ?? null,
      user: this.state.user(spec.user ?? headRepo.owner.login),
      state: "open",
      merged: false,
      draft: spec.draft ?? false,
      maintainerCanModify: headRepo === repo ? false : (spec.maintainerCanModify ?? true),
      baseRef: base,
      headRepo,
      headRef: spec.head,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      mergedAt: null,
    };
    this.state.pulls.push(pr);
    await this.syncPullRef(pr);
    const shas = await this.ctx.pullShas(pr);
    return { number: pr.number, ...shas, headRepo: headRepo.fullName };
  }

  closePullRequest(fullName: string, number: number, opts: { merged?: boolean } = {}): void {
    const pr = this.pullOf(fullName, number);
    const now = isoNow();
    pr.state = "closed";
    pr.closedAt = now;
    pr.updatedAt = now;
    if (opts.merged) {
      pr.merged = true;
      pr.mergedAt = now;
    }
  }

  reopenPullRequest(fullName: string, number: number): void {
    const pr = this.pullOf(fullName, number);
    if (pr.merged) throw new Error("a merged pull request cannot be reopened");
    pr.state = "open";
    pr.closedAt = null;
    pr.updatedAt = isoNow();
  }

  /** Set a user's role on a repository (admin/maintain/write/triage/read/none). */
  setPermission(fullName: string, login: string, role: Role): void {
    this.state.setRole(this.repoOf(fullName), login, role);
  }

  /** Whether the app may push to fork branches whose pull request allows edits by maintainers. */
  setForkPushPolicy(policy: ForkPushPolicy): void {
    this.state.forkPushPolicy = policy;
  }

  /** Turn "Allow edits by maintainers" on or off for a pull request. */
  setMaintainerCanModify(fullName: string, number: number, allowed: boolean): void {
    this.pullOf(fullName, number).maintainerCanModify = allowed;
  }

  /** Reviews posted on a pull request, with their line comments. */
  reviews(fullName: string, number: number): Array<Omit<Review, "repo" | "user"> & { user: string }> {
    const repo = this.repoOf(fullName);
    return this.state.reviews
      .filter((review) => review.repo === repo && review.number === number)
      .map(({ repo: _repo, user, ...review }) => ({ ...review, user: user.login, comments: review.comments.map((c) => ({ ...c })) }));
  }

  /** Grant or revoke an installation permission, e.g. `setAppPermission("workflows", "write")`. */
  setAppPermission(name: string, level: "read" | "write" | undefined): void {
    if (level) this.state.app.permissions[name] = level;
    else delete this.state.app.permissions[name];
  }

  grantWorkflows(): void {
    this.setAppPermission("workflows", "write");
  }

  revokeWorkflows(): void {
    this.setAppPermission("workflows", undefined);
  }

  /**
   * Moves the emulator's clock forward. As GitHub does, every check run left incomplete for more
   * than 14 days is then completed with conclusion `stale`. Returns the `check_run.completed`
   * deliveries GitHub sends for this app's runs; a test that does not deliver one models a lost delivery.
   */
  async advanceClock(ms: number): Promise<WebhookEvent[]> {
    advanceClock(ms);
    const events: WebhookEvent[] = [];
    for (const run of this.state.checkRuns) {
      if (run.status === "completed" || clockNow() - Date.parse(run.createdAt) <= STALE_AFTER_MS) continue;
      run.status = "completed";
      run.conclusion = "stale";
      run.completedAt = isoNow();
      if (run.appId === this.state.app.id) {
        events.push(
          await this.webhooks.checkRun({ repo: run.repo.fullName, checkRunId: run.id, action: "completed", user: run.repo.owner.login }),
        );
      }
    }
    return events;
  }

  /** Add a check run as another app would (e.g. CI); `appId` defaults to a foreign app. */
  addCheckRun(
    fullName: string,
    run: { headSha: string; name: string; status?: CheckRun["status"]; conclusion?: string; appId?: number; externalId?: string },
  ): number {
    const repo = this.repoOf(fullName);
    const appId = run.appId ?? 15368;
    const now = isoNow();
    const completed = Boolean(run.conclusion) || run.status === "completed";
    const id = this.state.nextId("check_run", 30_000_000);
    this.state.checkRuns.push({
      id,
      repo,
      appId,
      checkSuiteId: this.state.checkSuiteId(repo, run.headSha, appId),
      headSha: run.headSha,
      name: run.name,
      createdAt: now,
      status: completed ? "completed" : (run.status ?? "queued"),
      conclusion: run.conclusion ?? (completed ? "success" : null),
      startedAt: now,
      completedAt: completed ? now : null,
      externalId: run.externalId ?? null,
      detailsUrl: null,
      output: { title: null, summary: null, text: null },
      annotations: [],
      actions: [],
    });
    return id;
  }

  // ---------------------------------------------------------------- git reads for assertions

  async branchSha(fullName: string, branch: string): Promise<string | undefined> {
    return this.git.refSha(this.repoOf(fullName).gitDir, `refs/heads/${branch}`);
  }

  /** Resolve a branch, tag or sha to a commit sha. */
  async resolve(fullName: string, ref: string): Promise<string | undefined> {
    return this.git.resolve(this.repoOf(fullName).gitDir, ref);
  }

  /** A file's content (utf-8) at a ref, or undefined when it does not exist. */
  async fileAt(fullName: string, ref: string, path: string): Promise<string | undefined> {
    return (await this.fileBufferAt(fullName, ref, path))?.toString("utf8");
  }

  async fileBufferAt(fullName: string, ref: string, path: string): Promise<Buffer | undefined> {
    const repo = this.repoOf(fullName);
    const sha = await this.git.resolve(repo.gitDir, ref);
    const entry = sha && (await this.git.fileAt(repo.gitDir, sha, path));
    return entry && entry.type === "blob" ? this.git.readBlob(repo.gitDir, entry.sha) : undefined;
  }

  /** Every file at a ref (utf-8), for whole-tree assertions. */
  async filesAt(fullName: string, ref: string): Promise<Record<string, string>> {
    const repo = this.repoOf(fullName);
    const sha = await this.git.resolve(repo.gitDir, ref);
    if (!sha) throw new Error(`cannot resolve ${ref} in ${fullName}`);
    const files = await this.git.readFiles(repo.gitDir, sha);
    return Object.fromEntries(Object.entries(files).map(([p, b]) => [p, b.toString("utf8")]));
  }

  /** The recursive tree at a ref (blobs with mode, sha and size; trees too). */
  async treeAt(fullName: string, ref: string): Promise<TreeEntry[]> {
    const repo = this.repoOf(fullName);
    const sha = await this.git.resolve(repo.gitDir, ref);
    if (!sha) throw new Error(`cannot resolve ${ref} in ${fullName}`);
    return this.git.readTree(repo.gitDir, sha, true);
  }

  /** A commit's message, parents, tree, author/committer, and whether GitHub signed it. */
  async commit(fullName: string, ref: string): Promise<CommitInfo & { verified: boolean }> {
    const repo = this.repoOf(fullName);
    const sha = await this.git.resolve(repo.gitDir, ref);
    if (!sha) throw new Error(`cannot resolve ${ref} in ${fullName}`);
    return { ...(await this.git.readCommit(repo.gitDir, sha)), verified: this.state.signedCommits.has(sha) };
  }

  /** Run git in a repository's bare directory (stdout as utf-8). */
  async runGit(fullName: string, args: string[]): Promise<string> {
    return (await this.git.run(this.repoOf(fullName).gitDir, args)).stdout.toString("utf8");
  }

  gitDir(fullName: string): string {
    return this.repoOf(fullName).gitDir;
  }

  // ---------------------------------------------------------------- observation

  /** Check runs, with the `html_url` the API gives them (`htmlUrl`). */
  checkRuns(fullName: string, filter: { headSha?: string; name?: string } = {}): Array<CheckRun & { htmlUrl: string }> {
    const repo = this.repoOf(fullName);
    return this.state.checkRuns
      .filter((r) => r.repo === repo && (!filter.headSha || r.headSha === filter.headSha) && (!filter.name || r.name === filter.name))
      .map((r) => ({
        ...r,
        output: { ...r.output },
        annotations: [...r.annotations],
        actions: [...r.actions],
        htmlUrl: this.ctx.shapes.checkRunHtmlUrl(r),
      }));
  }

  comments(fullName: string, number: number): Array<{ id: number; user: string; body: string; createdAt: string; updatedAt: string }> {
    const repo = this.repoOf(fullName);
    return this.state.comments
      .filter((c) => c.repo === repo && c.issueNumber === number)
      .map((c) => ({ id: c.id, user: c.user.login, body: c.body, createdAt: c.createdAt, updatedAt: c.updatedAt }));
  }

  /** Review comments on lines of a pull request (people's and the app's thread replies), oldest first. */
  lineComments(
    fullName: string,
    number: number,
  ): Array<{ id: number; user: string; body: string; path: string; line: number | null; inReplyTo: number | null }> {
    const repo = this.repoOf(fullName);
    return this.state.lineComments
      .filter((c) => c.repo === repo && c.number === number)
      .map((c) => ({ id: c.id, user: c.user.login, body: c.body, path: c.path, line: c.line, inReplyTo: c.inReplyTo }));
  }

  reactions(commentId: number): Array<{ id: number; user: string; content: string }> {
    return this.state.reactions.filter((r) => r.commentId === commentId).map((r) => ({ id: r.id, user: r.user.login, content: r.content }));
  }

  pullRequest(fullName: string, number: number): Promise<Record<string, unknown>> {
    return this.ctx.pullJson(this.pullOf(fullName, number));
  }

  // ---------------------------------------------------------------- traffic

  /** Every request so far (method, path without /api/v3, query, status, bodies, timestamp). */
  log(): LogEntry[] {
    return this.traffic.log();
  }

  /** Non-GET requests, without the token exchange and git fetches (a POST that reads). */
  writes(): LogEntry[] {
    return this.log().filter(
      (e) => e.method !== "GET" && e.method !== "HEAD" && !e.git && !/^\/app\/installations\/[^/]+\/access_tokens$/.test(e.path),
    );
  }

  /** Requests no route answered (404 "Not Found" from the emulator itself). */
  unmatched(): LogEntry[] {
    return this.log().filter((e) => e.operation === undefined && !e.path.startsWith("/_emulator/") && !e.fault && !e.git);
  }

  /** Git's smart HTTP requests so far (`GET …/info/refs`, `POST …/git-upload-pack`): what was fetched over git. */
  gitRequests(): LogEntry[] {
    return this.log().filter((e) => e.git !== undefined);
  }

  /** `http://127.0.0.1:<port>/<owner>/<repo>.git`, where git fetches the repository (Basic `x-access-token:<token>`). */
  gitUrl(fullName: string): string {
    return `${this.url}/${fullName}.git`;
  }

  clearLog(): void {
    this.traffic.clearLog();
  }

  injectFault(spec: FaultSpec): Fault {
    return this.traffic.injectFault(spec);
  }

  clearFaults(): void {
    this.traffic.clearFaults();
  }

  onceBefore(pattern: RequestPattern, fn: Hook): () => void {
    return this.traffic.onceBefore(pattern, fn);
  }

  onBefore(pattern: RequestPattern, fn: Hook): () => void {
    return this.traffic.onBefore(pattern, fn);
  }

  /**
   * Check every logged response against GitHub's OpenAPI description. Requests that matched no
   * route are violations too (the app called something the emulator, and maybe GitHub, lacks).
   */
  validateLog(entries: LogEntry[] = this.log()): Violation[] {
    const validator = OpenApiValidator.shared();
    const violations: Violation[] = [];
    for (const e of entries) {
      if (e.path.startsWith("/_emulator/") || e.git) continue;
      const errors =
        e.operation === undefined
          ? e.fault
            ? []
            : [`no emulated endpoint for ${e.method} ${e.path}`]
          : validator.validate({ operation: e.operation, status: e.status, body: e.responseBody, contentType: e.responseContentType });
      if (errors.length) violations.push({ seq: e.seq, method: e.method, path: e.path, status: e.status, operation: e.operation, errors });
    }
    return violations;
  }

  // ---------------------------------------------------------------- webhooks

  /** Payload builders bound to this emulator's state. */
  get webhooks(): WebhookFactory {
    if (!this.factory) throw new Error("emulator not started");
    return this.factory;
  }

  /**
   * Sends a signed delivery and records it as GitHub does (`GET /app/hook/deliveries`): with the
   * server's status, or failed when it could not be reached (then this throws) or a delivery fault
   * dropped it (status 0, nothing sent). The same `deliveryId` again is a redelivery.
   */
  deliver(url: string, event: WebhookEvent, opts: { secret: string; deliveryId?: string }): Promise<DeliveryResult> {
    return this.hookDeliveries.deliver(url, event, opts);
  }

  /**
   * The next matching delivery fails: `drop` never sends it (recorded "failed to connect");
   * `timeout` sends it and the server carries it out, but it is recorded "timed out" (status 0).
   */
  failDeliveries(spec: DeliveryFaultSpec): DeliveryFault {
    return this.hookDeliveries.failDeliveries(spec);
  }

  /** Records a delivery without sending it (as if GitHub had sent it while nobody looked). */
  addDelivery(spec: RecordedDeliverySpec): HookDelivery {
    return this.hookDeliveries.add(spec);
  }

  /** The deliveries GitHub still lists (3 days), newest first. */
  deliveries(): HookDelivery[] {
    return this.hookDeliveries.listed();
  }

  // ---------------------------------------------------------------- internals

  /** GitHub keeps `refs/pull/N/head` of the base repository at the PR head, forks included. */
  private async syncPullRef(pr: PullRequest): Promise<void> {
    const headRef = `refs/heads/${pr.headRef}`;
    const sha = await this.git.refSha(pr.headRepo.gitDir, headRef);
    if (!sha) return;
    if (pr.headRepo === pr.repo) await this.git.updateRef(pr.repo.gitDir, `refs/pull/${pr.number}/head`, sha);
    else await this.git.fetchRef(pr.repo.gitDir, pr.headRepo.gitDir, headRef, `refs/pull/${pr.number}/head`);
  }

  private async afterRefUpdate(repo: Repo, ref: string): Promise<void> {
    repo.pushedAt = isoNow();
    for (const pr of this.state.pulls) {
      if (pr.headRepo === repo && `refs/heads/${pr.headRef}` === ref && pr.state === "open") {
        pr.updatedAt = repo.pushedAt;
        await this.syncPullRef(pr);
      }
    }
  }
}
