/**
 * Repositories kept on disk between commands: one bare repository per remote repository under
 * `<root>/repos/<host>/<owner>/<repo>.git`, filled by real git over HTTP(S) with the credentials
 * the caller gives (in the environment of the one git process that needs them: never in argv,
 * never on disk).
 *
 * Only what is asked for is fetched, and only when it is missing: a commit is fetched alone
 * (`--depth=1`) by its SHA, so a second command on the same head fetches nothing, and a push
 * fetches only the objects the commits already here lack (git negotiates with them).
 *
 * Several worker threads and processes on one machine share the cache: each repository has a
 * lock (proper-lockfile) held while it is created or fetched into, and eviction takes it too.
 * Workers on other machines have caches of their own.
 *
 * A pull request's head may also be fetched by its ref before its SHA is known (`warm`), when the
 * cache does not hold the repository yet: that first fetch is the whole repository.
 *
 * Disk is bounded by a budget: after a fetch, repositories are evicted least recently used first
 * until the cache fits, except those used within `inUseMs` (a command may still be reading
 * them): then the cache is over budget for a while, and says so in the log. Eviction runs after
 * the fetch, not before the command that fetched reads its files (`idle` awaits it). The checkouts of
 * runs that read files in place count too: each reserves its bytes before it is written, and a
 * run whose checkout would not fit beside the rest copies the files instead.
 */
