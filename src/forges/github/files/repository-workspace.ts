/**
 * The files of a GitHub repository at a commit or branch, for a command: from the repository
 * cache on disk (workspace/git-cache.ts, filled over HTTPS with the installation token as GitHub
 * documents for apps: `x-access-token`), read lazily (workspace/git-workspace.ts).
 *
 * The tarball (one download into memory, tarball-workspace.ts) is the fallback where git cannot
 * be used: RESOLVE_BOT_WORKSPACE=tarball, no `git` program on the server, or a fetch that fails
 * (a GitHub Enterprise that refuses fetching by SHA, a proxy that only lets the API through).
 * Each fallback is logged with its reason.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { toolTimeLimitMs } from "../../../core/execution.js";
import type { PipelineLog } from "../../../pipeline/ports.js";
import { shortSha } from "../../../core/revision.js";
import { UserError } from "../../../errors.js";
import { TransientFailure } from "../../../pipeline/transient.js";
import { defaultBudgetBytes, GitCache, type CachedCommit, type GitRemote } from "../../../workspace/git-cache.js";
import { onlyParent, readCommitObject, revertOnto } from "../../../workspace/git-revert.js";
import { GitWorkspace } from "../../../workspace/git-workspace.js";
import { GitFailure } from "../../../workspace/safe-git.js";
import { inMemoryLimits, serverLimits, withinServerLimits, type WorkspaceLimits } from "../../../workspace/limits.js";
import type { Revert, Workspace } from "../../../workspace/workspace.js";
import { TarballWorkspace } from "./tarball-workspace.js";
import type { GitHubClient, RepoRef } from "../types.js";

/** How a command's files are read: the repository cache (default) or the tarball. */
type Mode = "git" | "tarball";

interface Setup {
  mode: Mode;
  cache?: GitCache;
  limits: WorkspaceLimits;
}

const setups = new Map<string, Setup>();

/** The cache of this process (per data directory and settings), built from the environment once. */
function setupFrom(env: NodeJS.ProcessEnv, log: PipelineLog): Setup {
  const keys = [
    "RESOLVE_BOT_DATA_DIR",
    "RESOLVE_BOT_WORKSPACE",
    "RESOLVE_BOT_CACHE_DISK_MB",
    "RESOLVE_BOT_MAX_FILES",
    "RESOLVE_BOT_MAX_FILE_BYTES",
    "RESOLVE_BOT_MAX_TOTAL_BYTES",
    "RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS",
  ];
  const key = JSON.stringify(keys.map((name) => env[name] ?? null));
  let setup = setups.get(key);
  if (setup === undefined) {
    setup = buildSetup(env, log);
    setups.set(key, setup);
  }
  return setup;
}

function buildSetup(env: NodeJS.ProcessEnv, log: PipelineLog): Setup {
  const root = path.resolve(env.RESOLVE_BOT_DATA_DIR?.trim() || ".data");
  const budgetBytes = cacheBudget(env, root);
  const limits = serverLimits(env, budgetBytes);
  const wanted = env.RESOLVE_BOT_WORKSPACE?.trim() || "git";
  if (wanted !== "git" && wanted !== "tarball") throw new Error(`RESOLVE_BOT_WORKSPACE must be "git" or "tarball" (got "${wanted}").`);
  if (wanted === "tarball") return { mode: "tarball", limits };
  if (!hasGit()) {
    const reason = "the git program is not installed on this server";
    log.warn({ err: new Error(reason) }, "resolve-bot reads pull requests from tarballs: no repository cache");
    return { mode: "tarball", limits };
  }
  // A command may read its repository for as long as it may run: never evict one that recently.
  const inUseMs = Math.max(15 * 60_000, 2 * toolTimeLimitMs(env));
  return { mode: "git", cache: new GitCache({ root, budgetBytes, inUseMs }), limits };
}

/** RESOLVE_BOT_CACHE_DISK_MB, or half of the free disk where the cache lies. */
function cacheBudget(env: NodeJS.ProcessEnv, root: string): number {
  const text = env.RESOLVE_BOT_CACHE_DISK_MB?.trim();
  if (text === undefined || text === "") return defaultBudgetBytes(root);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`RESOLVE_BOT_CACHE_DISK_MB must be a whole number of at least 1 (got "${text}").`);
  return value * 1024 * 1024;
}

