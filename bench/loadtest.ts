/**
 * `npm run loadtest`: the real server against the GitHub emulator on loopback, under load.
 * 50 pull requests, 10 commands each (500): previews, then four resolves sent at once on the same
 * pull request (three applies and a discard), `/pending` and one more preview. It prints the webhook
 * acknowledgement latency and checks what users would notice: every command finished (lost = 0),
 * no action committed twice and no comment answered twice (duplicated = 0), one commit per "Applied"
 * reply. Bounded: a fixed number of requests, and a deadline after which it stops and fails.
 *
 * Options: --prs N (50), --topology embedded|redis (redis when redis-server is on PATH).
 */
import { parseArgs } from "node:util";
import type { Bot } from "../test/e2e/harness.js";
import { deliver } from "../test/e2e/harness.js";
import { startTopology, type Topology } from "./topology.js";

const REPO = "acme/load";
const METHODS = ["log", "warn", "error", "info"];
/** One file per preview, so applying one leaves the others' previews valid. */
const FILES = Object.fromEntries(
  METHODS.map((method) => [`src/${method}.ts`, `export function ${method}(x: number) {\n  console.${method}("x", x);\n  return x;\n}\n`]),
);
const PREVIEWS = METHODS.map((method) => `/ast-edit --pat 'console.${method}($$$A)' --out 'logger.${method}($$$A)'`);
/** Sent at once, after the previews: which of them wins a race is up to the queue. */
const RESOLVES = ["/resolve apply one", "/resolve apply two", "/resolve discard three", "/resolve apply four"];
/** Bounded: about 2.5 s per command on a 2-core machine is the slowest a healthy run has taken. */
const DEADLINE_MS_PER_COMMAND = 2500;

interface Sent {
  pr: number;
  commentId: number;
  body: string;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function send(bot: Bot, pr: number, body: string, acks: number[]): Promise<Sent> {
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr, body, user: "alice" });
  const start = performance.now();
  const status = await deliver(bot, event);
  acks.push(performance.now() - start);
  if (status < 200 || status >= 300) throw new Error(`webhook answered ${status}`);
  return { pr, commentId: event.commentId, body };
}

function finished(bot: Bot, sent: Sent): boolean {
  return bot.gh.reactions(sent.commentId).some((reaction) => reaction.content === "rocket" || reaction.content === "confused");
}

async function run(): Promise<void> {
  const { values } = parseArgs({ options: { prs: { type: "string", default: "50" }, topology: { type: "string" } } });
  const prCount = Number(values.prs);
  const topology: Topology = await startTopology(values.topology);
  const bot = topology.bot;
  const started = Date.now();
  try {
    await bot.gh.createRepo("acme", "load", FILES);
    bot.gh.setPermission(REPO, "alice", "write");
    const prs: Array<{ number: number; head: string }> = [];
    for (let i = 0; i < prCount; i++) {
      const head = `load-${i}`;
      const pr = await bot.gh.createPullRequest({
        repo: REPO,
        head,
        user: "alice",
        commits: [{ files: { [`docs/${head}.md`]: `${head}\n` } }],
      });
      prs.push({ number: pr.number, head });
    }
    const acks: number[] = [];
    const sent: Sent[] = [];
    // Each pull request's previews go in order (one delivery after the other's acknowledgement);
    // the pull requests themselves are all loaded at once.
    await Promise.all(
      prs.map(async (pr) => {
        for (const body of PREVIEWS) sent.push(await send(bot, pr.number, body, acks));
      }),
    );
    // Resolves race each other only after the previews are done (otherwise a resolve may find an empty stack).
    await waitAll(bot, sent, started);
    await Promise.all(prs.flatMap((pr) => RESOLVES.map(async (body) => sent.push(await send(bot, pr.number, body, acks)))));
    await Promise.all(
      prs.map(async (pr) => {
        sent.push(await send(bot, pr.number, "/pending", acks));
        sent.push(await send(bot, pr.number, "/ast-edit --pat 'return $X' --out 'return ($X)'", acks));
      }),
    );
    await waitAll(bot, sent, started);

    let commits = 0;
    let appliedReplies = 0;
    let duplicated = 0;
    for (const pr of prs) {
      const log = await bot.gh.runGit(REPO, ["log", "--format=%B%x00", `refs/heads/${pr.head}`]);
      const ids = [...log.matchAll(/^Resolve-Action: (\S+)$/gm)].map((match) => match[1]);
      commits += ids.length;
      duplicated += ids.length - new Set(ids).size;
      const replies = bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin);
      appliedReplies += replies.filter((entry) => entry.body.startsWith("Applied")).length;
    }
    // A comment answered twice is a duplicate too: one reply per command comment.
    const replyCount = prs.reduce(
      (sum, pr) => sum + bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin).length,
      0,
    );
    duplicated += Math.max(0, replyCount - sent.length);
    const lost = sent.filter((entry) => !finished(bot, entry)).length;
    const table = [
      `| topology | ${topology.name} |`,
      `| pull requests | ${prs.length} |`,
      `| commands | ${sent.length} |`,
      `| ack p50 / p99 / max (ms) | ${percentile(acks, 50).toFixed(1)} / ${percentile(acks, 99).toFixed(1)} / ${Math.max(...acks).toFixed(1)} |`,
      `| commands completed | ${sent.length - lost} |`,
      `| commits created | ${commits} (replies "Applied": ${appliedReplies}) |`,
      `| lost | ${lost} |`,
      `| duplicated | ${duplicated} |`,
      `| wall time (s) | ${((Date.now() - started) / 1000).toFixed(1)} |`,
    ];
    process.stdout.write(`| measure | value |\n| --- | --- |\n${table.join("\n")}\n`);
    if (lost > 0 || duplicated > 0 || commits !== appliedReplies) process.exitCode = 1;
  } finally {
    await topology.stop();
  }
}

async function waitAll(bot: Bot, sent: Sent[], started: number): Promise<void> {
  while (sent.some((entry) => !finished(bot, entry))) {
    if (Date.now() - started > DEADLINE_MS_PER_COMMAND * Math.max(sent.length, 100))
      throw new Error(`load test deadline: ${sent.filter((entry) => !finished(bot, entry)).length} commands unfinished`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

try {
  await run();
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
