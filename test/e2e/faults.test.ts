/**
 * Faults after a write are reported as what is true, and bounds on work hold: GitHub failing
 * after the ref moved, check-run updates failing after the commit, a 200-command comment.
 */
import { comment, deliver, runsOn, useBot, type Bot } from "./harness.js";
import { shortSha } from "../../src/core/revision.js";

const REPO = "acme/faults";
const FILES = {
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
};
const LOG_TS_DEBUG = 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n';

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "faults", FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

async function openPr(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

/** Commits on the branch since `base`, newest first. */
async function commitsSince(branch: string, base: string): Promise<string[]> {
  const out = await bot.gh.runGit(REPO, ["rev-list", `${base}..refs/heads/${branch}`]);
  return out.split("\n").filter(Boolean);
}

afterEach(() => bot.gh.clearFaults());

test("a 5xx on the ref update after the branch moved: the reply says Applied, one commit", async () => {
  const pr = await openPr("fault-ref");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/log.ts");
  // GitHub moves the ref, then the answer is lost: every try answers 502.
  bot.gh.onceBefore("PATCH /repos/acme/faults/git/refs/heads/fault-ref", async (req) => {
    await bot.gh.forcePush(REPO, "fault-ref", (req.body as { sha: string }).sha);
  });
  bot.gh.injectFault({ method: "PATCH", path: "/repos/acme/faults/git/refs/heads/fault-ref", status: 502, times: Infinity });
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply use the logger");
  expect(applied.done).toBe("rocket");
  expect(applied.reply.startsWith("Applied 1 replacement in 1 file.")).toBe(true);
  const commits = await commitsSince("fault-ref", pr.headSha);
  expect(commits).toHaveLength(1);
  expect(await bot.gh.fileAt(REPO, commits[0]!, "src/log.ts")).toBe(LOG_TS_DEBUG);
  const run = runsOn(bot, REPO, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: AST Edit"))!;
  expect([run.status, run.conclusion]).toEqual(["completed", "success"]);
});

test("check-run updates failing after the commit: the reply says it is committed; the next command finishes the stack", async () => {
  const pr = await openPr("fault-checks");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/main.ts");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/log.ts");
  bot.gh.injectFault({ method: "PATCH", path: "/repos/acme/faults/check-runs/:id", status: 502, times: Infinity });
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply debug level");
  const commits = await commitsSince("fault-checks", pr.headSha);
  expect(commits).toHaveLength(1);
  expect(applied.reply).toContain(`The edit is committed (${shortSha(commits[0]!)}), but marking it applied on the pull request failed`);
  expect(applied.reply).not.toContain("Something went wrong");
  bot.gh.clearFaults();

  // The next command reads the new head, sees the commit's trailer, and completes the stack from it.
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("1 pending, newest first");
  expect(pending.reply).toContain("AST Edit: 1 replacement in 1 file (#1");
  const oldRuns = runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: AST Edit"));
  expect(oldRuns.map((run) => [run.output.title, run.conclusion])).toEqual(
    expect.arrayContaining([
      [expect.stringContaining("Applied"), "success"],
      [expect.stringContaining("Moved"), "neutral"],
    ]),
  );
  // Applying again applies the older action, not the committed one a second time.
  const second = await comment(bot, REPO, pr.number, "alice", "/resolve apply info level");
  expect(second.done).toBe("rocket");
  const after = await commitsSince("fault-checks", pr.headSha);
  expect(after).toHaveLength(2);
  expect(await bot.gh.filesAt(REPO, after[0]!)).toMatchObject({
    "src/log.ts": LOG_TS_DEBUG,
    "src/main.ts": 'import { run } from "./log";\n\nlogger.info(run(1));\n',
  });
});

test("check-run updates failing after the commit, then GitHub's push event: the applied action ends `success`, the rest carried; no second reply", async () => {
  const pr = await openPr("fault-push");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/main.ts");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/log.ts");
  // Every try of the run's update fails (Octokit tries four times), after the branch moved.
  const fault = bot.gh.injectFault({ method: "PATCH", path: "/repos/acme/faults/check-runs/:id", status: 502, times: 4 });
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply debug level");
  expect(fault.hits).toBe(4);
  const [commit] = await commitsSince("fault-push", pr.headSha);
  expect(applied.reply).toContain(`The edit is committed (${shortSha(commit!)}), but marking it applied on the pull request failed`);

  // GitHub tells the bot about its own push, as it does for every push to the branch.
  const sync = await bot.gh.webhooks.pullRequest({
    repo: REPO,
    number: pr.number,
    action: "synchronize",
    before: pr.headSha,
    after: commit!,
  });
  expect(await deliver(bot, sync)).toBeLessThan(300);
  // Requests of one pull request run in order: once /pending is answered, the push is handled.
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("1 pending, newest first");
  expect(pending.reply).toContain("AST Edit: 1 replacement in 1 file (#1");

  const debug = runsOn(bot, REPO, pr.headSha).find((run) => run.output.summary?.includes("logger.debug") || run.name.endsWith("(#2)"))!;
  expect([debug.status, debug.conclusion, debug.output.title]).toEqual([
    "completed",
    "success",
    "Applied: AST Edit: 1 replacement in 1 file",
  ]);
  const carried = runsOn(bot, REPO, commit!).filter((run) => run.name.startsWith("resolve-bot: AST Edit"));
  expect(carried.map((run) => run.status)).toEqual(["in_progress"]);
  expect(carried[0]!.output.summary).toContain("an edit was applied");
  const gate = runsOn(bot, REPO, commit!).find((run) => run.name === "resolve-bot")!;
  expect(gate.conclusion).toBe("action_required");
  const replies = bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin);
  expect(replies.filter((entry) => entry.body.startsWith("New commits were pushed"))).toEqual([]);
  expect(replies).toHaveLength(4); // two previews, the apply, /pending
});

