/**
 * Big repositories for the end-to-end tests and the bench, built from copies of a pinned npm
 * package's sources (effect@3, a devDependency: its version is in package-lock.json): `copies`
 * copies of effect's `src/` under `packages/p<N>/src/` and one `tsconfig.json` that takes them all
 * in (363 × copies + 1 files; 40 copies: 14,521 files, 308 MB). Every copy after the first ends
 * each file with a `// copy N` line, so no two files are equal (git would store a repeated file
 * once, and the repository would be big only on paper).
 *
 * Each is built once per machine and effect version, in a shared directory (any test file or
 * bench run reuses it; a lock keeps parallel jest workers from building one twice), as a bare
 * repository whose objects are packed, and a checkout beside it for the CLI to compare with.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import lockfile from "proper-lockfile";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface BigRepo {
  /** Bare repository, branch `main` at `sha`. */
  gitDir: string;
  /** A checkout of `sha` (never to be changed: copy it first). */
  checkout: string;
  sha: string;
  files: number;
  bytes: number;
}

const EFFECT_SRC = path.join(path.dirname(require.resolve("effect/package.json")), "src");
const EFFECT_VERSION = (require("effect/package.json") as { version: string }).version;

export const TSCONFIG = `${JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", noEmit: true, skipLibCheck: true }, include: ["packages/*/src/**/*.ts"] }, null, 2)}\n`;

/** The shared directory (RESOLVE_BOT_BIG_REPOS_DIR, else one in the temporary directory per effect version). */
export function bigReposDir(): string {
  return process.env.RESOLVE_BOT_BIG_REPOS_DIR ?? path.join(os.tmpdir(), `resolve-bot-big-repos-effect-${EFFECT_VERSION}`);
}

async function gitIn(cwd: string, args: string[]): Promise<string> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Big Repo",
    GIT_AUTHOR_EMAIL: "big@example.com",
    GIT_COMMITTER_NAME: "Big Repo",
    GIT_COMMITTER_EMAIL: "big@example.com",
    GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
    // No gc in the background (a commit of 36,000 loose objects starts one): the build deletes .git next.
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: "gc.auto",
    GIT_CONFIG_VALUE_0: "0",
    GIT_CONFIG_KEY_1: "maintenance.auto",
    GIT_CONFIG_VALUE_1: "false",
  };
  const { stdout } = await run("git", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** The repository of `copies` copies of effect's src (built on first use). */
export async function effectCopies(copies: number): Promise<BigRepo> {
  const root = path.join(bigReposDir(), `effect-x${copies}`);
  const done = path.join(root, "done.json");
  await mkdir(root, { recursive: true });
  const release = await lockfile.lock(root, {
    lockfilePath: `${root}.lock`,
    stale: 60_000,
    retries: { retries: 3600, minTimeout: 500, maxTimeout: 1000 },
  });
  try {
    if (!existsSync(done)) await build(root, copies, done);
    return JSON.parse(await readFile(done, "utf8")) as BigRepo;
  } finally {
    await release();
  }
}

async function build(root: string, copies: number, done: string): Promise<void> {
  const checkout = path.join(root, "checkout");
  const gitDir = path.join(root, "repo.git");
  await rm(checkout, { recursive: true, force: true });
  await rm(gitDir, { recursive: true, force: true });
  const sources = await listFiles(EFFECT_SRC);
  const texts = await Promise.all(sources.map((file) => readFile(path.join(EFFECT_SRC, file), "utf8")));
  let bytes = 0;
  for (let copy = 0; copy < copies; copy++) {
    const base = path.join(checkout, "packages", `p${copy}`, "src");
    for (const [index, file] of sources.entries()) {
      const text = texts[index]!;
      const content = copy === 0 ? text : `${text}${text.endsWith("\n") ? "" : "\n"}// copy ${copy}\n`;
      await mkdir(path.dirname(path.join(base, file)), { recursive: true });
      await writeFile(path.join(base, file), content);
      bytes += Buffer.byteLength(content);
    }
  }
  await writeFile(path.join(checkout, "tsconfig.json"), TSCONFIG);
  bytes += Buffer.byteLength(TSCONFIG);
  await gitIn(checkout, ["init", "-q", "--initial-branch=main"]);
  await gitIn(checkout, ["add", "-A"]);
  await gitIn(checkout, ["commit", "-q", "-m", `${copies} copies of effect@${EFFECT_VERSION} src`]);
  const sha = await gitIn(checkout, ["rev-parse", "HEAD"]);
  await gitIn(root, ["clone", "--bare", "-q", "--no-local", checkout, gitDir]);
  await rm(path.join(checkout, ".git"), { recursive: true, force: true });
  const repo: BigRepo = { gitDir, checkout, sha, files: sources.length * copies + 1, bytes };
  await writeFile(done, JSON.stringify(repo));
}
