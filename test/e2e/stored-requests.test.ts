/**
 * Jobs are read back from the durable queue through the request's schema: a job stored by an older
 * build (version 1) still runs; one this build cannot read is dead-lettered at once with a log line
 * that says why, and nothing is done on the pull request.
 */
import { SqliteJobQueue } from "../../src/jobs/sqlite-queue.js";
import { deliver, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/stored";
let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "stored", { "a.txt": "a\n" });
  bot.gh.setPermission(REPO, "alice", "write");
});

/** Records a job in the running server's data directory, as another process of the app would. */
async function store(id: string, key: string, payload: unknown): Promise<void> {
  const queue = new SqliteJobQueue({ dataDir: bot.env.RESOLVE_BOT_DATA_DIR! });
  try {
    expect(await queue.submit({ id, key, payload })).toBe(true);
  } finally {
    await queue.close();
  }
}

test("a version-1 comment job (stored before intents and origins) is carried out and answered", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "old-job", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  await store("v1-job", `${REPO}#${pr.number}`, {
    installationId: (event.payload.installation as { id: number }).id,
    repository: { owner: "acme", repo: "stored" },
    pullRequest: pr.number,
    actor: { login: "alice", id: 1 },
    deliveryId: "v1-job",
    trigger: { kind: "comment", commentId: event.commentId, commands: [{ name: "pending", typed: "pending", args: "", line: 1 }] },
  });
  await waitFor("the old job's rocket", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket"));
  const replies = bot.gh.comments(REPO, pr.number).filter((comment) => comment.user === bot.gh.botLogin);
  expect(replies.map((reply) => withoutMarker(reply.body))).toEqual(["Nothing is pending."]);
});

test("a job of an unknown version is dead-lettered with a clear log line; nothing is said on the pull request", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "future-job", user: "alice", commits: [{ files: { "c.txt": "c\n" } }] });
  const key = `${REPO}#${pr.number}`;
  await store("v9-job", key, { version: 9, intent: { kind: "commands" } });
  const line = `resolve-bot dead-lettered a stored job: job v9-job (${key}) cannot be carried out: the stored request has version 9; this build reads versions 1 and 2`;
  await waitFor("the dead-letter log line", () => bot.output().includes(line) || undefined);
  expect(bot.gh.comments(REPO, pr.number)).toEqual([]);
  // The pull request's queue is not blocked by it: the next command runs.
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  expect(await deliver(bot, event)).toBeLessThan(300);
  await waitFor("the next command's rocket", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket"));
});
