/**
 * Tools run in worker threads: a synchronous hang and a memory hog are stopped with a clear reply,
 * write nothing, and the pull request is served again at once.
 */
import path from "node:path";
import { comment, runsOn, useBot, type Bot } from "./harness.js";

const REPO = "acme/limits";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "limits", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  {
    RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/heavy-tools.mjs"),
    RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "1",
    RESOLVE_BOT_WORKER_MEMORY_MB: "128",
  },
);

async function openPr(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { [`${head}.txt`]: "b\n" } }] });
}

test("a synchronous endless loop is stopped at the time limit; the PR's next command runs", async () => {
  const pr = await openPr("spin");
  const hung = await comment(bot, REPO, pr.number, "alice", "/burn --ms 600000");
  expect(hung.done).toBe("confused");
  expect(hung.reply).toBe("`/burn` did not finish within 1 s and was stopped; nothing was changed.");
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);
  const next = await comment(bot, REPO, pr.number, "alice", "/burn --ms 10");
  expect(next.done).toBe("rocket");
  expect(runsOn(bot, REPO, pr.headSha).map((run) => run.name)).toContain("resolve-bot: Burnt 10 ms");
});

test("a tool that eats memory is stopped at the worker's memory limit; the PR's next command runs", async () => {
  const pr = await openPr("hog");
  const hog = await comment(bot, REPO, pr.number, "alice", "/hog");
  expect(hog.done).toBe("confused");
  expect(hog.reply).toBe("`/hog` needed more than 128 MB of memory and was stopped; nothing was changed.");
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);
  const next = await comment(bot, REPO, pr.number, "alice", "/burn --ms 10");
  expect(next.done).toBe("rocket");
  expect(bot.output()).not.toContain("FATAL ERROR");
});
