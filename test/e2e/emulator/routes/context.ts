/**
 * What every route handler works with: state, git, JSON shapes, and the lookups they share.
 */
import type { AppAuth } from "../auth.js";
import type { GitStore } from "../git-store.js";
import { HttpError, notFound, type ApiRequest } from "../router.js";
import type { Shapes } from "../shapes.js";
import type { AppInfo, EmulatorState, PullRequest, Repo, User } from "../state.js";

export class RouteContext {
  constructor(
    readonly state: EmulatorState,
    readonly git: GitStore,
    readonly shapes: Shapes,
    readonly auth: AppAuth,
    /** Called after any branch of any repository moved (keeps `refs/pull/N/head` in sync). */
    readonly afterRefUpdate: (repo: Repo, ref: string) => Promise<void>,
  ) {}

  repo(req: ApiRequest): Repo {
    const repo = this.state.repo(req.params.owner ?? "", req.params.repo ?? "");
    if (!repo) throw notFound();
    return repo;
  }

  /** The app the request's token acts as: the app under test, or GitHub Actions for a GITHUB_TOKEN. */
  appOf(req: ApiRequest): AppInfo {
    return (req.appId === undefined ? undefined : this.state.appById(req.appId)) ?? this.state.app;
  }

  /**
   * The fork branches the request's token may push to: a GITHUB_TOKEN never may (GitHub's docs),
   * an app's installation token as the fork push policy says.
   */
  private maintainerBranches(req: ApiRequest, repo: Repo): string[] {
    return this.appOf(req) === this.state.app ? this.state.maintainerBranches(repo) : [];
  }

  /** A repository the installation may write to (forks of others are refused like on GitHub). */
  writableRepo(req: ApiRequest): Repo {
    const repo = this.repo(req);
    if (!this.state.installedOn(repo) && this.maintainerBranches(req, repo).length === 0) {
      throw new HttpError(403, "Resource not accessible by integration");
    }
    return repo;
  }

  /** A ref of a fork may only be moved when it is a branch maintainers may edit. */
  checkRefWritable(req: ApiRequest, repo: Repo, ref: string): void {
    if (this.state.installedOn(repo)) return;
    if (!this.maintainerBranches(req, repo).some((branch) => ref === `refs/heads/${branch}`)) {
      throw new HttpError(403, "Resource not accessible by integration");
    }
  }

  async branchSha(repo: Repo, branch: string): Promise<string | undefined> {
    return this.git.refSha(repo.gitDir, `refs/heads/${branch}`);
  }

  /** Current head/base shas of a PR (closed PRs whose head branch is gone keep `refs/pull/N/head`). */
  async pullShas(pr: PullRequest): Promise<{ headSha: string; baseSha: string }> {
    const headSha =
      (await this.branchSha(pr.headRepo, pr.headRef)) ?? (await this.git.refSha(pr.repo.gitDir, `refs/pull/${pr.number}/head`)) ?? "";
    const baseSha = (await this.branchSha(pr.repo, pr.baseRef)) ?? "";
    return { headSha, baseSha };
  }

  async pullJson(pr: PullRequest): Promise<Record<string, unknown>> {
    const { headSha, baseSha } = await this.pullShas(pr);
    const commits = headSha && baseSha ? await this.git.commitsBetween(pr.repo.gitDir, baseSha, headSha) : 0;
    return this.shapes.pull(pr, { headSha, baseSha, commits, authorAssociation: this.authorAssociation(pr.repo, pr.user) });
  }

  authorAssociation(repo: Repo, user: User): string {
    if (repo.owner.login.toLowerCase() === user.login.toLowerCase()) return "OWNER";
    const role = this.state.role(repo, user.login);
    if (role === "admin" || role === "maintain" || role === "write") return "COLLABORATOR";
    if (this.state.pulls.some((p) => p.repo === repo && p.user === user)) return "CONTRIBUTOR";
    return "NONE";
  }

  /** Open, same-repository PRs whose head is this sha (what check runs report as `pull_requests`). */
  async pullsAtHead(repo: Repo, sha: string): Promise<Array<{ pr: PullRequest; headSha: string; baseSha: string }>> {
    const out: Array<{ pr: PullRequest; headSha: string; baseSha: string }> = [];
    for (const pr of this.state.pulls) {
      if (pr.repo !== repo || pr.headRepo !== repo || pr.state !== "open") continue;
      const shas = await this.pullShas(pr);
      if (shas.headSha === sha) out.push({ pr, ...shas });
    }
    return out;
  }
}

/** Read an integer path parameter; anything else is a 404, as on GitHub. */
export function intParam(value: string | undefined): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 0) throw notFound();
  return n;
}

/** Body as an object (GitHub answers 400 for a body that is JSON but not an object). */
export function objectBody(req: ApiRequest): Record<string, unknown> {
  const b = req.body ?? {};
  if (typeof b !== "object" || Array.isArray(b)) throw new HttpError(400, "Problems parsing JSON");
  return b as Record<string, unknown>;
}

/** Pagination as GitHub does it: `per_page` (≤ 100, default 30), 1-based `page`, and a `Link` header. */
export function paginate<T>(items: T[], req: ApiRequest, apiBase: string): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 30) || 30));
  const page = Math.max(1, Number(req.query.page ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const linkTo = (p: number, rel: string): string => {
    const q = new URLSearchParams({ ...req.query, per_page: String(perPage), page: String(p) });
    return `<${apiBase}${req.path.split("/").map(encodeURIComponent).join("/")}?${q}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(linkTo(page + 1, "next"), linkTo(last, "last"));
  if (page > 1) links.push(linkTo(1, "first"), linkTo(page - 1, "prev"));
  return { page: items.slice((page - 1) * perPage, page * perPage), headers: links.length ? { link: links.join(", ") } : {} };
}
