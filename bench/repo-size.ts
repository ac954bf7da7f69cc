/**
 * Repository size: the real server (dist/src/apps/server/main.js) against the GitHub emulator's git server,
 * on repositories of N copies of effect@3's src (test/helpers/big-repos.ts: 1, 10, 40, 100
 * copies → 364 / 3,631 / 14,521 / 36,301 files). Per run, a fresh bot (an empty repository cache)
 * and two pull requests on two repositories with the same files:
 *
 * - cold:   the process's first command (a deployment boots once; this is what the first command
 *           after a start or a crash costs): `/ast-edit --lang ts` with another pattern (so nothing
 *           it computes is reused by the commands below: the CLI's results are cached per
 *           pattern, path and text) on a head the bot has never seen, on the second repository;
 * - first:  then `/ast-edit --lang ts` on the first repository's head, which the bot has never
 *           seen (fetch + listing + the edit) — the issue's "first command on a head";
 * - second: the same command again on the same head (the cache: nothing is fetched);
 * - floor:  what a person does by hand on the same commit — `git archive | tar -x`, then one
 *           `ast-grep run -p P -r O --json=stream` (measured in the same run, after the commands);
 * - peak RSS of every process of the bot (the server, its worker threads, git, the ast-grep CLI),
 *   sampled from /proc during the first command; the emulator (GitHub) is not counted;
 * - the cache's disk use after the commands.
 *
 * Rows of one copy (fixed costs decide them, and they are short) run `runs` times, each with a
 * fresh bot, and report medians; the ratios are medians of each run's own ratios (each against the
 * floor measured in the same run, under the same load). Bigger rows run once.
 */
