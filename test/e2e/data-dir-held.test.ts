/**
 * A second server started on the same data directory while the first one is still finishing its
 * commands after SIGTERM: it says in one fatal line that another process holds the data directory,
 * and exits 1 (no stack trace).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { deliver, freePort, startBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/held";
let bot: Bot;

beforeAll(async () => {
  bot = await startBot({ RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/slow-tool.mjs"), LOG_LEVEL: "info" });
  await bot.gh.createRepo("acme", "held", { "a.txt": "a\n" });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  if (bot.process.exitCode === null) bot.process.kill("SIGKILL");
  await bot.gh.stop();
});

test(
  "a second server on a data directory held by another process: one fatal line naming it, exit 1",
  async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
    const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/slow-note --ms 8000", user: "alice" });
    expect(await deliver(bot, event)).toBeLessThan(300);
    await waitFor("👀", () => bot.gh.reactions(event.commentId).some((reaction) => reaction.content === "eyes") || undefined);
    const firstExited = new Promise<number | null>((resolve) => bot.process.once("exit", (code) => resolve(code)));
    bot.process.kill("SIGTERM");
    await waitFor("the first server's shutdown grace", () => bot.output().includes("SIGTERM: no new webhooks") || undefined);

    const env: NodeJS.ProcessEnv = { ...bot.env, PORT: String(await freePort()), LOG_FORMAT: "json" };
    const second = spawn(process.execPath, [path.resolve("dist/src/apps/server/main.js")], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    second.stdout.on("data", (chunk: Buffer) => (output += String(chunk)));
    second.stderr.on("data", (chunk: Buffer) => (output += String(chunk)));
    const code = await new Promise<number | null>((resolve) => second.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    const lines = output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const fatal = lines.filter((line) => line.level >= 50);
    expect(fatal).toEqual([
      expect.objectContaining({
        level: 60,
        msg: `resolve-bot cannot start: Another process is already carrying out the jobs in ${bot.env.RESOLVE_BOT_DATA_DIR}. The embedded queue has one worker process; set REDIS_URL to run several.`,
      }),
    ]);
    expect(output).not.toContain("SqliteError");
    expect(output).not.toContain("    at ");
    expect(await firstExited).toBe(0);
  },
  patient(90_000),
);
