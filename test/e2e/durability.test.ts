/**
 * Durable intake: a command is recorded before its webhook is answered, so a server killed right
 * after the answer (SIGKILL: no shutdown of any kind) carries it out once it is started again.
 */
import path from "node:path";
import { deliver, latestReply, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/durable";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "durable", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/slow-tool.mjs") },
);

test("SIGKILL just after the webhook is answered: after a restart the command runs, once", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/slow-note --ms 1500", user: "alice" });
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  expect(await deliver(bot, event)).toBeLessThan(300);
  bot.process.kill("SIGKILL");
  await exited;
  expect(bot.gh.reactions(event.commentId).map((reaction) => reaction.content)).not.toContain("rocket");
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);

  await bot.restart();
  const done = await waitFor("the command to finish after the restart", () =>
    bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
  );
  expect(done.content).toBe("rocket");
  expect(runsOn(bot, REPO, pr.headSha).map((run) => [run.name, run.status])).toEqual(
    expect.arrayContaining([["resolve-bot: Slow note: 1500 ms", "in_progress"]]),
  );
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
  const replies = bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin);
  expect(replies).toHaveLength(1);
  expect(latestReply(bot, REPO, pr.number)).toContain("Waited 1500 ms.");

  // A redelivery of the same webhook (GitHub's "Redeliver" keeps the delivery id) changes nothing.
  const again = await deliver(bot, event);
  expect(again).toBeLessThan(300);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
  expect(bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin)).toHaveLength(1);
});
