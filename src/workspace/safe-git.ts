/**
 * git run on repositories whose contents nobody vouches for: no shell, no user or system
 * configuration, and configuration that keeps everything a repository could ask git to run or
 * reach switched off — no hooks, no fsmonitor, no credential helpers, no protocols but HTTP(S),
 * no redirects (the credentials go to the host asked, never elsewhere), symbolic links checked out
 * as plain files, no automatic gc. Filters and diff drivers named by `.gitattributes` run only when
 * configured, and no configuration defines them here.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

const SAFE_CONFIG: ReadonlyArray<[string, string]> = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.symlinks", "false"],
  ["core.askPass", ""],
  ["credential.helper", ""],
  ["protocol.allow", "never"],
  ["protocol.https.allow", "always"],
  ["protocol.http.allow", "always"],
  ["http.followRedirects", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["fetch.writeCommitGraph", "false"],
];

const CONFIG_ARGS = SAFE_CONFIG.flatMap(([key, value]) => ["-c", `${key}=${value}`]);

export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly code: number | string | null | undefined,
    /** What git wrote before it failed (`merge-tree` lists the conflicts there and exits with 1). */
    readonly stdout: Buffer = Buffer.alloc(0),
  ) {
    super(`git ${args[0] ?? ""} failed (${code ?? "signal"}): ${stderr.trim().split("\n").slice(-3).join(" ")}`);
  }
}

export interface SafeGitOptions {
  /**
   * More environment, e.g. GIT_CONFIG_COUNT/KEY/VALUE for credentials: never put in argv (any
   * local user can read a process's arguments), never written to disk.
   */
  env?: Record<string, string>;
  input?: string | Buffer;
}

/** The environment of every git run on `gitDir`: nothing from the user's or system's configuration. */
function environment(gitDir: string, more: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: gitDir,
    GIT_DIR: gitDir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "/bin/false",
    LC_ALL: "C",
    ...more,
  };
}

/** Runs git on the repository `gitDir`; resolves with its standard output. */
export function runGit(gitDir: string, args: readonly string[], options: SafeGitOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...CONFIG_ARGS, ...args],
      { env: environment(gitDir, options.env), encoding: "buffer", maxBuffer: 1024 * 1024 * 1024, cwd: gitDir },
      (error, stdout, stderr) => {
        if (error) reject(new GitFailure(args, stderr.toString("utf8"), error.code, stdout));
        else resolve(stdout);
      },
    );
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.input ?? "");
  });
}

/** Whether git exits with 0 (e.g. `cat-file -e`: the object is there). */
export async function gitSucceeds(gitDir: string, args: readonly string[]): Promise<boolean> {
  try {
    await runGit(gitDir, args);
    return true;
  } catch (error) {
    if (error instanceof GitFailure) return false;
    throw error;
  }
}

/** A long-running git process on `gitDir` (e.g. `cat-file --batch`), its streams piped. */
export function spawnGit(gitDir: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn("git", [...CONFIG_ARGS, ...args], { env: environment(gitDir), cwd: gitDir, stdio: ["pipe", "pipe", "pipe"] });
}

/** The environment that gives git an HTTP `Authorization` header for its requests (see SafeGitOptions.env). */
export function authorizationEnv(authorization: string): Record<string, string> {
  return { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: `Authorization: ${authorization}` };
}
