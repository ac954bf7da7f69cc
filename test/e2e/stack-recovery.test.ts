/**
 * The stack is found wherever real GitHub left it: runs GitHub completed as `stale` after 14
 * days, and a stack left on an earlier head when a push never reached the bot. Each is re-created
 * on the current head once (re-previewed when the head moved), with or without the webhook.
 */
import { OpenApiValidator } from "./emulator/index.js";
import { comment, deliver, latestReply, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/stacks";
const DAY = 24 * 60 * 60 * 1000;
const EDIT = "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/a.ts";
const LABEL = "AST Edit: 1 replacement in 1 file";

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "stacks", { "src/a.ts": 'console.log("a");\n', "src/b.ts": "export const b = 1;\n" });
  bot.gh.setPermission(REPO, "alice", "write");
});

async function previewedPr(head: string) {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { [`${head}.md`]: "x\n" } }] });
  expect((await comment(bot, REPO, pr.number, "alice", EDIT)).done).toBe("rocket");
  return pr;
}

function actionRuns(sha: string) {
  return runsOn(bot, REPO, sha).filter((run) => run.name.startsWith("resolve-bot: "));
}

function gate(sha: string) {
  return runsOn(bot, REPO, sha).find((run) => run.name === "resolve-bot");
}

test("GitHub marks the pending run stale after 14 days: the check_run.completed webhook re-creates it on the head", async () => {
  const pr = await previewedPr("stale-hook");
  const events = await bot.gh.advanceClock(15 * DAY);
  const [completed] = events.filter((event) => (event.payload.check_run as { head_sha: string }).head_sha === pr.headSha);
  expect(OpenApiValidator.shared().validateWebhook("check_run", "completed", completed!.payload)).toEqual([]);
  expect(actionRuns(pr.headSha).map((run) => [run.status, run.conclusion])).toEqual([["completed", "stale"]]);

  await deliver(bot, completed!);
  const restored = await waitFor("the run re-created", () => actionRuns(pr.headSha).find((run) => run.status === "in_progress"));
  expect(restored.name).toBe(`resolve-bot: ${LABEL}`);
  expect(restored.output.summary).toContain(`Restored on ${pr.headSha.slice(0, 7)}`);
  expect(restored.output.text).toContain('+logger.info("a");');
  expect([gate(pr.headSha)!.conclusion, gate(pr.headSha)!.output.title]).toEqual(["action_required", `Pending: ${LABEL}`]);

  // A redelivery (or a second reader) finds it already back: nothing is duplicated.
  await deliver(bot, completed!);
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain(LABEL);
  expect(actionRuns(pr.headSha).filter((run) => run.status === "in_progress")).toHaveLength(1);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply after two weeks");
  expect(applied.done).toBe("rocket");
  expect(await bot.gh.fileAt(REPO, "stale-hook", "src/a.ts")).toBe('logger.info("a");\n');
});

test("a lost stale webhook: the next command still finds the pending edit", async () => {
  const pr = await previewedPr("stale-lost");
  await bot.gh.advanceClock(15 * DAY); // the check_run.completed deliveries are dropped
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).not.toContain("Nothing is pending");
  expect(pending.reply).toContain(LABEL);
  expect(actionRuns(pr.headSha).map((run) => [run.status, run.conclusion])).toEqual([
    ["completed", "stale"],
    ["in_progress", null],
  ]);
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply still wanted");
  expect(applied.reply).toContain("Applied");
  expect(await bot.gh.fileAt(REPO, "stale-lost", "src/a.ts")).toBe('logger.info("a");\n');
});

test("a missed pull_request.synchronize: the stack is re-previewed on the new head, once, and a late delivery changes nothing", async () => {
  const pr = await previewedPr("missed-push");
  const pushed = await bot.gh.pushCommit(REPO, "missed-push", {
    files: { "src/b.ts": "export const b = 2;\n" },
    message: "someone pushes",
  });
  // No webhook reaches the bot for that push.
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain(LABEL);
  const [moved] = actionRuns(pushed);
  expect([moved!.status, moved!.name]).toEqual(["in_progress", `resolve-bot: ${LABEL}`]);
  expect(moved!.output.summary).toContain(
    `Previewed again on ${pushed.slice(0, 7)} (was ${pr.headSha.slice(0, 7)}): the preview is unchanged.`,
  );
  expect(actionRuns(pr.headSha).map((run) => [run.conclusion, run.output.title])).toEqual([["neutral", `Superseded: ${LABEL}`]]);
  expect(gate(pushed)!.conclusion).toBe("action_required");

  const late = await bot.gh.webhooks.pullRequest({
    repo: REPO,
    number: pr.number,
    action: "synchronize",
    before: pr.headSha,
    after: pushed,
  });
  await deliver(bot, late);
  await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(actionRuns(pushed).filter((run) => run.status === "in_progress")).toHaveLength(1);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply on the new head");
  expect(applied.done).toBe("rocket");
  expect(await bot.gh.filesAt(REPO, "missed-push")).toMatchObject({
    "src/a.ts": 'logger.info("a");\n',
    "src/b.ts": "export const b = 2;\n",
  });
});

