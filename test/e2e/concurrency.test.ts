/** Races: pushes during apply, simultaneous resolves, redelivered webhooks. Never a lost or duplicate commit. */
import { comment, deliver, latestReply, runsOn, useBot, waitFor, type Bot, settled } from "./harness.js";

const REPO = "acme/race";
const FILES = { "src/a.ts": 'console.log("a");\n', "src/b.ts": 'console.log("b");\n', "src/c.ts": "export const c = 1;\n" };

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "race", FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

async function commitsOn(branch: string, base: string): Promise<string[]> {
  const out = await bot.gh.runGit(REPO, ["log", "--format=%s", `${base}..refs/heads/${branch}`]);
  return out.split("\n").filter(Boolean);
}

test("a push between the bot's read and its ref update fails the apply as stale; nothing lost, nothing doubled", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "push-race",
    user: "alice",
    commits: [{ files: { "n.md": "1\n" }, message: "start" }],
  });
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/a.ts");
  let concurrent = "";
  bot.gh.onceBefore("PATCH /repos/:o/:r/git/refs/*", async () => {
    concurrent = await bot.gh.pushCommit(REPO, "push-race", { files: { "n.md": "2\n" }, message: "someone else's push", author: "carol" });
  });
  const failed = await comment(bot, REPO, pr.number, "alice", "/resolve apply go");
  expect(failed.done).toBe("confused");
  expect(failed.reply.split("\n")[0]).toBe(
    "Apply failed: the branch push-race moved while the edit was being applied (a new push); nothing was committed. The edit is still pending: run `/resolve apply <reason>` again to replay it on the new head.",
  );
  expect(await bot.gh.branchSha(REPO, "push-race")).toBe(concurrent);
  expect(await commitsOn("push-race", "main")).toEqual(["someone else's push", "start"]);

  // GitHub then sends synchronize; the action is previewed again on the new head and applies there.
  const sync = await bot.gh.webhooks.pullRequest({
    repo: REPO,
    number: pr.number,
    action: "synchronize",
    before: pr.headSha,
    after: concurrent,
  });
  await deliver(bot, sync);
  await waitFor("the re-preview", () =>
    runsOn(bot, REPO, concurrent).find((run) => run.name.startsWith("resolve-bot: AST Edit") && run.status === "in_progress"),
  );
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply go");
  expect(applied.done).toBe("rocket");
  expect(await commitsOn("push-race", "main")).toEqual(["AST Edit: 1 replacement in 1 file", "someone else's push", "start"]);
  expect(await bot.gh.fileAt(REPO, "push-race", "src/a.ts")).toBe('logger.info("a");\n');
});

test("two /resolve apply comments delivered at the same moment: exactly one commit per popped action", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "double",
    user: "alice",
    commits: [{ files: { "n.md": "x\n" }, message: "start" }],
  });
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/a.ts");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.warn($$$A)' --paths src/b.ts");
  const first = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve apply one", user: "alice" });
  const second = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve apply two", user: "alice" });
  await Promise.all([deliver(bot, first), deliver(bot, second)]);
  for (const event of [first, second]) {
    await waitFor("both applies", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket"));
  }
  const commits = await commitsOn("double", "main");
  expect(commits).toHaveLength(3);
  expect(commits.slice(0, 2).sort()).toEqual(["AST Edit: 1 replacement in 1 file", "AST Edit: 1 replacement in 1 file"]);
  expect(await bot.gh.fileAt(REPO, "double", "src/a.ts")).toBe('logger.info("a");\n');
  expect(await bot.gh.fileAt(REPO, "double", "src/b.ts")).toBe('logger.warn("b");\n');
  const head = (await bot.gh.branchSha(REPO, "double"))!;
  expect(runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot")?.conclusion).toBe("success");
  expect(runsOn(bot, REPO, head).filter((run) => run.status === "in_progress")).toEqual([]);
});

test("a redelivered webhook (same X-GitHub-Delivery) does nothing the second time", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "redeliver", user: "alice", commits: [{ files: { "n.md": "r\n" } }] });
  const event = bot.gh.webhooks.issueComment({
    repo: REPO,
    number: pr.number,
    body: "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/a.ts",
    user: "alice",
  });
  await deliver(bot, event, "delivery-42");
  await waitFor("the first run", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket"));
  const comments = bot.gh.comments(REPO, pr.number).length;
  bot.gh.clearLog();
  expect(await deliver(bot, event, "delivery-42")).toBeLessThan(300);
  await settled(bot);
  expect(bot.gh.writes()).toEqual([]);
  expect(bot.gh.comments(REPO, pr.number).length).toBe(comments);
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
  expect(latestReply(bot, REPO, pr.number)).toContain("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet");
});
