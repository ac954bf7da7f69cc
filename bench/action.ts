/**
 * The GitHub Action (issue 28): the bundle's size, and its cold start as a runner runs it, against
 * the real server's first command on a head (bench/repo-size.ts) on the same 365-file repository
 * (one copy of effect's src) and the same command, interleaved run by run so load hits both alike.
 *
 * - action, cold: a fresh `node dist/action/index.js` per event (what action.yml runs: one process,
 *   one cold start) with a fresh RUNNER_TEMP, as a GitHub-hosted runner gives each job: the
 *   repository cache under it is empty, so the head is fetched;
 * - action, warm RUNNER_TEMP: the same command again on the same head, a fresh process again, but
 *   RUNNER_TEMP kept from the cold run (a self-hosted runner, or a cache step): nothing to fetch;
 * - server: repo-size's run (a fresh server, its first command on another repository, then the
 *   timed command on a head it has never seen);
 * - the bundle: its JavaScript (the entry and the chunks it imports on first use), the native parts
 *   beside it, the whole directory;
 * - every time ends where the server's does: the emulator's answer to the 🚀 reaction, from its
 *   request log (the process's exit, after the job summary, is shown too);
 * - the timeline of the cold run, from the same log: the first GitHub request (process start,
 *   bundle load, event, tools' registry, token), git's fetch (first request to last answer);
 * - what a process start costs, in the same runs: `node -e 0` (node alone) and the bundle with no
 *   event (it loads, finds no GITHUB_EVENT_NAME and exits: node + evaluating the bundle);
 * - peak RSS of the action's process tree (node, git, the ast-grep CLI) sampled every 50 ms, as
 *   repo-size samples the server's.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GitHubEmulator, runnerEnvironment, type LogEntry } from "../test/e2e/emulator/index.js";
import { effectCopies, type BigRepo } from "../test/helpers/big-repos.js";
import { COMMAND, peakRss, serverRun, type RunTimes } from "./repo-size.js";
import { log, median, round, shuffled } from "./stats.js";

/** What action.yml runs, built by `npm run build` (scripts/build-action.mjs). */
export const ACTION_BUNDLE = path.resolve("dist/action/index.js");
const TIMEOUT_MS = 15 * 60_000;
const MIB = 1024 * 1024;

export interface BundleSize {
  /** All the bundle's JavaScript (the target's): the entry, dist/action/index.js, and the chunks it loads on first use. */
  js_bytes: number;
  /** dist/action/index.js alone: what every run compiles. */
  entry_bytes: number;
  /** The chunks (TypeScript's compiler for /move and /rename-symbol, …), compiled only when imported. */
  chunks_bytes: number;
  /** The native parts copied beside it (dist/action/node_modules), by package. */
  native: Record<string, number>;
  native_bytes: number;
  /** Everything under dist/action (the bundle, its licence file, package.json, the native parts). */
  total_bytes: number;
}

export interface ActionRow {
  files: number;
  bytes: number;
  runs: number;
  bundle: BundleSize;
  /** Medians (ms) from process start to the emulator's answer to the 🚀 reaction; `_exit` to the process's exit. */
  cold_ms: number;
  cold_exit_ms: number;
  warm_ms: number;
  warm_exit_ms: number;
  /** git requests of each run's warm event (0: the kept RUNNER_TEMP had the head, nothing was fetched). */
  warm_git_requests: number[];
  /** The server's first command on a head, measured in the same runs. */
  server_first_ms: number;
  /** Medians of each run's own ratio (action ÷ the server's first command in the same run). */
  cold_ratio: number;
  warm_ratio: number;
  /** The cold run's timeline (medians, ms from process start). */
  timeline: { first_request_ms: number; git_start_ms: number; git_end_ms: number; rocket_ms: number; exit_ms: number };
  /** Medians (ms, process start to exit): `node -e 0`, and the bundle given no event (loads, then exits). */
  startup: { node_ms: number; bundle_load_ms: number };
  samples: { cold: number[]; warm: number[]; server_first: number[]; first_request: number[]; node: number[]; bundle_load: number[] };
  /** The 1-minute load average before and after the row (a shared machine). */
  load: [before: number, after: number];
  /** The action's process tree (node, git, ast-grep), the larger of the cold and warm runs, over all runs. */
  peak_rss_mb: number;
  reply: string;
  ok: boolean;
}

