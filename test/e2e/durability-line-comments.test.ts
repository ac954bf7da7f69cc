/**
 * A command from a review comment survives a killed server like one from the conversation: after
 * a restart it runs once, and its one reply is in the review thread; a run killed after its reply
 * was out looks for it in the thread (where it was said) and does not say it again.
 */
import path from "node:path";
import { deliver, runsOn, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/durable-lines";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "durable-lines", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/slow-tool.mjs") },
);

async function openPullRequest(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "b.txt": "one\ntwo\n" } }] });
}

function finished(commentId: number) {
  return waitFor("the command to finish after the restart", () =>
    bot.gh.reactions(commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
  );
}

function threadReplies(number: number, thread: number) {
  return bot.gh.lineComments(REPO, number).filter((comment) => comment.inReplyTo === thread && comment.user === bot.gh.botLogin);
}

test("SIGKILL during a command from a review comment: after a restart it runs once, with one reply in the thread", async () => {
  const pr = await openPullRequest("killed");
  const event = await bot.gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/slow-note --ms 1500",
    path: "b.txt",
    line: 2,
  });
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  expect(await deliver(bot, event)).toBeLessThan(300);
  await waitFor("the command to start", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "eyes"));
  bot.process.kill("SIGKILL");
  await exited;
  expect(threadReplies(pr.number, event.commentId)).toEqual([]);

  await bot.restart();
  expect((await finished(event.commentId)).content).toBe("rocket");
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
  const replies = threadReplies(pr.number, event.commentId);
  expect(replies).toHaveLength(1);
  expect(withoutMarker(replies[0]!.body)).toContain("Waited 1500 ms.");
  expect(bot.gh.comments(REPO, pr.number).filter((comment) => comment.user === bot.gh.botLogin)).toEqual([]);
});

test("SIGKILL after the thread reply was posted: the restarted run finds it in the thread, only finishes", async () => {
  const pr = await openPullRequest("replied");
  const event = await bot.gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/pending",
    path: "b.txt",
    line: 1,
  });
  // The reply is written, then the server dies before it hears back (so before 🚀 and before the job is done).
  const replies = /^POST \S*\/pulls\/\d+\/comments\/\d+\/replies/;
  bot.gh.onceBefore(replies, () => void bot.process.kill("SIGKILL"));
  bot.gh.injectFault({ path: replies, status: 502, when: "after" });
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  expect(await deliver(bot, event)).toBeLessThan(300);
  await exited;
  expect(threadReplies(pr.number, event.commentId)).toHaveLength(1);
  expect(bot.gh.reactions(event.commentId).map((reaction) => reaction.content)).toEqual(["eyes"]);

  await bot.restart();
  expect((await finished(event.commentId)).content).toBe("rocket");
  const said = threadReplies(pr.number, event.commentId);
  expect(said.map((reply) => withoutMarker(reply.body))).toEqual(["Nothing is pending."]);
  // It looked in the thread, not in the conversation.
  expect(bot.gh.log().some((entry) => entry.method === "GET" && /\/pulls\/\d+\/comments$/.test(entry.path))).toBe(true);
});