test("a comment with 200 commands is refused whole: one reply, no check run", async () => {
  const pr = await openPr("many-commands");
  const body = Array.from({ length: 200 }, (_, index) => `/ast-edit --pat 'console.log($$$A)' --out 'log${index}($$$A)'`).join("\n");
  const result = await comment(bot, REPO, pr.number, "alice", body);
  expect(result.done).toBe("confused");
  expect(result.reply).toBe(
    "This comment holds 200 commands; at most 10 run per comment (`limits.max_commands_per_comment` in `.github/resolve-bot.yml`). Nothing was run: split them over several comments.",
  );
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);
});

test("a permission written as the command is typed (`ast-edit: admin`) is enforced", async () => {
  await bot.gh.createRepo("acme", "guarded", { ...FILES, ".github/resolve-bot.yml": "permissions:\n  AST-Edit: admin\n" });
  bot.gh.setPermission("acme/guarded", "alice", "write");
  const pr = await bot.gh.createPullRequest({
    repo: "acme/guarded",
    head: "topic",
    user: "alice",
    commits: [{ files: { "docs/x.md": "x\n" } }],
  });
  const result = await comment(bot, "acme/guarded", pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)'");
  expect(result.done).toBe("confused");
  expect(result.reply).toBe("Sorry, `/ast-edit` needs admin permission on this repository, and alice has write. Nothing was changed.");
  expect(runsOn(bot, "acme/guarded", pr.headSha)).toEqual([]);
});

test.each([
  ["merged", true, "This pull request was merged: a commit on its branch would never reach the base branch. Nothing was run."],
  ["closed", false, "This pull request is closed: reopen it to preview or resolve edits. Nothing was run."],
])("on a %s pull request /resolve and previews write nothing; /pending still answers", async (state, merged, expected) => {
  const pr = await openPr(`done-${state}`);
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/log.ts");
  bot.gh.closePullRequest(REPO, pr.number, { merged });
  bot.gh.clearLog();
  for (const body of ["/resolve apply ship it", "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)'"]) {
    const result = await comment(bot, REPO, pr.number, "alice", body);
    expect(result.done).toBe("confused");
    expect(result.reply.startsWith(expected)).toBe(true);
  }
  expect(bot.gh.writes().filter((entry) => !/\/reactions$|\/issues\/\d+\/comments$/.test(entry.path))).toEqual([]);
  expect(await bot.gh.branchSha(REPO, `done-${state}`)).toBe(pr.headSha);
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("1 pending, newest first");
});

test("a deleted head branch is named as such, and the edit stays pending", async () => {
  const pr = await openPr("gone-branch");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/log.ts");
  await bot.gh.runGit(REPO, ["update-ref", "-d", "refs/heads/gone-branch"]);
  const result = await comment(bot, REPO, pr.number, "alice", "/resolve apply ship it");
  expect(result.reply).toContain(
    "Apply failed: the branch gone-branch no longer exists (it was deleted); nothing was committed. The edit stays pending; restore the branch to apply it.",
  );
  const run = runsOn(bot, REPO, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: AST Edit"))!;
  expect(run.status).toBe("in_progress");
});