test("a missed push whose edit is gone: the action is closed, not resurrected", async () => {
  const pr = await previewedPr("missed-gone");
  const pushed = await bot.gh.pushCommit(REPO, "missed-gone", { files: { "src/a.ts": 'logger.info("a");\n' }, message: "done by hand" });
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("Nothing is pending");
  expect(actionRuns(pushed)).toEqual([]);
  expect(actionRuns(pr.headSha).map((run) => [run.conclusion, run.output.title])).toEqual([["neutral", `Closed: ${LABEL}`]]);
  expect(gate(pushed)!.conclusion).toBe("success");
});

test("an edit applied or discarded before a missed push stays gone", async () => {
  const pr = await previewedPr("missed-resolved");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'export const b = $X' --out 'export const bee = $X' --paths src/b.ts");
  expect((await comment(bot, REPO, pr.number, "alice", "/resolve discard no")).done).toBe("rocket");
  const head = await bot.gh.branchSha(REPO, "missed-resolved");
  const pushed = await bot.gh.pushCommit(REPO, "missed-resolved", { files: { "c.md": "c\n" } });
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain(LABEL);
  expect(pending.reply).not.toContain("bee");
  expect(actionRuns(pushed).map((run) => run.name)).toEqual([`resolve-bot: ${LABEL}`]);
  expect(head).toBe(pr.headSha);
});

test("the common path costs one check-run list: no commit walk when the head already has our runs", async () => {
  const pr = await previewedPr("cheap");
  bot.gh.clearLog();
  await comment(bot, REPO, pr.number, "alice", "/pending");
  const reads = bot.gh.log().filter((entry) => entry.method === "GET" && !entry.path.includes("/collaborators/"));
  expect(reads.map((entry) => entry.path).filter((path) => path.includes("/check-runs") || path.includes("/pulls/"))).toEqual([
    `/repos/${REPO}/pulls/${pr.number}`,
    `/repos/${REPO}/commits/${pr.headSha}/check-runs`,
  ]);
});

test("check_suite.requested puts the gate on every head, also on pull requests opened before the installation", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "before-install",
    user: "alice",
    commits: [{ files: { "old.md": "o\n" } }],
  });
  const suite = await bot.gh.webhooks.checkSuite({ repo: REPO, sha: pr.headSha, action: "requested", user: "alice" });
  expect(OpenApiValidator.shared().validateWebhook("check_suite", "requested", suite.payload)).toEqual([]);
  await deliver(bot, suite);
  const created = await waitFor("the gate", () => gate(pr.headSha));
  expect([created.conclusion, created.output.title]).toEqual(["success", "No pending edits"]);
});

test("check_suite.requested after a missed synchronize moves the stack, gates the new head and says so", async () => {
  const pr = await previewedPr("suite-push");
  const pushed = await bot.gh.pushCommit(REPO, "suite-push", { files: { "src/b.ts": "export const b = 3;\n" } });
  const before = bot.gh.comments(REPO, pr.number).length;
  await deliver(bot, await bot.gh.webhooks.checkSuite({ repo: REPO, sha: pushed, action: "requested", user: "alice" }));
  const reply = await waitFor("the reply", () => latestReply(bot, REPO, pr.number, before) || undefined);
  expect(
    reply.startsWith(
      `New commits reached resolve-bot without their push event, so the pending edits were brought to ${pushed.slice(0, 7)}:\n- ${LABEL}: the preview is unchanged.\n`,
    ),
  ).toBe(true);
  const moved = gate(pushed)!;
  expect(moved.conclusion).toBe("action_required");
  expect(actionRuns(pushed).map((run) => run.status)).toEqual(["in_progress"]);
  expect(actionRuns(pr.headSha).map((run) => run.conclusion)).toEqual(["neutral"]);
});

test("a stale run on a fork pull request's head (GitHub lists no pull requests on it) still comes back", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "forked-stale",
    headRepo: "erin/stacks",
    user: "erin",
    commits: [{ files: { "e.md": "e\n" } }],
  });
  expect((await comment(bot, REPO, pr.number, "alice", EDIT)).done).toBe("rocket");
  const events = await bot.gh.advanceClock(15 * DAY);
  const completed = events.find((event) => (event.payload.check_run as { head_sha: string }).head_sha === pr.headSha)!;
  expect((completed.payload.check_run as { pull_requests: unknown[] }).pull_requests).toEqual([]);
  await deliver(bot, completed);
  await waitFor("the run re-created", () => actionRuns(pr.headSha).find((run) => run.status === "in_progress"));
  expect(gate(pr.headSha)!.conclusion).toBe("action_required");
});