import { execFile, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { effectCopies } from "../test/helpers/big-repos.js";
import { comment, startBot } from "../test/e2e/harness.js";
import { log, median } from "./stats.js";

const run = promisify(execFile);
const PATTERN = "Effect.succeed($A)";
const REWRITE = "Effect.succeedNow($A)";
export const COMMAND = `/ast-edit --lang ts --pat '${PATTERN}' --out '${REWRITE}'`;
/** The cold command's: another pattern, the same kind of work (every file listed, a few hundred matches at most). */
const COLD_COMMAND = `/ast-edit --lang ts --pat 'Effect.fail($A)' --out 'Effect.failNow($A)'`;
const TIMEOUT_MS = 15 * 60_000;

export interface RepoSizeRow {
  copies: number;
  files: number;
  bytes: number;
  /** Runs (each a fresh bot); the times and ratios are medians over them. */
  runs: number;
  cold_ms: number;
  first_ms: number;
  second_ms: number;
  floor_ms: number;
  cold_ratio: number;
  first_ratio: number;
  second_ratio: number;
  /** Every run's times (ms), in order. */
  samples: { cold: number[]; first: number[]; second: number[]; floor: number[] };
  /** The 1-minute load average before and after the row (a shared machine). */
  load: [before: number, after: number];
  peak_rss_mb: number;
  cache_mb: number;
  reply: string;
  /** Every command of every run succeeded (a stopped one's times say nothing). */
  ok: boolean;
}

export interface RunTimes {
  cold: number;
  first: number;
  second: number;
  floor: number;
  peak: number;
  cacheBytes: number;
  reply: string;
  ok: boolean;
}

/**
 * Pids of `root` and all its descendants, from each thread's `children` list in /proc: a few reads
 * per sample. Scanning every process of the machine instead took the emulator's process (this
 * one, which answers the bot) a share of a core every 50 ms, in the middle of the command timed.
 */
function processTree(root: number): number[] {
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      return; // gone meanwhile
    }
    for (const thread of threads) {
      let children = "";
      try {
        children = readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8");
      } catch {
        // gone meanwhile
      }
      for (const child of children.split(" ")) if (child !== "") visit(Number(child));
    }
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
export function peakRss(root: number): { stop(): number } {
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

/** One run of a row: a fresh bot, its cold command, then the first and second commands on a head, and the floor. */
export async function serverRun(copies: number, repo: { gitDir: string }, astGrep: string): Promise<RunTimes> {
  // What is measured is speed: no command time limit cuts the biggest rows short on a loaded machine.
  const bot = await startBot({ RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "900" });
  try {
    const pulls = [];
    for (const name of [`size-${copies}`, `size-${copies}-cold`]) {
      const full = `acme/${name}`;
      await bot.gh.importRepo("acme", name, repo.gitDir);
      bot.gh.setPermission(full, "alice", "write");
      const pr = await bot.gh.createPullRequest({ repo: full, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": "n\n" } }] });
      pulls.push({ full, pr });
    }
    const [main, other] = pulls as [(typeof pulls)[0], (typeof pulls)[0]];
    const timedComment = async (target: typeof main, command: string) => {
      const started = Date.now();
      const said = await comment(bot, target.full, target.pr.number, "alice", command, TIMEOUT_MS);
      // Until the emulator answered the bot's 🚀 (its request log): the harness looks for the
      // reaction every 50 ms, which would add up to 50 ms to what is measured.
      const reactions = `/repos/${target.full}/issues/comments/${said.commentId}/reactions`;
      const done = bot.gh
        .log()
        .filter(
          (entry) =>
            entry.method === "POST" && entry.path === reactions && (entry.requestBody as { content?: string })?.content === said.done,
        )
        .at(-1);
      return { ms: done === undefined ? Date.now() - started : done.timestamp.getTime() + done.durationMs - started, said };
    };
    log(`repo-size: cold command (the process's first)`);
    const cold = await timedComment(other, COLD_COMMAND);
    log(`repo-size: first command`);
    const sampler = peakRss(bot.process.pid!);
    const first = await timedComment(main, COMMAND);
    const peak = sampler.stop();
    log(`repo-size: second command`);
    const second = await timedComment(main, COMMAND);
    const floor = await floorMs(bot.gh.gitDir(main.full), main.pr.headSha, astGrep);
    const failed = [cold, first, second].find((run) => run.said.done !== "rocket");
    return {
      cold: cold.ms,
      first: first.ms,
      second: second.ms,
      floor,
      peak,
      cacheBytes: await duBytes(path.join(bot.env.RESOLVE_BOT_DATA_DIR!, "repos")),
      reply: `${(failed ?? first).said.done}: ${(failed ?? first).said.reply.split("\n")[0]!.slice(0, 100)}`,
      ok: failed === undefined,
    };
  } finally {
    await bot.stop();
  }
}

const ratio = (value: number) => Math.round(value * 100) / 100;

/** `runs`: how many times rows of one copy are measured (bigger rows: once). */
export async function benchRepoSizes(copiesList: readonly number[], astGrep: string, runs = 1): Promise<RepoSizeRow[]> {
  const rows: RepoSizeRow[] = [];
  for (const copies of copiesList) {
    log(`repo-size: building/reusing ${copies} × effect src`);
    const repo = await effectCopies(copies);
    const loadBefore = os.loadavg()[0]!;
    const times: RunTimes[] = [];
    const count = copies <= 1 ? runs : 1;
    for (let index = 0; index < count; index++) {
      log(`repo-size: ${repo.files} files, run ${index + 1}/${count}`);
      times.push(await serverRun(copies, repo, astGrep));
    }
    const of = (key: "cold" | "first" | "second" | "floor") => times.map((run) => run[key]);
    const ratioOf = (key: "cold" | "first" | "second") => ratio(median(times.map((run) => run[key] / run.floor)));
    const failed = times.find((run) => !run.ok);
    rows.push({
      copies,
      files: repo.files + 1,
      bytes: repo.bytes,
      runs: count,
      cold_ms: Math.round(median(of("cold"))),
      first_ms: Math.round(median(of("first"))),
      second_ms: Math.round(median(of("second"))),
      floor_ms: Math.round(median(of("floor"))),
      cold_ratio: ratioOf("cold"),
      first_ratio: ratioOf("first"),
      second_ratio: ratioOf("second"),
      samples: {
        cold: of("cold").map(Math.round),
        first: of("first").map(Math.round),
        second: of("second").map(Math.round),
        floor: of("floor").map(Math.round),
      },
      load: [ratio(loadBefore), ratio(os.loadavg()[0]!)],
      peak_rss_mb: Math.round(Math.max(...times.map((run) => run.peak)) / (1024 * 1024)),
      cache_mb: Math.round(Math.max(...times.map((run) => run.cacheBytes)) / (1024 * 1024)),
      reply: (failed ?? times[0]!).reply,
      ok: failed === undefined,
    });
    log(`repo-size: ${JSON.stringify(rows.at(-1))}`);
  }
  return rows;
}

export function repoSizeMarkdown(rows: readonly RepoSizeRow[]): string[] {
  const lines = [
    "## Repository size (real server, git cache, emulator's git server)",
    "",
    "| repository | runs (load) | cold process: first command | cold ÷ floor | first command on a head | floor | first ÷ floor | second command, same head | second ÷ floor | peak RSS (bot, all processes) | cache on disk |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.files.toLocaleString("en-US")} files, ${(row.bytes / 1e6).toFixed(0)} MB${row.ok ? "" : ` (failed: ${row.reply})`} | ${row.runs} (${row.load[0]}–${row.load[1]}) | ${seconds(row.cold_ms)} | ${row.cold_ratio}× | ${seconds(row.first_ms)} | ${seconds(row.floor_ms)} | ${row.first_ratio}× | ${seconds(row.second_ms)} | ${row.second_ratio}× | ${row.peak_rss_mb} MB | ${row.cache_mb} MB |`,
    );
  }
  return lines;
}

/** Seconds with two decimals below 10 s (the small row's differences are tenths), else one. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
