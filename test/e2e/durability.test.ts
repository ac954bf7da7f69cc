/**
 * Durable intake: a command is recorded before its webhook is answered, so a server killed right
 * after the answer (SIGKILL: no shutdown of any kind) carries it out once it is started again.
 */
import path from "node:path";
import { comment, deliver, latestReply, runsOn, useBot, waitFor, type Bot, settled } from "./harness.js";

const REPO = "acme/durable";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "durable", {
      "a.txt": "a\n",
      "src/log.ts": 'console.log("log");\n',
      "src/warn.ts": 'console.warn("warn");\nconsole.warn("again");\n',
    });
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
  await settled(bot);
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
  expect(bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin)).toHaveLength(1);
});

test("SIGKILL after the apply's commit landed, before its check runs and reply: the restarted job does not apply again", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "applying", user: "alice", commits: [{ files: { "c.txt": "c\n" } }] });
  expect((await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.log($$$A)'")).done).toBe(
    "rocket",
  );
  expect((await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.warn($$$A)' --out 'logger.warn($$$A)'")).done).toBe(
    "rocket",
  );

  // The ref update goes through; the first check-run write after it finds the server killed.
  const checkRunWrite = /^(POST|PATCH) \S*\/repos\/acme\/durable\/check-runs/;
  bot.gh.onceBefore("PATCH /repos/:o/:r/git/refs/*", () => {
    bot.gh.onceBefore(checkRunWrite, () => void bot.process.kill("SIGKILL"));
    bot.gh.injectFault({ path: checkRunWrite, status: 502 });
  });
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  const before = bot.gh.comments(REPO, pr.number).length;
  const apply = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve apply ship it", user: "alice" });
  expect(await deliver(bot, apply)).toBeLessThan(300);
  await exited;
  const head = (await bot.gh.branchSha(REPO, "applying"))!;
  expect(head).not.toBe(pr.headSha);

  await bot.restart();
  await waitFor("the restarted job to finish", () =>
    bot.gh.reactions(apply.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
  );
  const log = await bot.gh.runGit(REPO, ["log", "--format=%B%x00", `${pr.headSha}..refs/heads/applying`]);
  expect([...log.matchAll(/^Resolve-Action: /gm)]).toHaveLength(1);
  expect(await bot.gh.branchSha(REPO, "applying")).toBe(head);
  expect(latestReply(bot, REPO, pr.number, before)).toMatch(
    new RegExp(`^This was already carried out: commit ${head.slice(0, 7)} on the branch is this request's apply`),
  );
  // The older action is still pending, on the new head; the applied one is not.
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("1 pending, newest first");
  expect(pending.reply).toContain("AST Edit: 1 replacement in 1 file");
  expect(
    runsOn(bot, REPO, head)
      .filter((run) => run.status === "in_progress")
      .map((run) => run.name),
  ).toEqual(["resolve-bot: AST Edit: 1 replacement in 1 file"]);
});