function hasGit(): boolean {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export interface RepositoryFiles {
  /** The server's limits with the repository's own within them (what a refusal names). */
  limits(repository: Partial<WorkspaceLimits>): WorkspaceLimits;
  /** The files at `ref` (a SHA, or a branch name for the default branch). */
  at(repo: RepoRef, ref: string, limits: WorkspaceLimits): Promise<Workspace>;
  /**
   * Starts bringing pull request `number`'s head into the repository cache before its SHA is
   * read, when the cache does not hold the repository yet (GitCache.warm); settles when done,
   * never with an error (the command's own fetch says what went wrong).
   */
  warm(repo: RepoRef, number: number): Promise<void>;
  /**
   * `git revert <commit>` onto `onto`'s revision (undo), in the repository cache: the commit and
   * its parent are fetched by SHA when missing. Refused where there is no cache (tarballs).
   */
  revert(repo: RepoRef, onto: Workspace, commit: string): Promise<Revert>;
}

export const UNDO_NEEDS_GIT =
  "Undo needs the repository cache (git), and this server reads pull requests from tarballs (`RESOLVE_BOT_WORKSPACE=tarball`, or no `git` program); revert the commit by hand.";

/**
 * A fetch for a revert that failed: GitHub failing for now (a 5xx, a dropped connection) is tried
 * again by the job queue; a commit GitHub no longer has is the reviewer's to know; anything else
 * is a bug.
 */
function revertFetchFailure(error: unknown, commit: string): unknown {
  if (!(error instanceof GitFailure)) return error;
  if (
    /returned error: 5\d\d|Failed to connect|Could not resolve host|Connection (?:reset|refused|timed out)|Operation timed out|RPC failed/i.test(
      error.stderr,
    )
  )
    return new TransientFailure(`fetching ${shortSha(commit)} for undo failed for now`, undefined, { cause: error });
  if (/not our ref|couldn't find remote ref|upload-pack: not our ref/i.test(error.stderr))
    return new UserError(`${shortSha(commit)} is no longer on GitHub (the branch was force-pushed?), so it cannot be undone.`);
  return error;
}

/**
 * `webUrl`: where GitHub's web (and git) lives, e.g. https://github.com; the repository's git URL
 * is `<webUrl>/<owner>/<repo>.git`.
 */
export function repositoryFiles(
  octokit: GitHubClient,
  webUrl: string,
  log: PipelineLog,
  env: NodeJS.ProcessEnv = process.env,
): RepositoryFiles {
  const setup = setupFrom(env, log);
  const host = new URL(webUrl).host;
  const authorization = async () => {
    const { token } = (await octokit.auth({ type: "installation" })) as { token: string };
    return `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;
  };
  const tarball = (repo: RepoRef, ref: string, limits: WorkspaceLimits) =>
    TarballWorkspace.download(octokit, repo, ref, inMemoryLimits(limits));
  /** What this request's warm fetched, by repository (GitCache.warm). */
  const warmed = new Map<string, Promise<CachedCommit | undefined>>();
  const repoKey = (repo: RepoRef) => `${repo.owner}/${repo.repo}`;
  const remote = (repo: RepoRef): GitRemote => ({
    url: `${webUrl}/${repo.owner}/${repo.repo}.git`,
    location: [host, repo.owner, repo.repo],
    authorization,
  });
  return {
    limits: (repository) => withinServerLimits(setup.limits, repository),
    async revert(repo, onto, commit) {
      const cache = setup.cache;
      if (cache === undefined) throw new UserError(UNDO_NEEDS_GIT);
      let gitDir: string;
      try {
        ({ gitDir } = await cache.commit(remote(repo), onto.revision));
        await cache.commit(remote(repo), commit);
        await cache.commit(remote(repo), onlyParent(commit, await readCommitObject(gitDir, commit)));
      } catch (error) {
        throw revertFetchFailure(error, commit);
      }
      return revertOnto(gitDir, onto, commit);
    },
    async warm(repo, number) {
      const cache = setup.cache;
      if (cache === undefined) return;
      const warming = cache.warm(remote(repo), number).catch(() => undefined);
      warmed.set(repoKey(repo), warming);
      await warming;
    },
    async at(repo, ref, limits) {
      if (setup.cache === undefined) return tarball(repo, ref, limits);
      let commit;
      try {
        // The head this request's warm fetched is there: no need to ask the cache again.
        const early = await warmed.get(repoKey(repo));
        commit = early?.sha === ref ? early : await setup.cache.commit(remote(repo), ref);
      } catch (error) {
        log.warn({ err: error }, `resolve-bot could not fetch ${repo.owner}/${repo.repo} at ${ref} with git; reading its tarball instead`);
        return tarball(repo, ref, limits);
      }
      return new GitWorkspace(commit.gitDir, commit.sha, limits, setup.cache.checkouts);
    },
  };
}
