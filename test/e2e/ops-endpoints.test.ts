/**
 * The operator's endpoints on the real webhook server (embedded SQLite queue, worker pool): liveness,
 * readiness, and Prometheus metrics whose counters move by exactly what a preview, an apply and a
 * refused command did. A metrics token, when set, is asked for.
 */
import { comment, startBot, waitFor, type Bot } from "./harness.js";
import { parseSamples, sampleValue, type Sample } from "../helpers/prometheus-text.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/metered";
const TOKEN = "scrape-secret";
let bot: Bot;
let base: string;

beforeAll(async () => {
  bot = await startBot({ RESOLVE_BOT_METRICS_TOKEN: TOKEN });
  base = bot.webhookUrl.replace(/\/api\/github\/webhooks$/, "");
  await bot.gh.createRepo("acme", "metered", { "src/a.ts": 'console.log("a");\nconsole.log("b");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
  bot.gh.setPermission(REPO, "rita", "read");
}, patient(60_000));

afterAll(async () => {
  await bot?.stop();
});

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  return parseSamples(await response.text());
}

const commands = (outcome: string, tool: string) => ({ tool, outcome, role: "all" });

test("GET /healthz and /readyz answer 200 while the queue and the pool are up", async () => {
  const health = await fetch(`${base}/healthz`);
  expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
  const ready = await fetch(`${base}/readyz`);
  expect([ready.status, await ready.text()]).toEqual([200, "ready\n"]);
});

test("GET /metrics asks for the token when RESOLVE_BOT_METRICS_TOKEN is set", async () => {
  for (const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`]) {
    const response = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("resolve_bot_");
  }
});

test(
  "the counters move by what a preview, an apply and a refused command did",
  async () => {
    const before = await scrape();
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.txt": "n\n" } }] });

    const preview = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
    expect(preview.done).toBe("rocket");
    const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply tidy logs");
    expect(applied.done).toBe("rocket");
    const refused = await comment(bot, REPO, pr.number, "rita", "/ast-edit --pat 'a' --out 'b'");
    expect(refused.done).toBe("confused");

    // The reply is out before the job's end is recorded: wait for the last command to be counted.
    const count = "resolve_bot_command_duration_seconds_count";
    const after = await waitFor("the refused command to be counted", async () => {
      const samples = await scrape();
      return sampleValue(samples, count, commands("refused", "ast_edit")) > sampleValue(before, count, commands("refused", "ast_edit"))
        ? samples
        : undefined;
    });
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(moved(count, commands("previewed", "ast_edit"))).toBe(1);
    expect(moved(count, commands("applied", "resolve"))).toBe(1);
    expect(moved(count, commands("refused", "ast_edit"))).toBe(1);
    expect(moved(count, commands("discarded", "resolve"))).toBe(0);
    expect(moved("resolve_bot_jobs_queued_total")).toBe(3);
    expect(moved("resolve_bot_jobs_dead_lettered_total")).toBe(0);
    expect(sampleValue(after, "resolve_bot_jobs_running")).toBe(0);
    expect(moved("resolve_bot_webhook_ack_seconds_count", { event: "issue_comment" })).toBe(3);

    // GitHub calls, by route and status: the apply made one commit and moved the branch once.
    expect(moved("resolve_bot_github_requests_total", { route: "POST /repos/{owner}/{repo}/git/commits", status: "201" })).toBe(1);
    expect(moved("resolve_bot_github_requests_total", { route: "PATCH /repos/{owner}/{repo}/git/refs/{ref}", status: "200" })).toBe(1);
    // Three replies (one per comment), each from the worker thread's Octokit.
    expect(
      moved("resolve_bot_github_requests_total", { route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", status: "201" }),
    ).toBe(3);
    // Three 👀 reactions from the webhook server's Octokit (the main thread), three 🚀/😕 from the workers.
    expect(
      moved("resolve_bot_github_requests_total", {
        route: "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
        status: "201",
      }),
    ).toBe(6);
    expect(sampleValue(after, "resolve_bot_github_rate_limit_remaining", { installation: String(bot.gh.installationId) })).toBe(4999);

    expect(sampleValue(after, "resolve_bot_worker_threads")).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, "resolve_bot_worker_heap_used_bytes")).toBeGreaterThan(1_000_000);
  },
  patient(120_000),
);

test("GET / on a configured server is a page saying what it is, linking the endpoints (not an empty 404)", async () => {
  const page = await fetch(`${base}/`);
  expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  const html = await page.text();
  expect(html).toContain("resolve-bot is running: a GitHub App that edits pull requests by comment");
  expect([...html.matchAll(/href="([^"]+)"/g)].map((link) => link[1])).toEqual(["/healthz", "/readyz", "/metrics"]);
});
