/** A tool that never returns is stopped at the server's time limit; its PR keeps being served. */
import path from "node:path";
import { comment, runsOn, useBot, type Bot } from "./harness.js";

const REPO = "acme/hangs";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "hangs", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/slow-tool.mjs"), RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "1" },
);

test("a hanging tool gets a clear reply and pushes nothing; the next command on the PR runs", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const hung = await comment(bot, REPO, pr.number, "alice", "/slow-note --ms 600000");
  expect(hung.done).toBe("confused");
  expect(hung.reply).toBe("`slow_note` did not finish within 1 s and was stopped; nothing was changed.");
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);
  const next = await comment(bot, REPO, pr.number, "alice", "/slow-note --ms 10");
  expect(next.done).toBe("rocket");
  expect(runsOn(bot, REPO, pr.headSha).map((run) => run.name)).toContain("resolve-bot: Slow note: 10 ms");
});
