/**
 * SIGTERM (a deploy, a scale-down): the server stops taking webhooks, finishes the command it
 * already acknowledged (check run, reply, 🚀), and exits 0.
 */
import path from "node:path";
import { deliver, startBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/shutdown";
let bot: Bot;

beforeAll(async () => {
  bot = await startBot({ RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/slow-tool.mjs"), LOG_LEVEL: "info" });
  await bot.gh.createRepo("acme", "shutdown", { "a.txt": "a\n" });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  if (bot.process.exitCode === null) bot.process.kill("SIGKILL");
  await bot.gh.stop();
});

test("a running command finishes after SIGTERM; new webhooks are refused; exit code 0", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/slow-note --ms 2500", user: "alice" });
  expect(await deliver(bot, event)).toBeLessThan(300);
  await waitFor("👀", () => bot.gh.reactions(event.commentId).some((reaction) => reaction.content === "eyes") || undefined);
  const exited = new Promise<number | null>((resolve) => bot.process.once("exit", (code) => resolve(code)));
  bot.process.kill("SIGTERM");
  // Logged in the same turn of the event loop as the listening socket is closed.
  await waitFor("the server to stop taking webhooks", () => bot.output().includes("SIGTERM: no new webhooks") || undefined);
  const late = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  await expect(deliver(bot, late)).rejects.toThrow();
  expect(await exited).toBe(0);
  expect(bot.gh.reactions(event.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
  const reply = bot.gh
    .comments(REPO, pr.number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .at(-1)!.body;
  expect(reply).toContain("Waited 2500 ms.");
  expect(bot.gh.checkRuns(REPO, { headSha: pr.headSha }).map((run) => [run.name, run.status])).toContainEqual([
    "resolve-bot: Slow note: 2500 ms",
    "in_progress",
  ]);
  expect(bot.output()).toContain("all commands finished");
});
