/**
 * The server with GitHub unreachable (nothing listens where GHE_HOST points): the webhook is still
 * taken, and the server is loud about it — each retry at warn with its wait (Octokit's and the job
 * queue's), /readyz says why it is not ready, and the API-call metric says `error` (no answer).
 */
import { deliver, freePort, startBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/unreachable";
let bot: Bot;

interface Line {
  level: number;
  msg: string;
}

const lines = (): Line[] =>
  bot
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);

beforeAll(async () => {
  // GitHub's address is a loopback port nobody listens on: every call gets no answer.
  bot = await startBot({
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
    GHE_HOST: `127.0.0.1:${await freePort()}`,
    RESOLVE_BOT_JOB_BACKOFF_MS: "200",
  });
  await bot.gh.createRepo("acme", "unreachable", { "a.txt": "a\n" });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  if (process.env.DEBUG_UNREACHABLE)
    console.log(
      lines()
        .map((line) => `${line.level} ${line.msg}`)
        .join("\n"),
    );
  await bot.stop();
});

test(
  "GitHub not answering: retries logged at warn with their waits, /readyz says why, the metric says error",
  async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
    const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
    expect(await deliver(bot, event)).toBeLessThan(300);

    const octokitRetry = /^GitHub (GET|POST|PATCH|PUT|DELETE) \S+ got no answer \(ECONNREFUSED\): retry 1 of 3 in 1 s$/;
    await waitFor(
      "Octokit's first retry at warn",
      () => lines().find((line) => line.level === 40 && octokitRetry.test(line.msg)),
      patient(60_000),
    );
    const jobRetry = /^resolve-bot will try the job again in \d+(\.\d)? s \(attempt 1 of 5 failed: .+\)$/;
    await waitFor("the job's retry at warn", () => lines().find((line) => line.level === 40 && jobRetry.test(line.msg)), patient(240_000));

    const base = bot.webhookUrl.replace(/\/api\/github\/webhooks$/, "");
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toMatch(
      /^not ready:\n- GitHub is unreachable: (GET|POST|PATCH|PUT|DELETE) \S+ got no answer \d+ s ago \(ECONNREFUSED\), and no call has been answered since\n$/,
    );
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/resolve_bot_github_requests_total\{[^}]*status="error"[^}]*\} \d+/);
    expect(metrics).not.toMatch(/resolve_bot_github_requests_total\{[^}]*status="500"/);
  },
  patient(360_000),
);
