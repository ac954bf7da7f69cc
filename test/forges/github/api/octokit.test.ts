/**
 * The app's Octokit against the GitHub emulator: a check run or comment whose answer was lost
 * after GitHub wrote it is found instead of written twice; one that was never written is written
 * on the next try; every other failure is passed on as Octokit reports it. Rate limits are waited
 * out in place only when the wait is short, with request spacing off too.
 */
import { Probot } from "probot";
import { GitHubEmulator } from "../../../e2e/emulator/index.js";
import { resolveBotOctokit } from "../../../../src/forges/github/api/octokit.js";
import type { GitHubClient } from "../../../../src/forges/github/types.js";

const REPO = "acme/writes";
let gh: GitHubEmulator;
let octokit: GitHubClient;
let head: string;
let number: number;

beforeAll(async () => {
  gh = await GitHubEmulator.start();
  await gh.createRepo("acme", "writes", { "a.ts": "a\n" });
  const pr = await gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
  ({ headSha: head, number } = pr);
  const env = gh.probotEnv("unused");
  // The retry plugin's schedule, 100 times faster (the plugin under test reads the same option).
  const Octokit = resolveBotOctokit({ RESOLVE_BOT_THROTTLE: "off" }).defaults({ retry: { retryAfterBaseValue: 10 } });
  const probot = new Probot({ appId: Number(env.APP_ID), privateKey: env.PRIVATE_KEY!, baseUrl: gh.apiUrl, Octokit, logLevel: "fatal" });
  octokit = (await probot.auth(gh.installationId)) as GitHubClient;
}, 30_000);

afterAll(async () => {
  await gh.stop();
});

afterEach(() => {
  gh.clearFaults();
  expect(gh.validateLog()).toEqual([]);
  gh.clearLog();
});

const owner = "acme";
const repo = "writes";

/** The requests to a route family, as `METHOD status`. */
function traffic(pattern: RegExp): string[] {
  return gh
    .log()
    .filter((entry) => pattern.test(entry.path))
    .map((entry) => `${entry.method} ${entry.status}`);
}

test("a check run GitHub created before the answer was lost is found, not created again", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/check-runs`, status: 502, when: "after" });
  const { status, data } = await octokit.rest.checks.create({ owner, repo, name: "lost", head_sha: head, external_id: "pr:1:a" });
  expect(status).toBe(201);
  expect(gh.checkRuns(REPO, { name: "lost" }).map((run) => run.id)).toEqual([data.id]);
  expect(data).toMatchObject({ name: "lost", external_id: "pr:1:a", head_sha: head });
  expect(traffic(/check-runs$/)).toEqual(["POST 502", "GET 200"]);
});

test("a check run GitHub never created is created on the next try, once", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/check-runs`, status: 502, times: 2 });
  const { data } = await octokit.rest.checks.create({ owner, repo, name: "late", head_sha: head, external_id: "pr:1:b" });
  expect(gh.checkRuns(REPO, { name: "late" }).map((run) => run.id)).toEqual([data.id]);
  expect(traffic(/check-runs$/)).toEqual(["POST 502", "GET 200", "POST 502", "GET 200", "POST 201"]);
});

test("another run of the same name with another external id is not taken for the lost one", async () => {
  await octokit.rest.checks.create({ owner, repo, name: "twin", head_sha: head, external_id: "pr:1:c" });
  gh.injectFault({ path: `POST /repos/${REPO}/check-runs`, status: 502 });
  const { data } = await octokit.rest.checks.create({ owner, repo, name: "twin", head_sha: head, external_id: "pr:1:d" });
  expect(data.external_id).toBe("pr:1:d");
  expect(gh.checkRuns(REPO, { name: "twin" }).map((run) => run.externalId)).toEqual(["pr:1:c", "pr:1:d"]);
});

test("a comment GitHub posted before the answer was lost (or the connection dropped) is found, not posted again", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/issues/:n/comments`, status: 502, when: "after" });
  const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: "Applied it." });
  const comments = gh.comments(REPO, number).filter((comment) => comment.body === "Applied it.");
  expect(comments.map((comment) => comment.id)).toEqual([data.id]);
  expect(traffic(/comments$/)).toEqual(["POST 502", "GET 200"]);
});

test("GitHub failing every try: the 5xx is passed on after the retry plugin's number of tries, each looked for first", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/issues/:n/comments`, status: 503, times: Infinity });
  await expect(octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: "never" })).rejects.toMatchObject({
    status: 503,
  });
  expect(traffic(/comments$/)).toEqual(["POST 503", "GET 200", "POST 503", "GET 200", "POST 503", "GET 200", "POST 503"]);
  expect(gh.comments(REPO, number).filter((comment) => comment.body === "never")).toEqual([]);
});

