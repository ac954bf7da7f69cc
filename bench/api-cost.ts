/**
 * GitHub API cost, from the emulator's request log: the real server (dist/src/apps/server/main.js) against
 * the GitHub emulator (test/e2e), a repository whose N files each hold one `console.log(...)`,
 * a PR, then `/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'` (preview) and
 * `/resolve apply bench` (apply). Requests are counted from the delivery until the log has been
 * quiet for a moment after the bot's final reaction. "writes" are non-GET requests other than
 * installation-token requests (the emulator's own definition, GitHubEmulator.writes()).
 * Fixed per-comment overhead (token, 👀/🚀 reactions, pulls.get, config, permission, reply) is
 * separated from the preview/apply work itself.
 */
import { comment, startBot, type Bot } from "../test/e2e/harness.js";
import type { LogEntry } from "../test/e2e/emulator/index.js";
import { log } from "./stats.js";

export interface Breakdown {
  calls: number;
  writes: number;
  overhead_calls: number;
  overhead_writes: number;
  work_calls: number;
  work_writes: number;
  /** Requests by endpoint ("METHOD /openapi/path": count), overhead endpoints marked with [overhead]. */
  by_endpoint: Record<string, number>;
}

export interface ApiRow {
  files: number;
  preview: Breakdown;
  apply: Breakdown;
  preview_outcome: string;
  apply_outcome: string;
}

const OVERHEAD: ReadonlyArray<[RegExp, string]> = [
  [/^POST \/app\/installations\/\{installation_id\}\/access_tokens$/, "installation token"],
  [/^POST \/repos\/\{owner\}\/\{repo\}\/issues\/comments\/\{comment_id\}\/reactions$/, "reaction"],
  [/^POST \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments$/, "reply comment"],
  [/^GET \/repos\/\{owner\}\/\{repo\}\/contents\/\{path\}$/, "config"],
  [/^GET \/repos\/\{owner\}\/\{repo\}\/collaborators\/\{username\}\/permission$/, "permission"],
  [/^GET \/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}$/, "pull request"],
];

function isWrite(entry: LogEntry): boolean {
  return entry.method !== "GET" && entry.method !== "HEAD" && !/^\/app\/installations\/[^/]+\/access_tokens$/.test(entry.path);
}

export function breakdown(entries: readonly LogEntry[]): Breakdown {
  const out: Breakdown = { calls: 0, writes: 0, overhead_calls: 0, overhead_writes: 0, work_calls: 0, work_writes: 0, by_endpoint: {} };
  for (const entry of entries) {
    if (entry.path.startsWith("/_emulator/")) continue;
    const operation = entry.operation ?? `${entry.method} ${entry.path} (unmatched)`;
    const overhead = OVERHEAD.some(([pattern]) => pattern.test(operation));
    const write = isWrite(entry);
    const key = `${operation}${overhead ? " [overhead]" : ""}`;
    out.by_endpoint[key] = (out.by_endpoint[key] ?? 0) + 1;
    out.calls++;
    if (write) out.writes++;
    if (overhead) {
      out.overhead_calls++;
      if (write) out.overhead_writes++;
    } else {
      out.work_calls++;
      if (write) out.work_writes++;
    }
  }
  return out;
}

/** The log once no new request has arrived for `quietMs`. */
async function settledLog(bot: Bot, quietMs = 400): Promise<LogEntry[]> {
  let count = -1;
  for (;;) {
    const entries = bot.gh.log();
    if (entries.length === count) return entries;
    count = entries.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

function repoFiles(n: number): Record<string, string> {
  const files: Record<string, string> = { "README.md": "# bench\n" };
  for (let i = 0; i < n; i++) {
    files[`src/m${String(i).padStart(4, "0")}.ts`] =
      `export function f${i}(x: number): number {\n  console.log("f${i}", x);\n  return x * ${i};\n}\n`;
  }
  return files;
}

export async function benchApi(sizes: readonly number[]): Promise<ApiRow[]> {
  const bot = await startBot();
  const rows: ApiRow[] = [];
  try {
    for (const n of sizes) {
      log(`api: ${n} files`);
      const name = `bench-${n}`;
      const repo = `acme/${name}`;
      await bot.gh.createRepo("acme", name, repoFiles(n));
      bot.gh.setPermission(repo, "alice", "write");
      const pr = await bot.gh.createPullRequest({ repo, head: "feature", user: "alice", commits: [{ files: { "docs/x.md": "x\n" } }] });
      await settledLog(bot, 200);
      bot.gh.clearLog();
      const previewed = await comment(bot, repo, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
      const preview = breakdown(await settledLog(bot));
      bot.gh.clearLog();
      const applied = await comment(bot, repo, pr.number, "alice", "/resolve apply bench");
      const apply = breakdown(await settledLog(bot));
      bot.gh.clearLog();
      rows.push({
        files: n,
        preview,
        apply,
        preview_outcome: `${previewed.done}: ${previewed.reply.split("\n")[0]!.slice(0, 120)}`,
        apply_outcome: `${applied.done}: ${applied.reply.split("\n")[0]!.slice(0, 120)}`,
      });
    }
  } finally {
    await bot.stop();
  }
  return rows;
}
