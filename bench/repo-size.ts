/**
 * Repository size: the real server (dist/src/server.js) against the GitHub emulator's git server,
 * on repositories of N copies of effect@3's src (test/helpers/big-repos.ts: 1, 10, 40, 100
 * copies → 364 / 3,631 / 14,521 / 36,301 files). Per row, a fresh bot (an empty repository cache):
 *
 * - first:  `/ast-edit --lang ts` on a head the bot has never seen (fetch + listing + the edit);
 * - second: the same command again on the same head (the cache: nothing is fetched);
 * - floor:  what a person does by hand on the same commit — `git archive | tar -x`, then one
 *           `ast-grep run -p P -r O --json=stream`;
 * - peak RSS of every process of the bot (the server, its worker threads, git, the ast-grep CLI),
 *   sampled from /proc during the first command; the emulator (GitHub) is not counted;
 * - the cache's disk use after the commands.
 */
import { execFile, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { effectCopies } from "../test/helpers/big-repos.js";
import { comment, startBot } from "../test/e2e/harness.js";
import { log } from "./stats.js";

const run = promisify(execFile);
const PATTERN = "Effect.succeed($A)";
const REWRITE = "Effect.succeedNow($A)";
const COMMAND = `/ast-edit --lang ts --pat '${PATTERN}' --out '${REWRITE}'`;
const TIMEOUT_MS = 15 * 60_000;

export interface RepoSizeRow {
  copies: number;
  files: number;
  bytes: number;
  first_ms: number;
  second_ms: number;
  floor_ms: number;
  first_ratio: number;
  second_ratio: number;
  peak_rss_mb: number;
  cache_mb: number;
  reply: string;
  /** The first command succeeded (a stopped one's times say nothing). */
  ok: boolean;
}

/** Pids of `root` and all its descendants (from /proc). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the summed RSS of `root`'s process tree until stopped; resolves with the peak. */
function peakRss(root: number): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    const total = processTree(root).reduce((sum, pid) => sum + rssBytes(pid), 0);
    peak = Math.max(peak, total);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

async function duBytes(dir: string): Promise<number> {
  const { stdout } = await run("du", ["-sb", dir]).catch(() => ({ stdout: "0" }));
  return Number(stdout.split("\t")[0]);
}

/** `git archive <sha> | tar -x`, then one ast-grep run: ms. */
async function floorMs(gitDir: string, sha: string, astGrep: string): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "repo-size-floor-"));
  try {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const archive = spawn("git", ["--git-dir", gitDir, "archive", sha], { stdio: ["ignore", "pipe", "inherit"] });
      const tar = spawn("tar", ["-x", "-C", dir], { stdio: ["pipe", "inherit", "inherit"] });
      archive.stdout.pipe(tar.stdin);
      tar.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}`))));
      archive.on("error", reject);
    });
    await run(astGrep, ["run", "-p", PATTERN, "-r", REWRITE, "--json=stream", "."], { cwd: dir, maxBuffer: 1 << 30 });
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchRepoSizes(copiesList: readonly number[], astGrep: string): Promise<RepoSizeRow[]> {
  const rows: RepoSizeRow[] = [];
  for (const copies of copiesList) {
    log(`repo-size: building/reusing ${copies} × effect src`);
    const repo = await effectCopies(copies);
    // What is measured is speed: no command time limit cuts the biggest rows short on a loaded machine.
    const bot = await startBot({ RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "900" });
    try {
      const name = `size-${copies}`;
      const full = `acme/${name}`;
      await bot.gh.importRepo("acme", name, repo.gitDir);
      bot.gh.setPermission(full, "alice", "write");
      const pr = await bot.gh.createPullRequest({ repo: full, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": "n\n" } }] });
      log(`repo-size: ${repo.files} files, first command`);
      const sampler = peakRss(bot.process.pid!);
      let started = performance.now();
      const first = await comment(bot, full, pr.number, "alice", COMMAND, TIMEOUT_MS);
      const firstMs = performance.now() - started;
      const peak = sampler.stop();
      log(`repo-size: second command`);
      started = performance.now();
      await comment(bot, full, pr.number, "alice", COMMAND, TIMEOUT_MS);
      const secondMs = performance.now() - started;
      const floor = await floorMs(bot.gh.gitDir(full), pr.headSha, astGrep);
      rows.push({
        copies,
        files: repo.files + 1,
        bytes: repo.bytes,
        first_ms: Math.round(firstMs),
        second_ms: Math.round(secondMs),
        floor_ms: Math.round(floor),
        first_ratio: Math.round((firstMs / floor) * 100) / 100,
        second_ratio: Math.round((secondMs / floor) * 100) / 100,
        peak_rss_mb: Math.round(peak / (1024 * 1024)),
        cache_mb: Math.round((await duBytes(path.join(bot.env.RESOLVE_BOT_DATA_DIR!, "repos"))) / (1024 * 1024)),
        reply: `${first.done}: ${first.reply.split("\n")[0]!.slice(0, 100)}`,
        ok: first.done === "rocket",
      });
      log(`repo-size: ${JSON.stringify(rows.at(-1))}`);
    } finally {
      await bot.stop();
    }
  }
  return rows;
}

export function repoSizeMarkdown(rows: readonly RepoSizeRow[]): string[] {
  const lines = [
    "## Repository size (real server, git cache, emulator's git server)",
    "",
    "| repository | first command | floor | first ÷ floor | second command, same head | second ÷ floor | peak RSS (bot, all processes) | cache on disk |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.files.toLocaleString("en-US")} files, ${(row.bytes / 1e6).toFixed(0)} MB${row.ok ? "" : ` (failed: ${row.reply})`} | ${(row.first_ms / 1000).toFixed(1)} s | ${(row.floor_ms / 1000).toFixed(1)} s | ${row.first_ratio}× | ${(row.second_ms / 1000).toFixed(1)} s | ${row.second_ratio}× | ${row.peak_rss_mb} MB | ${row.cache_mb} MB |`,
    );
  }
  return lines;
}
