/**
 * An early status when the run that said it cannot answer: the worker is stopped at a limit (time
 * or memory), or the job queue gives up after its last attempt. The server then answers itself
 * (index.ts, replyOnPullRequest) and settles the status the gone run said, so nothing is left
 * saying "Working on …". The status is said at once (RESOLVE_BOT_STATUS_AFTER_SECONDS=0). How a
 * status goes when the run answers itself: working-status.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { GAVE_UP } from "../../src/apps/server/app.js";
import { comment, runsOn, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/stopped";
const SETTLED = (command: string) => `~~Working on \`${command}\` (3 files)…~~ Finished: the reply is below.`;

/** One bot for the tests of a describe block, with a repository alice may write to. */
function useStatusBot(env: Record<string, string>): () => Bot {
  let bot: Bot | undefined;
  useBot(
    async (started) => {
      bot = started;
      await bot.gh.createRepo("acme", "stopped", { "src/a.ts": 'console.log("a");\n', "README.md": "# stopped\n" });
      bot.gh.setPermission(REPO, "alice", "write");
    },
    { RESOLVE_BOT_STATUS_AFTER_SECONDS: "0", ...env },
  );
  return () => bot!;
}

/** The bot's comments on a PR as people read them: without the markers naming the request (reply and status). */
function botComments(bot: Bot, number: number): string[] {
  return bot.gh
    .comments(REPO, number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => withoutMarker(entry.body).replace(/\n\n<!-- resolve-bot:working:\S+ -->$/, ""));
}

async function openPr(bot: Bot, branch: string) {
  return bot.gh.createPullRequest({
    repo: REPO,
    head: branch,
    user: "alice",
    commits: [{ files: { "src/b.ts": 'console.log("b");\n' } }],
  });
}

describe("the worker stopped at a limit", () => {
  // Long enough for the status to be out before the tool starts its endless loop, however loaded
  // the machine (the tool waits for the test, which waits for the status); the pool stops the
  // worker 5 s after it.
  const limitSeconds = patient(2_000) / 1000;
  const bot = useStatusBot({
    RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/heavy-tools.mjs"),
    RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: String(limitSeconds),
    RESOLVE_BOT_WORKER_MEMORY_MB: "128",
  });
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "working-status-stopped-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Runs `command` (which waits for the file `--file`), releases it once its early status is out; the comments once the bot is done. */
  async function stoppedAfterStatus(branch: string, command: string) {
    const pr = await openPr(bot(), branch);
    const release = path.join(scratch, branch);
    const asked = comment(bot(), REPO, pr.number, "alice", `/${command} --file ${release}`, patient(90_000));
    const status = `Working on \`/${command}\` (3 files)…`;
    await waitFor("the early status", () => botComments(bot(), pr.number).includes(status) || undefined);
    // Only now does the tool misbehave: nothing but the pool's limit stops it.
    writeFileSync(release, "");
    const stopped = await asked;
    expect(stopped.done).toBe("confused");
    expect(runsOn(bot(), REPO, pr.headSha)).toEqual([]);
    return botComments(bot(), pr.number);
  }

  test(
    "at the time limit after its status: the stop reply, and the status struck through",
    async () => {
      expect(await stoppedAfterStatus("time-limit", "burn-after")).toEqual([
        SETTLED("/burn-after"),
        `\`/burn-after\` did not finish within ${limitSeconds} s and was stopped; nothing was changed.`,
      ]);
    },
    patient(120_000),
  );

  test(
    "at the memory limit after its status: the stop reply, and the status struck through",
    async () => {
      expect(await stoppedAfterStatus("memory-limit", "hog-after")).toEqual([
        SETTLED("/hog-after"),
        "`/hog-after` needed more than 128 MB of memory and was stopped; nothing was changed.",
      ]);
    },
    patient(120_000),
  );
});

describe("the job given up", () => {
  // Two attempts, 200 ms apart: a job GitHub fails twice is given up.
  const bot = useStatusBot({ RESOLVE_BOT_JOB_ATTEMPTS: "2", RESOLVE_BOT_JOB_BACKOFF_MS: "200" });

  test(
    "after GitHub failed the check run on every attempt: the gave-up reply, and the status struck through",
    async () => {
      const pr = await openPr(bot(), "gave-up");
      const fault = bot().gh.injectFault({ path: `POST /repos/${REPO}/check-runs`, status: 502, times: Infinity });
      // Each attempt spends Octokit's retries (about 14 s) before the queue hears of the failure.
      const edit = "/ast-edit --pat 'console.log($$$A)' --out 'logger.log($$$A)'";
      const asked = await comment(bot(), REPO, pr.number, "alice", edit, patient(90_000));
      fault.remove();
      // Two attempts, each with Octokit's four tries.
      expect(fault.hits).toBe(8);
      expect(asked.done).toBe("confused");
      // The second attempt found the first one's status and said none of its own.
      expect(botComments(bot(), pr.number)).toEqual([SETTLED("/ast-edit"), GAVE_UP]);
      expect(runsOn(bot(), REPO, pr.headSha)).toEqual([]);
    },
    patient(120_000),
  );
});
