/**
 * GitHub failing for longer than Octokit's own retries (four 502s in a row) is not answered with
 * an apology: the queue runs the job again after a backoff, and the command completes once. When
 * GitHub never recovers, the queue gives up and the dead letter says so on the pull request.
 */
import path from "node:path";
import { GAVE_UP } from "../../src/apps/server/app.js";
import { INTERNAL_ERROR } from "../../src/forges/github/replies/render.js";
import { deliver, runsOn, startBot, waitFor, withoutMarker, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const PREVIEW = "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'";
let bot: Bot;
let repos = 0;

beforeAll(async () => {
  // Two attempts in all, 200 ms apart: a job GitHub fails twice goes to the dead letter.
  bot = await startBot({
    RESOLVE_BOT_JOB_ATTEMPTS: "2",
    RESOLVE_BOT_JOB_BACKOFF_MS: "200",
    RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/faulty-tool.mjs"),
  });
}, patient(60_000));

afterAll(async () => {
  await bot?.stop();
});

async function newPullRequest() {
  const repo = `acme/retry${++repos}`;
  await bot.gh.createRepo("acme", `retry${repos}`, { "src/a.ts": 'console.log("a");\n' });
  bot.gh.setPermission(repo, "alice", "write");
  const pr = await bot.gh.createPullRequest({ repo, head: "topic", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
  return { repo, ...pr };
}

/**
 * Posts the command and waits until the bot is done with it (🚀 or 😕): longer than the harness
 * waits, since each failing attempt spends Octokit's 14 s of retries first.
 */
async function command(pr: { repo: string; number: number }, body = PREVIEW) {
  const event = bot.gh.webhooks.issueComment({ repo: pr.repo, number: pr.number, body, user: "alice" });
  expect(await deliver(bot, event)).toBe(200);
  const done = await waitFor(
    `the bot to finish with comment ${event.commentId}`,
    () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused")?.content,
    patient(80_000),
  );
  return { commentId: event.commentId, deliveryId: event.id, done };
}

function botComments(repo: string, number: number): string[] {
  return bot.gh
    .comments(repo, number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => entry.body);
}

test.concurrent.each([
  ["a read (GET the pull request)", (repo: string) => `GET /repos/${repo}/pulls/:n`],
  ["a write (POST the check run)", (repo: string) => `POST /repos/${repo}/check-runs`],
])(
  "%s failing four times in a row: the job runs again and the preview lands once",
  async (_what, path) => {
    const pr = await newPullRequest();
    const fault = bot.gh.injectFault({ path: path(pr.repo), status: 502, times: 4 });
    const result = await command(pr);
    expect(fault.hits).toBe(4);
    expect(result.done).toBe("rocket");
    const replies = botComments(pr.repo, pr.number);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.startsWith("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet")).toBe(true);
    const runs = runsOn(bot, pr.repo, pr.headSha);
    expect(runs.filter((run) => run.name.startsWith("resolve-bot: AST Edit")).map((run) => run.status)).toEqual(["in_progress"]);
    expect(runs.filter((run) => run.name === "resolve-bot").map((run) => run.conclusion)).toEqual(["action_required"]);
    expect(bot.gh.reactions(result.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
  },
  patient(90_000),
);

test.concurrent(
  "GitHub never recovering: after the last attempt the dead letter replies once, nothing was written",
  async () => {
    const pr = await newPullRequest();
    const fault = bot.gh.injectFault({ path: `GET /repos/${pr.repo}/pulls/:n`, status: 502, times: Infinity });
    const { done } = await command(pr);
    fault.remove();
    // Two attempts, each with Octokit's four tries.
    expect(fault.hits).toBe(8);
    expect(done).toBe("confused");
    expect(botComments(pr.repo, pr.number)).toEqual([GAVE_UP]);
    expect(runsOn(bot, pr.repo, pr.headSha)).toEqual([]);
  },
  patient(90_000),
);

test.concurrent(
  "a 502 on every try of an apply's commit: the queue runs the job again and it applies once; never `Apply failed: Bad Gateway`",
  async () => {
    const pr = await newPullRequest();
    expect((await command(pr)).done).toBe("rocket");
    const fault = bot.gh.injectFault({ path: `POST /repos/${pr.repo}/git/commits`, status: 502, times: 4 });
    const applied = await command(pr, "/resolve apply use the logger");
    expect(fault.hits).toBe(4);
    expect(applied.done).toBe("rocket");
    const replies = botComments(pr.repo, pr.number).map(withoutMarker);
    expect(replies).toHaveLength(2);
    expect(replies[1]!.split("\n")[0]).toBe("Applied 1 replacement in 1 file.");
    expect(replies.join("\n")).not.toContain("Apply failed");
    const head = (await bot.gh.branchSha(pr.repo, "topic"))!;
    expect((await bot.gh.commit(pr.repo, head)).parents).toEqual([pr.headSha]);
    expect(await bot.gh.fileAt(pr.repo, head, "src/a.ts")).toBe('logger.info("a");\n');
    const run = runsOn(bot, pr.repo, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: AST Edit"))!;
    expect([run.status, run.conclusion]).toEqual(["completed", "success"]);
  },
  patient(120_000),
);

test.concurrent(
  "an apply's commit failing through every attempt: one `gave up` reply, nothing committed, the action still pending",
  async () => {
    const pr = await newPullRequest();
    expect((await command(pr)).done).toBe("rocket");
    const fault = bot.gh.injectFault({ path: `POST /repos/${pr.repo}/git/commits`, status: 502, times: Infinity });
    const applied = await command(pr, "/resolve apply use the logger");
    fault.remove();
    expect(fault.hits).toBe(8);
    expect(applied.done).toBe("confused");
    const replies = botComments(pr.repo, pr.number);
    expect(replies.slice(1)).toEqual([GAVE_UP]);
    expect(await bot.gh.branchSha(pr.repo, "topic")).toBe(pr.headSha);
    const run = runsOn(bot, pr.repo, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: AST Edit"))!;
    expect(run.status).toBe("in_progress");
  },
  patient(120_000),
);

test.concurrent(
  "a custom tool whose apply throws a TypeError: the apology, the error in the log, the action still pending",
  async () => {
    const pr = await newPullRequest();
    expect((await command(pr, "/faulty-note")).done).toBe("rocket");
    const applied = await command(pr, "/resolve apply go");
    expect(applied.done).toBe("confused");
    const replies = botComments(pr.repo, pr.number).map(withoutMarker);
    expect(replies[1]).toBe(INTERNAL_ERROR);
    expect(replies.join("\n")).not.toMatch(/Apply failed|Cannot read properties/);
    await waitFor("the error in the log", () => /Cannot read properties of undefined \(reading 'sha'\)/.test(bot.output()) || undefined);
    expect(bot.output()).toContain(applied.deliveryId);
    const run = runsOn(bot, pr.repo, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: Faulty note"))!;
    expect(run.status).toBe("in_progress");
  },
  patient(90_000),
);

test("every response matched GitHub's OpenAPI description", () => {
  expect(bot.gh.validateLog()).toEqual([]);
});
