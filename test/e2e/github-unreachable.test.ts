/**
 * The server with GitHub unreachable (nothing listens where GHE_HOST points): the webhook is still
 * taken, and the server is loud about it — each retry of the job at warn with its wait, the job
 * given up at error, /readyz says why it is not ready, and the API-call metric says `error` (no
 * answer), never Octokit's stand-in 500. The job queue's first backoff is made short here (0.2 s,
 * doubling; five attempts as by default), so the whole story takes seconds. (Octokit's in-place retries, logged the same way,
 * are in test/forges/github/api/octokit.test.ts.)
 */
import { deliver, freePort, startBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/unreachable";
let bot: Bot;

interface Line {
  level: number;
  time: number;
  msg: string;
}

const WARN = 40;
const ERROR = 50;

const lines = (): Line[] =>
  bot
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);

beforeAll(async () => {
  // GitHub's address is a loopback port nobody listens on: every call is refused.
  bot = await startBot({
    LOG_LEVEL: process.env.DEBUG_UNREACHABLE ? "debug" : "info",
    LOG_FORMAT: "json",
    GHE_HOST: `127.0.0.1:${await freePort()}`,
    RESOLVE_BOT_JOB_BACKOFF_MS: "200",
  });
  await bot.gh.createRepo("acme", "unreachable", { "a.txt": "a\n" });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  if (process.env.DEBUG_UNREACHABLE) {
    const t0 = lines()[0]!.time;
    console.log(
      lines()
        .map((l) => `${l.time - t0} ${l.level} ${l.msg}`)
        .join("\n"),
    );
  }
  await bot.stop();
});

test("GitHub refusing connections: each retry at warn with its wait, the job given up within seconds, /readyz says why, the metric says error", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  expect(await deliver(bot, event)).toBe(200);

  const deadLetter = /^The dead-letter callback failed for job [0-9a-f-]+\.$/;
  await waitFor("the job given up, and its give-up reply failing", () =>
    lines().some((line) => line.level === ERROR && deadLetter.test(line.msg)),
  );
  const all = lines();
  const taken = all.find((line) => line.msg.startsWith("POST /api/github/webhooks 200"))!;
  const loud = all.filter((line) => line.level >= WARN);

  // No token can be had: that call is not retried in place (the job is), so the job queue's retry
  // comes at once, and 👀 could not be sent; nothing else, and never a 500.
  const jobRetry = (attempt: number, wait: string) =>
    `resolve-bot will try the job again in ${wait} (attempt ${attempt} of 5 failed: GitHub failed for now (acme/unreachable#1): no answer (ECONNREFUSED))`;
  const warnings = loud.filter((line) => line.level === WARN).map((line) => line.msg);
  expect(warnings.filter((msg) => msg !== "👀 reaction failed")).toEqual([
    jobRetry(1, "0.2 s"),
    jobRetry(2, "0.4 s"),
    jobRetry(3, "0.8 s"),
    jobRetry(4, "1.6 s"),
  ]);
  expect(warnings.filter((msg) => msg === "👀 reaction failed")).toHaveLength(1);

  const errors = loud.filter((line) => line.level === ERROR).map((line) => line.msg.replace(/job [0-9a-f-]+\./, "job <id>."));
  expect(errors).toEqual(["resolve-bot gave up on a job", "The dead-letter callback failed for job <id>."]);
  // Five attempts and 3 s of backoff: seconds, not minutes (a generous bound).
  const last = loud[loud.length - 1]!;
  expect(last.time - taken.time).toBeLessThan(patient(15_000));

  const base = bot.webhookUrl.replace(/\/api\/github\/webhooks$/, "");
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.text()).toMatch(
    /^not ready:\n- GitHub is unreachable: (GET|POST|PATCH|PUT|DELETE) \S+ got no answer \d+ s ago \(ECONNREFUSED\), and no call has been answered since\n$/,
  );
  const metrics = await (await fetch(`${base}/metrics`)).text();
  expect(metrics).toMatch(/^resolve_bot_github_requests_total\{.*status="error".*\} [1-9]\d*$/m);
  expect(metrics).not.toMatch(/^resolve_bot_github_requests_total\{.*status="500"/m);
});
