/**
 * Every write the bot makes in a preview + preview + apply + discard flow, failed three ways — a
 * 502 before GitHub writes, a 502 after it wrote (the answer was lost), a secondary rate limit —
 * and the flow still ends as it does without faults: one commit with the applied edit, no
 * duplicated pending action or check run, one true reply per command, the gate right.
 *
 * The fault is armed before each command, so it hits the route's first write in every step that
 * makes one. The routes are checked against the fault-free flow's request log: a write the bot
 * starts making gets a case here, or this test fails.
 */
import { comment, startBot, type Bot } from "./harness.js";
import { compilePattern } from "./emulator/router.js";
import type { FaultSpec } from "./emulator/index.js";
import { patient } from "../helpers/patience.js";

const FILES = { "src/a.ts": 'console.log("a");\nconsole.warn("b");\n' };
const APPLIED = { "src/a.ts": 'console.log("a");\nlogger.warn("b");\n' };
const FLOW = [
  "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
  "/ast-edit --pat 'console.warn($$$A)' --out 'logger.warn($$$A)'",
  "/resolve apply warnings through the logger",
  "/resolve discard keep console.log",
];

/** Every route the flow writes to, as a fault pattern in one repository. */
const ROUTES: Record<string, (repo: string) => string> = {
  "POST check-runs": (repo) => `POST /repos/${repo}/check-runs`,
  "PATCH check-runs": (repo) => `PATCH /repos/${repo}/check-runs/:id`,
  "POST git/trees": (repo) => `POST /repos/${repo}/git/trees`,
  "POST git/commits": (repo) => `POST /repos/${repo}/git/commits`,
  "PATCH git/refs": (repo) => `PATCH /repos/${repo}/git/refs/*`,
  "POST issue comment": (repo) => `POST /repos/${repo}/issues/:n/comments`,
  "POST comment reaction": (repo) => `POST /repos/${repo}/issues/comments/:id/reactions`,
};

const MODES: Record<string, Omit<FaultSpec, "path">> = {
  "a 502 before the write": { status: 502 },
  "a 502 after the write": { status: 502, when: "after" },
  "a secondary rate limit": { secondaryRateLimit: { retryAfter: 1 } },
};

/** What a user sees at the end of the flow, with repository names and commit ids left out. */
interface Outcome {
  replies: string[];
  reactions: string[][];
  files: Record<string, string>;
  commits: number;
  runs: Record<"before" | "after", string[]>;
}

let bot: Bot;
let baseline: Outcome;
let baselineWrites: Array<{ method: string; path: string }>;
let repos = 0;

async function newPullRequest() {
  const name = `w${++repos}`;
  await bot.gh.createRepo("acme", name, FILES);
  const repo = `acme/${name}`;
  bot.gh.setPermission(repo, "alice", "write");
  const pr = await bot.gh.createPullRequest({ repo, head: "topic", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
  return { repo, ...pr };
}

function runsOn(repo: string, sha: string | undefined): string[] {
  if (!sha) return [];
  return bot.gh
    .checkRuns(repo, { headSha: sha })
    .map((run) => `${run.name} | ${run.status} | ${run.conclusion} | ${run.output.title}`)
    .sort();
}

/** Runs the flow, with `arm` called before each command (a fault for it) and its result removed after. */
async function flow(arm?: (repo: string) => { remove(): void; hits: number }): Promise<Outcome & { hits: number }> {
  const pr = await newPullRequest();
  const replies: string[] = [];
  const reactions: string[][] = [];
  let hits = 0;
  for (const body of FLOW) {
    const fault = arm?.(pr.repo);
    const result = await comment(bot, pr.repo, pr.number, "alice", body);
    fault?.remove();
    hits += fault?.hits ?? 0;
    // Every reaction the bot left, once the command was done (🚀 is the last write it makes).
    reactions.push(bot.gh.reactions(result.commentId).map((reaction) => reaction.content));
    replies.push(result.reply);
  }
  const bodies = bot.gh
    .comments(pr.repo, pr.number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => entry.body);
  const head = await bot.gh.branchSha(pr.repo, "topic");
  const commits = (await bot.gh.runGit(pr.repo, ["rev-list", `${pr.headSha}..refs/heads/topic`])).split("\n").filter(Boolean);
  const normalise = (text: string) => text.replaceAll(pr.repo, "acme/REPO").replace(/\b[0-9a-f]{7,40}\b/g, "SHA");
  return {
    // Every comment the bot made on the pull request: one per command, in order.
    replies: (bodies.length === replies.length ? replies : bodies).map(normalise),
    reactions,
    files: await bot.gh.filesAt(pr.repo, head!),
    commits: commits.length,
    runs: { before: runsOn(pr.repo, pr.headSha), after: head === pr.headSha ? [] : runsOn(pr.repo, head).map(normalise) },
    hits,
  };
}

beforeAll(async () => {
  bot = await startBot({ RESOLVE_BOT_JOB_BACKOFF_MS: "200" });
  bot.gh.clearLog();
  const { hits: _hits, ...outcome } = await flow();
  baseline = outcome;
  baselineWrites = bot.gh.writes();
}, patient(90_000));

afterAll(async () => {
  await bot?.stop();
});

test("the fault-free flow: one commit, four replies, and every write route has a case below", () => {
  expect(baseline.commits).toBe(1);
  expect(baseline.files).toEqual({ ...APPLIED, "n.md": "n\n" });
  expect(baseline.replies).toHaveLength(FLOW.length);
  expect(baseline.replies[2]!.startsWith("Applied 1 replacement in 1 file.")).toBe(true);
  expect(baseline.replies[3]!.startsWith("Discarded: AST Edit: 1 replacement in 1 file. Reason: keep console.log")).toBe(true);
  expect(baseline.reactions).toEqual(FLOW.map(() => ["eyes", "rocket"]));
  // Pending actions: the older one carried to the new head and discarded there; the gate says so.
  expect(baseline.runs.after.filter((run) => run.startsWith("resolve-bot: AST Edit"))).toHaveLength(1);
  const routes = Object.entries(ROUTES).map(([name, pattern]) => [name, compilePattern(pattern("acme/w1"))] as const);
  const written = new Set(
    baselineWrites.map((entry) => routes.find(([, matches]) => matches(entry.method, entry.path))?.[0] ?? `${entry.method} ${entry.path}`),
  );
  expect([...written].sort()).toEqual(Object.keys(ROUTES).sort());
});

const CASES = Object.keys(ROUTES).flatMap((route) => Object.keys(MODES).map((mode) => [route, mode] as const));

test.concurrent.each(CASES)("%s answered with %s: the flow ends as without faults", async (route, mode) => {
  const outcome = await flow((repo) => bot.gh.injectFault({ ...MODES[mode]!, path: ROUTES[route]!(repo) }));
  expect(outcome.hits).toBeGreaterThan(0);
  const { hits: _hits, ...rest } = outcome;
  expect(rest).toEqual(baseline);
});

test("every response matched GitHub's OpenAPI description", () => {
  expect(bot.gh.validateLog()).toEqual([]);
});
