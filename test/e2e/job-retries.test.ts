/**
 * GitHub failing for longer than Octokit's own retries (four 502s in a row) is not answered with
 * an apology: the queue runs the job again after a backoff, and the command completes once. When
 * GitHub never recovers, the queue gives up and the dead letter says so on the pull request.
 */
import { GAVE_UP } from "../../src/index.js";
import { deliver, runsOn, startBot, waitFor, type Bot } from "./harness.js";

const PREVIEW = "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'";
let bot: Bot;
let repos = 0;

beforeAll(async () => {
  // Two attempts in all, 200 ms apart: a job GitHub fails twice goes to the dead letter.
  bot = await startBot({ RESOLVE_BOT_JOB_ATTEMPTS: "2", RESOLVE_BOT_JOB_BACKOFF_MS: "200" });
}, 60_000);

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
async function command(pr: { repo: string; number: number }) {
  const event = bot.gh.webhooks.issueComment({ repo: pr.repo, number: pr.number, body: PREVIEW, user: "alice" });
  expect(await deliver(bot, event)).toBe(200);
  const done = await waitFor(
    `the bot to finish with comment ${event.commentId}`,
    () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused")?.content,
    80_000,
  );
  return { commentId: event.commentId, done };
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
    expect(replies[0]!.startsWith("**AST Edit: 1 replacement in 1 file** — pending #1, nothing written yet")).toBe(true);
    const runs = runsOn(bot, pr.repo, pr.headSha);
    expect(runs.filter((run) => run.name.startsWith("resolve-bot: AST Edit")).map((run) => run.status)).toEqual(["in_progress"]);
    expect(runs.filter((run) => run.name === "resolve-bot").map((run) => run.conclusion)).toEqual(["action_required"]);
    expect(bot.gh.reactions(result.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
  },
  90_000,
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
  90_000,
);

test("every response matched GitHub's OpenAPI description", () => {
  expect(bot.gh.validateLog()).toEqual([]);
});