test("a refusal is passed on at once, without looking", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/check-runs`, status: 422 });
  await expect(octokit.rest.checks.create({ owner, repo, name: "refused", head_sha: head })).rejects.toMatchObject({ status: 422 });
  expect(traffic(/check-runs$/)).toEqual(["POST 422"]);
});

test("updates are retried by the retry plugin as before (safe to repeat)", async () => {
  const { data } = await octokit.rest.checks.create({ owner, repo, name: "patched", head_sha: head });
  gh.clearLog();
  gh.injectFault({ path: `PATCH /repos/${REPO}/check-runs/:id`, status: 502, when: "after" });
  await octokit.rest.checks.update({ owner, repo, check_run_id: data.id, status: "completed", conclusion: "success" });
  expect(traffic(/check-runs\/\d+$/)).toEqual(["PATCH 502", "PATCH 200"]);
  expect(gh.checkRuns(REPO, { name: "patched" }).map((run) => run.conclusion)).toEqual(["success"]);
});

test("request spacing off, a short secondary rate limit is still waited out once", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/issues/:n/comments`, secondaryRateLimit: { retryAfter: 1 } });
  const started = Date.now();
  await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: "limited" });
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(traffic(/comments$/)).toEqual(["POST 403", "POST 201"]);
});

test("a rate limit longer than a minute is passed on (the job waits it out), not waited for in place", async () => {
  gh.injectFault({ path: `POST /repos/${REPO}/issues/:n/comments`, secondaryRateLimit: { retryAfter: 61 } });
  await expect(octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: "later" })).rejects.toMatchObject({
    status: 403,
    response: { headers: { "retry-after": "61" } },
  });
  const reset = String(Math.floor(Date.now() / 1000) + 3600);
  gh.injectFault({
    path: `POST /repos/${REPO}/issues/:n/comments`,
    status: 403,
    body: { message: "API rate limit exceeded", documentation_url: "https://docs.github.com/rest" },
    headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
  });
  await expect(octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: "later" })).rejects.toMatchObject({
    status: 403,
  });
  expect(traffic(/comments$/)).toEqual(["POST 403", "POST 403"]);
});

describe("retries in place: one layer, each said at warn with its wait", () => {
  let warnings: string[];
  /** An installation Octokit of its own (a token cache of its own) whose warnings are kept. */
  async function loggedOctokit(): Promise<GitHubClient> {
    warnings = [];
    const said = (message: unknown, more?: unknown) => String(typeof message === "string" ? message : more);
    const log = {
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (message: unknown, more?: unknown) => void warnings.push(said(message, more)),
      error: () => undefined,
      fatal: () => undefined,
      child: () => log,
    };
    const env = gh.probotEnv("unused");
    // The retry plugin's schedule, 10 times faster: waits of 0.1, 0.4, 0.9 s.
    const Octokit = resolveBotOctokit({ RESOLVE_BOT_THROTTLE: "off" }).defaults({ retry: { retryAfterBaseValue: 100 } });
    const probot = new Probot({ appId: Number(env.APP_ID), privateKey: env.PRIVATE_KEY!, baseUrl: gh.apiUrl, Octokit, log: log as never });
    return (await probot.auth(gh.installationId)) as GitHubClient;
  }

  test("a call GitHub answers 502 twice: two retries at warn, with their waits, then its answer", async () => {
    const client = await loggedOctokit();
    await client.rest.pulls.get({ owner, repo, pull_number: number });
    gh.injectFault({ path: `GET /repos/${REPO}/pulls/:n`, status: 502, times: 2 });
    const { status } = await client.rest.pulls.get({ owner, repo, pull_number: number });
    expect(status).toBe(200);
    expect(warnings).toEqual([
      "GitHub GET /repos/{owner}/{repo}/pulls/{id} answered 502: retry 1 of 3 in 0.1 s",
      "GitHub GET /repos/{owner}/{repo}/pulls/{id} answered 502: retry 2 of 3 in 0.4 s",
    ]);
  });

  test("a write retried after looking whether the failed try made it is said the same way", async () => {
    const client = await loggedOctokit();
    await client.rest.pulls.get({ owner, repo, pull_number: number });
    gh.injectFault({ path: `POST /repos/${REPO}/issues/:n/comments`, status: 502 });
    await client.rest.issues.createComment({ owner, repo, issue_number: number, body: "said" });
    expect(warnings).toEqual(["GitHub POST /repos/{owner}/{repo}/issues/{id}/comments answered 502: retry 1 of 3 in 0.1 s"]);
  });

  test("an installation token GitHub fails to give is not retried in place, nor inside the call that needed it: the job is", async () => {
    const client = await loggedOctokit();
    gh.injectFault({ path: "POST /app/installations/:id/access_tokens", status: 502, times: Infinity });
    await expect(client.rest.pulls.get({ owner, repo, pull_number: number })).rejects.toMatchObject({ status: 502 });
    expect(traffic(/access_tokens$|pulls\/\d+$/)).toEqual(["POST 502"]);
    expect(warnings).toEqual([]);
    gh.clearFaults();
    expect((await client.rest.pulls.get({ owner, repo, pull_number: number })).status).toBe(200);
    expect(traffic(/access_tokens$|pulls\/\d+$/)).toEqual(["POST 502", "POST 201", "GET 200"]);
  });
});
