/**
 * Size limits for what the bot reads and writes. No constant decides how big a repository may be:
 * the defaults come from the machine (the disk the repository cache may use, the memory), the
 * operator may set caps in the environment, and a repository's `limits` may only lower them.
 */
import os from "node:os";

export interface WorkspaceLimits {
  /** Files a workspace may hold and a change set may touch. */
  maxFiles: number;
  /** Bytes of one file the bot reads or writes; bigger files are left alone. */
  maxFileBytes: number;
  /** Bytes of all files together (a repository at one commit, a change set's writes). */
  maxTotalBytes: number;
  /** What raises each limit, for the refusal that names it (e.g. "RESOLVE_BOT_MAX_FILES"). */
  raisedBy?: Partial<Record<LimitName, string>>;
}

export type LimitName = "maxFiles" | "maxFileBytes" | "maxTotalBytes";

/** The environment variable that sets each limit's server-wide cap. */
export const LIMIT_VARIABLES: Record<LimitName, string> = {
  maxFiles: "RESOLVE_BOT_MAX_FILES",
  maxFileBytes: "RESOLVE_BOT_MAX_FILE_BYTES",
  maxTotalBytes: "RESOLVE_BOT_MAX_TOTAL_BYTES",
};

/** The key of each limit in `.github/resolve-bot.yml`. */
const CONFIG_KEYS: Record<LimitName, string> = {
  maxFiles: "limits.max_files",
  maxFileBytes: "limits.max_file_bytes",
  maxTotalBytes: "limits.max_total_bytes",
};

/** A file the bot edits is source code: one of a megabyte is already unusual. */
const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/**
 * What one listed file may cost in memory, all told (its path and entry in the listing, its
 * share of a tool's indexes): the default file limit is the machine's memory divided by it.
 */
const MEMORY_PER_FILE = 16 * 1024;
/** A repository's bytes may use at most this share of the memory when held in memory (the tarball fallback). */
const IN_MEMORY_SHARE = 0.25;

/**
 * The server-wide limits: each variable of LIMIT_VARIABLES when set, else from the machine —
 * files from the memory, total bytes from the repository cache's disk budget (`diskBudgetBytes`),
 * 1 MB per file. A misconfigured variable is an error at start, not a limit nobody chose.
 */
export function serverLimits(env: NodeJS.ProcessEnv, diskBudgetBytes: number): WorkspaceLimits {
  return {
    maxFiles: positive(env, LIMIT_VARIABLES.maxFiles) ?? Math.floor(os.totalmem() / MEMORY_PER_FILE),
    maxFileBytes: positive(env, LIMIT_VARIABLES.maxFileBytes) ?? DEFAULT_MAX_FILE_BYTES,
    maxTotalBytes: positive(env, LIMIT_VARIABLES.maxTotalBytes) ?? diskBudgetBytes,
    raisedBy: { ...LIMIT_VARIABLES },
  };
}

/** A repository's own limits, each only within the server's (a higher value is the server's). */
export function withinServerLimits(server: WorkspaceLimits, repository: Partial<Record<LimitName, number>>): WorkspaceLimits {
  const limits: WorkspaceLimits = { ...server, raisedBy: { ...server.raisedBy } };
  for (const name of Object.keys(LIMIT_VARIABLES) as LimitName[]) {
    const own = repository[name];
    if (own !== undefined && own < server[name]) {
      limits[name] = own;
      limits.raisedBy![name] = `\`${CONFIG_KEYS[name]}\` in .github/resolve-bot.yml, up to the server's ${LIMIT_VARIABLES[name]}`;
    }
  }
  return limits;
}

/** The limits for a repository held in memory (the tarball fallback): total bytes also within a share of the memory. */
export function inMemoryLimits(limits: WorkspaceLimits): WorkspaceLimits {
  const memory = Math.floor(os.totalmem() * IN_MEMORY_SHARE);
  if (limits.maxTotalBytes <= memory) return limits;
  return {
    ...limits,
    maxTotalBytes: memory,
    raisedBy: { ...limits.raisedBy, maxTotalBytes: "the repository cache (git) instead of the tarball fallback" },
  };
}

/** ` (raise it with <what>)` for a refusal, when the limits say what raises this one. */
export function raiseHint(limits: WorkspaceLimits, name: LimitName): string {
  const by = limits.raisedBy?.[name];
  return by === undefined ? "" : ` (raise it with ${by})`;
}

let defaults: WorkspaceLimits | undefined;

/**
 * The limits of a workspace nobody gave limits (the local command line, tests): the machine's,
 * with the environment's caps, and a disk budget of the whole repository size being unlimited
 * (the local checkout is already on disk).
 */
export function defaultLimits(): WorkspaceLimits {
  defaults ??= serverLimits(process.env, Number.MAX_SAFE_INTEGER);
  return defaults;
}

function positive(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got "${text}").`);
  return value;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1).replace(/\.0$/, "")} GB`;
}