interface ActionTimes {
  rocket: number;
  exit: number;
  firstRequest: number;
  gitStart: number;
  gitEnd: number;
  /** git's smart-HTTP requests the run made (0: nothing fetched). */
  gitRequests: number;
  peak: number;
  code: number | null;
  done: string;
  reply: string;
  output: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const sizeOf = (files: readonly string[]) => files.reduce((sum, file) => sum + statSync(file).size, 0);

/** The bundle's size as `npm run build` left it. */
export function bundleSize(bundle = ACTION_BUNDLE): BundleSize {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  const dir = path.dirname(bundle);
  const modules = path.join(dir, "node_modules");
  const native: Record<string, number> = {};
  for (const scope of existsSync(modules) ? readdirSync(modules) : []) {
    const packages = scope.startsWith("@") ? readdirSync(path.join(modules, scope)).map((name) => `${scope}/${name}`) : [scope];
    for (const name of packages) native[name] = sizeOf(filesUnder(path.join(modules, name)));
  }
  const javascript = filesUnder(dir).filter((file) => file.endsWith(".js") && !file.startsWith(`${modules}${path.sep}`));
  const entry = statSync(bundle).size;
  const js = sizeOf(javascript);
  return {
    js_bytes: js,
    entry_bytes: entry,
    chunks_bytes: js - entry,
    native,
    native_bytes: Object.values(native).reduce((sum, bytes) => sum + bytes, 0),
    total_bytes: sizeOf(filesUnder(dir)),
  };
}

/**
 * One event through the bundled action, as a runner starts it: the payload in a file, the
 * runner's variables, the workflow's token (the emulator's GITHUB_TOKEN); times from just before
 * the process is spawned.
 */
async function runAction(gh: GitHubEmulator, repo: string, number: number, runnerTemp: string, runId: number): Promise<ActionTimes> {
  const event = gh.webhooks.issueComment({ repo, number, body: COMMAND, user: "alice" });
  const eventPath = path.join(runnerTemp, "..", `event-${runId}.json`);
  writeFileSync(eventPath, JSON.stringify(event.payload));
  const env: Record<string, string> = {
    ...runnerEnvironment(gh, { event, eventPath, runId: String(runId), runnerTemp }),
    // As the server's bot in repo-size: no request spacing, no early status, no time limit.
    RESOLVE_BOT_THROTTLE: "off",
    RESOLVE_BOT_STATUS_AFTER_SECONDS: "off",
    RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "900",
  };
  const before = gh.comments(repo, number).length;
  const started = Date.now();
  const child = spawn(process.execPath, [ACTION_BUNDLE], { env, stdio: ["ignore", "pipe", "pipe"] });
  const sampler = peakRss(child.pid!);
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the action did not finish: ${output}`));
    }, TIMEOUT_MS);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const exit = Date.now() - started;
  const peak = sampler.stop();
  const entries = gh.log().filter((entry) => entry.timestamp.getTime() >= started);
  const end = (entry: LogEntry | undefined) => (entry === undefined ? Number.NaN : entry.timestamp.getTime() + entry.durationMs - started);
  const begin = (entry: LogEntry | undefined) => (entry === undefined ? Number.NaN : entry.timestamp.getTime() - started);
  const reactions = `/repos/${repo}/issues/comments/${event.commentId}/reactions`;
  const rocket = entries
    .filter((e) => e.method === "POST" && e.path === reactions && (e.requestBody as { content?: string })?.content === "rocket")
    .at(-1);
  const git = entries.filter((e) => e.git !== undefined);
  const done = gh.reactions(event.commentId).find((r) => r.content === "rocket" || r.content === "confused")?.content ?? "none";
  const reply =
    gh
      .comments(repo, number)
      .slice(before)
      .filter((c) => c.user === gh.actionsBotLogin)
      .at(-1)
      ?.body.split("\n")[0] ?? "";
  return {
    rocket: end(rocket),
    exit,
    firstRequest: begin(entries.find((e) => e.git === undefined)),
    gitStart: begin(git[0]),
    gitEnd: Math.max(...git.map(end)),
    gitRequests: git.length,
    peak,
    code,
    done,
    reply,
    output,
  };
}

/** Process start to exit of `node args` with only PATH and HOME set (no event: the bundle exits once loaded). */
async function exitMs(args: readonly string[]): Promise<number> {
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const started = Date.now();
  const child = spawn(process.execPath, args, { env, stdio: "ignore" });
  await new Promise((resolve, reject) => {
    child.once("exit", resolve);
    child.once("error", reject);
  });
  return Date.now() - started;
}

/** A fresh emulator with the repository and a pull request; the cold run (fresh RUNNER_TEMP), then the warm one. */
async function actionRun(repo: BigRepo, runId: number): Promise<{ cold: ActionTimes; warm: ActionTimes }> {
  const gh = await GitHubEmulator.start();
  const temp = await mkdtemp(path.join(os.tmpdir(), "resolve-bot-bench-action-"));
  try {
    const full = "acme/size-1-action";
    await gh.importRepo("acme", "size-1-action", repo.gitDir);
    gh.setPermission(full, "alice", "write");
    const pr = await gh.createPullRequest({ repo: full, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": "n\n" } }] });
    const runnerTemp = await mkdtemp(path.join(temp, "runner-temp-"));
    log(`action: cold (fresh RUNNER_TEMP)`);
    const cold = await runAction(gh, full, pr.number, runnerTemp, runId);
    log(`action: warm RUNNER_TEMP, same head`);
    const warm = await runAction(gh, full, pr.number, runnerTemp, runId + 1);
    return { cold, warm };
  } finally {
    await gh.stop();
    await rm(temp, { recursive: true, force: true });
  }
}

const failure = (times: ActionTimes): string | undefined =>
  times.code === 0 && times.done === "rocket" && Number.isFinite(times.rocket)
    ? undefined
    : `exit ${times.code}, ${times.done}: ${times.reply || times.output.slice(-300)}`;

/** `runs` runs, each of the action's events, the server's commands, `node -e 0` and the bundle's load, in a seeded-random order. */
export async function benchAction(astGrep: string, runs: number): Promise<ActionRow> {
  const bundle = bundleSize();
  const repo = await effectCopies(1);
  const loadBefore = os.loadavg()[0]!;
  const pairs: Array<{ action: { cold: ActionTimes; warm: ActionTimes }; server: RunTimes; node: number; load: number }> = [];
  for (let index = 0; index < runs; index++) {
    log(`action: ${repo.files + 1} files, run ${index + 1}/${runs}`);
    let action: { cold: ActionTimes; warm: ActionTimes } | undefined;
    let server: RunTimes | undefined;
    let node = 0;
    let load = 0;
    const legs = [
      async () => (action = await actionRun(repo, 8_100_000_000 + 10 * index)),
      async () => (server = await serverRun(1, repo, astGrep)),
      async () => (node = await exitMs(["-e", "0"])),
      async () => (load = await exitMs([ACTION_BUNDLE])),
    ];
    for (const leg of shuffled(legs, index)) await leg();
    pairs.push({ action: action!, server: server!, node, load });
  }
  const of = (pick: (pair: (typeof pairs)[0]) => number) => pairs.map(pick);
  const med = (pick: (pair: (typeof pairs)[0]) => number) => Math.round(median(of(pick)));
  const problem =
    pairs.map((pair) => failure(pair.action.cold) ?? failure(pair.action.warm)).find((text) => text !== undefined) ??
    pairs.find((pair) => !pair.server.ok)?.server.reply;
  const first = pairs[0]!.action.cold;
  return {
    files: repo.files + 1,
    bytes: repo.bytes,
    runs,
    bundle,
    cold_ms: med((p) => p.action.cold.rocket),
    cold_exit_ms: med((p) => p.action.cold.exit),
    warm_ms: med((p) => p.action.warm.rocket),
    warm_exit_ms: med((p) => p.action.warm.exit),
    warm_git_requests: of((p) => p.action.warm.gitRequests),
    server_first_ms: med((p) => p.server.first),
    cold_ratio: round(median(of((p) => p.action.cold.rocket / p.server.first)), 2),
    warm_ratio: round(median(of((p) => p.action.warm.rocket / p.server.first)), 2),
    timeline: {
      first_request_ms: med((p) => p.action.cold.firstRequest),
      git_start_ms: med((p) => p.action.cold.gitStart),
      git_end_ms: med((p) => p.action.cold.gitEnd),
      rocket_ms: med((p) => p.action.cold.rocket),
      exit_ms: med((p) => p.action.cold.exit),
    },
    startup: { node_ms: med((p) => p.node), bundle_load_ms: med((p) => p.load) },
    samples: {
      cold: of((p) => p.action.cold.rocket).map(Math.round),
      warm: of((p) => p.action.warm.rocket).map(Math.round),
      server_first: of((p) => p.server.first).map(Math.round),
      first_request: of((p) => p.action.cold.firstRequest).map(Math.round),
      node: of((p) => p.node),
      bundle_load: of((p) => p.load),
    },
    load: [round(loadBefore, 2), round(os.loadavg()[0]!, 2)],
    peak_rss_mb: Math.round(Math.max(...pairs.flatMap((p) => [p.action.cold.peak, p.action.warm.peak])) / MIB),
    reply: problem ?? `${first.done}: ${first.reply.split("\n")[0]}`,
    ok: problem === undefined,
  };
}

const mb = (bytes: number) => `${(bytes / MIB).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function actionMarkdown(row: ActionRow, targets: { ratio: number; bundleMb: number }, mark: (ok: boolean) => string): string[] {
  const native = Object.entries(row.bundle.native)
    .map(([name, bytes]) => `${name} ${mb(bytes)}`)
    .join(", ");
  const t = row.timeline;
  return [
    "## GitHub Action (bundled, one process per event; same repository and command as repo-size's first command on a head)",
    "",
    "| repository | runs (load) | action, cold (fresh RUNNER_TEMP) | to exit | server, first command on a head | cold ÷ server | action, warm RUNNER_TEMP (same head) | warm ÷ server | peak RSS (action, all processes) |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${row.files.toLocaleString("en-US")} files, ${(row.bytes / 1e6).toFixed(0)} MB${row.ok ? "" : ` (failed: ${row.reply})`} | ${row.runs} (${row.load[0]}–${row.load[1]}) | ${seconds(row.cold_ms)} | ${seconds(row.cold_exit_ms)} | ${seconds(row.server_first_ms)} | ${row.cold_ratio}×${mark(row.cold_ratio <= targets.ratio)} | ${seconds(row.warm_ms)} | ${row.warm_ratio}× | ${row.peak_rss_mb} MB |`,
    "",
    `Cold run's timeline (medians, from process start): first GitHub request ${seconds(t.first_request_ms)}, git fetch ${seconds(t.git_start_ms)}–${seconds(t.git_end_ms)}, 🚀 answered ${seconds(t.rocket_ms)}, exit ${seconds(t.exit_ms)}. ` +
      `Process start alone: \`node -e 0\` ${seconds(row.startup.node_ms)}; the bundle given no event (node + loading the bundle, then exit) ${seconds(row.startup.bundle_load_ms)}. ` +
      `Warm RUNNER_TEMP: git requests per run ${row.warm_git_requests.join(", ")} (0: the head was in the cache, nothing fetched).`,
    "",
    `Bundle: JavaScript **${mb(row.bundle.js_bytes)}**${mark(row.bundle.js_bytes <= targets.bundleMb * MIB)} (target ≤ ${targets.bundleMb} MB): dist/action/index.js ${mb(row.bundle.entry_bytes)}, compiled by every run, and chunks loaded on first use ${mb(row.bundle.chunks_bytes)}; native parts beside it ${mb(row.bundle.native_bytes)} (${native}); dist/action in all ${mb(row.bundle.total_bytes)}. ` +
      `Cold ÷ server's first command on a head: **${row.cold_ratio}×**${mark(row.cold_ratio <= targets.ratio)} (target ≤ ${targets.ratio}×).`,
  ];
}
