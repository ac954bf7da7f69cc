import { comment, useBot, type Bot } from "./harness.js";
let bot: Bot;
useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "probe", { "src/a.ts": 'console.log("a");\nconsole.warn("b");\n' });
  bot.gh.setPermission("acme/probe", "alice", "write");
});
test("probe", async () => {
  const pr = await bot.gh.createPullRequest({ repo: "acme/probe", head: "t", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
  bot.gh.clearLog();
  for (const body of [
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
    "/ast-edit --pat 'console.warn($$$A)' --out 'logger.warn($$$A)'",
    "/resolve apply ship",
    "/resolve discard nope",
  ]) {
    const r = await comment(bot, "acme/probe", pr.number, "alice", body);
    console.log(body, r.done, JSON.stringify(r.reply.slice(0, 300)));
    console.log(bot.gh.writes().map((e) => `${e.method} ${e.path} ${e.status}`).join("\n"));
    bot.gh.clearLog();
  }
}, 60000);