import { randomBytes } from "node:crypto";
import { existsSync, statfsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import type { CheckoutSpace, Reservation } from "./checkout.js";
import { authorizationEnv, gitSucceeds, runGit } from "./safe-git.js";

export interface GitRemote {
  /** e.g. `https://github.com/acme/widgets.git`. */
  url: string;
  /** Where its cache lies below `repos/`: host, owner, name (each one path component). */
  location: readonly [host: string, owner: string, name: string];
  /** The `Authorization` header value for git's requests (e.g. `Basic <base64 x-access-token:…>`). */
  authorization(): Promise<string>;
}

export interface CacheLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface GitCacheOptions {
  /** The cache's directory (RESOLVE_BOT_DATA_DIR/…). */
  root: string;
  /** Bytes the repositories may take together. */
  budgetBytes: number;
  /** A repository used this recently is never evicted. */
  inUseMs: number;
  log?: CacheLog;
}

export interface CachedCommit {
  /** The bare repository holding the commit, its tree and blobs. */
  gitDir: string;
  sha: string;
  /** Whether git had to fetch (false: everything was here). */
  fetched: boolean;
}

/** The file whose modification time is the repository's last use. */
const USED_MARK = "resolve-bot-used";
/** Below the cache's root: the runs' checkouts. */
const CHECKOUTS = "checkouts";
/** Beside a checkout's directory: the file reserving its bytes within the budget. */
const RESERVED = ".reserved";
const LOCK_STALE_MS = 60_000;

export class GitCache {
  constructor(readonly options: GitCacheOptions) {}

  /**
   * Where runs that read a commit's files in place get their checkouts (workspace/checkout.ts):
   * `<root>/checkouts/<random>`, each removed when its run ends (one a crash left behind, by the
   * next eviction once it is older than `inUseMs`). A checkout is made only while the
   * repositories, the checkouts reserved meanwhile and it fit the disk budget together.
   */
  readonly checkouts: CheckoutSpace = {
    directory: () => path.join(this.options.root, CHECKOUTS, randomBytes(8).toString("hex")),
    reserve: (dir, bytes) => this.reserveCheckout(dir, bytes),
  };

  repositoryDir(remote: GitRemote): string {
    for (const part of remote.location) {
      if (part === "" || part === "." || part === ".." || /[/\\\0]/.test(part))
        throw new Error(`not a path component: ${JSON.stringify(part)}`);
    }
    const [host, owner, name] = remote.location;
    return path.join(this.options.root, "repos", host, owner, `${name}.git`);
  }

  /**
   * The commit `ref` names (a full SHA, or a branch name such as `main`), fetched unless it is
   * here. A branch is always asked for (it may have moved); a SHA only when missing.
   */
  async commit(remote: GitRemote, ref: string): Promise<CachedCommit> {
    const isSha = /^[0-9a-f]{40}$/.test(ref);
    if (!isSha) await checkBranchName(ref);
    const cached = await this.withRepository(remote, async (gitDir, created) => {
      // A repository made just now holds nothing: no git run to ask it.
      if (isSha && !created && (await gitSucceeds(gitDir, ["cat-file", "-e", `${ref}^{tree}`]))) return { sha: ref, fetched: false };
      if (isSha) {
        // The object asked for by name is the one that came (upload-pack sends nothing else under it).
        await this.fetch(remote, gitDir, ref, `refs/resolve-bot/commits/${ref}`);
        return { sha: ref, fetched: true };
      }
      return { sha: await this.fetchRef(remote, gitDir, `refs/heads/${ref}`, `refs/resolve-bot/branches/${ref}`), fetched: true };
    });
    return cached!;
  }

  /**
   * Fetches the head of pull request `number` by its ref (`refs/pull/<number>/head`, which GitHub
   * keeps in the base repository, forks' pull requests included) when the cache does not hold the
   * repository yet: its first fetch is the whole repository, and it can start before the head's
   * SHA is read. Once the repository is here, a head is fetched by SHA (commit), and a head that is
   * here already fetches nothing. Resolves with the commit fetched, or undefined when nothing was.
   */
  async warm(remote: GitRemote, number: number): Promise<CachedCommit | undefined> {
    if (!Number.isSafeInteger(number) || number < 1) throw new Error(`not a pull request number: ${number}`);
    if (existsSync(path.join(this.repositoryDir(remote), "HEAD"))) return undefined;
    return this.withRepository(remote, async (gitDir, created) =>
      created
        ? { sha: await this.fetchRef(remote, gitDir, `refs/pull/${number}/head`, `refs/resolve-bot/pulls/${number}`), fetched: true }
        : undefined,
    );
  }

  /** Eviction under way after the last fetch (done when this settles). */
  idle(): Promise<void> {
    return this.evicting;
  }

  private evicting: Promise<void> = Promise.resolve();

  /**
   * `work` on the remote's repository under its lock (created first when missing); after a fetch,
   * eviction in the background, one at a time.
   */
  private async withRepository(
    remote: GitRemote,
    work: (gitDir: string, created: boolean) => Promise<{ sha: string; fetched: boolean } | undefined>,
  ): Promise<CachedCommit | undefined> {
    const gitDir = this.repositoryDir(remote);
    const result = await this.locked(gitDir, async () => {
      const created = !existsSync(path.join(gitDir, "HEAD"));
      if (created) {
        await rm(gitDir, { recursive: true, force: true }); // what a crashed creation left
        await mkdir(gitDir, { recursive: true });
        await runGit(gitDir, ["init", "--bare", "-q"]);
      }
      await touch(gitDir);
      return work(gitDir, created);
    });
    if (result?.fetched) {
      this.evicting = this.evicting
        .then(() => this.evict(gitDir))
        .catch((error: unknown) => this.options.log?.warn(`repository cache: eviction failed: ${String(error)}`));
    }
    return result && { ...result, gitDir };
  }

  /** Fetches `source` (shallow) into the ref `local`. */
  private async fetch(remote: GitRemote, gitDir: string, source: string, local: string): Promise<void> {
    const env = authorizationEnv(await remote.authorization());
    await runGit(gitDir, ["fetch", "--quiet", "--depth=1", "--no-tags", "--no-write-fetch-head", remote.url, `+${source}:${local}`], {
      env,
    });
  }

  /** Fetches the ref `source` into the ref `local`; resolves with the commit it names now. */
  private async fetchRef(remote: GitRemote, gitDir: string, source: string, local: string): Promise<string> {
    await this.fetch(remote, gitDir, source, local);
    return (await runGit(gitDir, ["rev-parse", "--verify", `${local}^{commit}`])).toString("utf8").trim();
  }

  /** Bytes the cache's repositories take on disk, and when each was last used. */
  async usage(): Promise<Array<{ gitDir: string; bytes: number; usedAt: number }>> {
    const repos = path.join(this.options.root, "repos");
    const found: Array<{ gitDir: string; bytes: number; usedAt: number }> = [];
    for (const host of await children(repos)) {
      for (const owner of await children(path.join(repos, host))) {
        for (const name of await children(path.join(repos, host, owner))) {
          if (!name.endsWith(".git")) continue;
          const gitDir = path.join(repos, host, owner, name);
          found.push({ gitDir, bytes: await diskBytes(gitDir), usedAt: await usedAt(gitDir) });
        }
      }
    }
    return found;
  }

  /**
   * A checkout's bytes, reserved by a file beside its directory (`<dir>.reserved`, holding the
   * number) while they fit. The check and the write hold one lock for the whole cache
   * (proper-lockfile, as the repositories do), so runs in every thread and process sharing the
   * cache see each other's checkouts, also those still being written, and two cannot both take
   * the last room. A reservation is counted as long as its directory may be there: the run removes
   * it after the directory; one a killed process left goes with its directory (sweepCheckouts).
   */
  private async reserveCheckout(dir: string, bytes: number): Promise<Reservation | undefined> {
    const checkouts = path.join(this.options.root, CHECKOUTS);
    if (path.dirname(dir) !== checkouts) throw new Error(`not a checkout of this cache: ${dir}`);
    const file = `${dir}${RESERVED}`;
    const reserved = await this.locked(checkouts, async () => {
      const repositories = (await this.usage()).reduce((sum, repo) => sum + repo.bytes, 0);
      if (repositories + (await this.reservedBytes()) + bytes > this.options.budgetBytes) return false;
      await mkdir(checkouts, { recursive: true });
      await writeFile(file, String(bytes));
      return true;
    });
    return reserved ? { release: () => rm(file, { force: true }) } : undefined;
  }

  /** Bytes reserved for the checkouts of runs (of every process sharing the cache). */
  async reservedBytes(): Promise<number> {
    const dir = path.join(this.options.root, CHECKOUTS);
    let total = 0;
    for (const name of await children(dir)) {
      if (!name.endsWith(RESERVED)) continue;
      // One released meanwhile is not there to read: it no longer counts.
      const bytes = Number(await readFile(path.join(dir, name), "utf8").catch(() => "0"));
      if (Number.isSafeInteger(bytes) && bytes > 0) total += bytes;
    }
    return total;
  }

  /**
   * Least recently used repositories out until the cache fits its budget (never `keep`, never one in
   * use), the checkouts of running runs counted.
   */
  async evict(keep: string): Promise<void> {
    await this.sweepCheckouts();
    const repos = (await this.usage()).sort((a, b) => a.usedAt - b.usedAt);
    let total = repos.reduce((sum, repo) => sum + repo.bytes, 0) + (await this.reservedBytes());
    for (const repo of repos) {
      if (total <= this.options.budgetBytes) return;
      if (repo.gitDir === keep || Date.now() - repo.usedAt < this.options.inUseMs) continue;
      const removed = await this.remove(repo.gitDir);
      if (removed) {
        total -= repo.bytes;
        this.options.log?.info(
          `repository cache: evicted ${path.relative(this.options.root, repo.gitDir)} (${repo.bytes} bytes, least recently used)`,
        );
      }
    }
    if (total > this.options.budgetBytes) {
      this.options.log?.warn(
        `repository cache: ${total} bytes, over its budget of ${this.options.budgetBytes} (RESOLVE_BOT_CACHE_DISK_MB): the rest is in use`,
      );
    }
  }

  /** Checkouts (and their reservations) whose run ended without removing them (a killed process): gone once older than `inUseMs`. */
  private async sweepCheckouts(): Promise<void> {
    const dir = path.join(this.options.root, CHECKOUTS);
    for (const name of await children(dir)) {
      const made = await stat(path.join(dir, name)).then(
        (info) => info.mtimeMs,
        () => Date.now(),
      );
      if (Date.now() - made >= this.options.inUseMs) await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }

  /**
   * Moves the repository out of the way under its lock, then deletes it; false when someone holds
   * the lock or used it since the sizes were taken.
   */
  private async remove(gitDir: string): Promise<boolean> {
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(gitDir, { realpath: false, lockfilePath: `${gitDir}.lock`, stale: LOCK_STALE_MS, retries: 0 });
    } catch {
      return false;
    }
    const trash = path.join(this.options.root, "repos-trash", `${path.basename(gitDir)}-${randomBytes(6).toString("hex")}`);
    try {
      if (Date.now() - (await usedAt(gitDir)) < this.options.inUseMs) return false;
      await mkdir(path.dirname(trash), { recursive: true });
      await rename(gitDir, trash);
    } finally {
      await release();
    }
    await rm(trash, { recursive: true, force: true });
    return true;
  }

  /** Per locked directory, the last work of this cache queued on it. */
  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * Runs `work` holding the lock of `dir` (a repository, or the checkouts), waiting for it. Work
   * of this cache on one directory is queued here, so it starts as soon as the work before it
   * ends (the lock file is retried at intervals: what other processes hold).
   */
  private async locked<T>(dir: string, work: () => Promise<T>): Promise<T> {
    const queued = (this.queues.get(dir) ?? Promise.resolve()).then(
      () => this.lockedFile(dir, work),
      () => this.lockedFile(dir, work),
    );
    this.queues.set(dir, queued);
    try {
      return await queued;
    } finally {
      if (this.queues.get(dir) === queued) this.queues.delete(dir);
    }
  }

  private async lockedFile<T>(dir: string, work: () => Promise<T>): Promise<T> {
    await mkdir(path.dirname(dir), { recursive: true });
    const release = await lockfile.lock(dir, {
      realpath: false,
      lockfilePath: `${dir}.lock`,
      stale: LOCK_STALE_MS,
      // Another worker fetching the same repository: wait for it (a big first fetch takes a while).
      retries: { retries: 1000, minTimeout: 100, maxTimeout: 1000 },
    });
    try {
      return await work();
    } finally {
      await release();
    }
  }
}

/**
 * The cache's default budget: half of the free space of the file system holding `root` (or of
 * its nearest existing parent) when the process starts.
 */
export function defaultBudgetBytes(root: string): number {
  let dir = path.resolve(root);
  while (!existsSync(dir)) dir = path.dirname(dir);
  const fs = statfsSync(dir);
  return Math.floor((fs.bavail * fs.bsize) / 2);
}

async function touch(gitDir: string): Promise<void> {
  const mark = path.join(gitDir, USED_MARK);
  const now = new Date();
  await utimes(mark, now, now).catch(() => writeFile(mark, ""));
}

/** When the repository was last used (ms since the epoch; 0 when unknown). */
async function usedAt(gitDir: string): Promise<number> {
  return stat(path.join(gitDir, USED_MARK)).then(
    (info) => info.mtimeMs,
    () => 0,
  );
}

async function children(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Bytes of the files below `dir` (a bare repository: packs, a few loose objects, refs). */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += await lstat(path.join(entry.parentPath, entry.name)).then(
      (info) => info.size,
      () => 0,
    );
  }
  return total;
}

/** A branch name git accepts (never an option, never a refspec). */
async function checkBranchName(name: string): Promise<void> {
  if (name.startsWith("-") || /[:\s]/.test(name) || !(await gitSucceeds(process.cwd(), ["check-ref-format", `refs/heads/${name}`]))) {
    throw new Error(`not a branch name: ${JSON.stringify(name)}`);
  }
}
