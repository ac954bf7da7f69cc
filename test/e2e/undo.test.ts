/**
 * `/resolve undo <reason>` through GitHub: the revert of resolve-bot's newest commit is previewed
 * as a new pending action (its check run, the gate), applied as one more commit whose tree is the
 * tree before the edit, and refused with the files named when later commits changed the same lines.
 * Real server, signed webhooks, the emulator's git repositories.
 */
import { comment, deliver, latestReply, lineComment, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/undo";
const BASE_FILES = {
  "README.md": "# undo\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
};
const EDIT = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src";
const LABEL = "AST Edit: 2 replacements in 2 files";
const NEXT = "Next: `/resolve apply <reason>` or `/resolve discard <reason>`.";

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "undo", BASE_FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

async function openPr(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

/** Previews the edit and applies it; returns the commit it made. */
async function applyEdit(number: number, branch: string): Promise<string> {
  await comment(bot, REPO, number, "alice", EDIT);
  const applied = await comment(bot, REPO, number, "alice", "/resolve apply use the logger");
  expect(applied.done).toBe("rocket");
  return (await bot.gh.branchSha(REPO, branch))!;
}

function actionRuns(sha: string) {
  return runsOn(bot, REPO, sha)
    .filter((run) => run.name.startsWith("resolve-bot: "))
    .map((run) => [run.name, run.status, run.conclusion]);
}

test("preview → apply → /resolve undo previews git's revert as a pending action → apply restores the tree before the edit", async () => {
  const pr = await openPr("feature-undo");
  const treeBefore = (await bot.gh.commit(REPO, pr.headSha)).tree;
  const edited = await applyEdit(pr.number, "feature-undo");
  const short = edited.slice(0, 7);
  const undoLabel = `Undo: ${LABEL} (${short})`;

  const undo = await comment(bot, REPO, pr.number, "alice", "/resolve undo the logger is not wired up yet");
  expect(undo.done).toBe("rocket");
  const [undoRun] = runsOn(bot, REPO, edited).filter((run) => run.name === `resolve-bot: ${undoLabel}`);
  expect(undoRun).toBeDefined();
  expect(undo.reply).toBe(
    [
      `**${undoLabel}** — pending, nothing written yet · [check run](${undoRun!.htmlUrl})`,
      `Reverts ${short} as \`git revert\` would, onto the head (${short}). Reason: the logger is not wired up yet`,
      "```diff",
      "diff --git a/src/log.ts b/src/log.ts",
      "--- a/src/log.ts",
      "+++ b/src/log.ts",
      "@@ -1,4 +1,4 @@",
      " export function run(x: number) {",
      '-  logger.debug("run", x);',
      '+  console.log("run", x);',
      "   return x;",
      " }",
      "diff --git a/src/main.ts b/src/main.ts",
      "--- a/src/main.ts",
      "+++ b/src/main.ts",
      "@@ -1,3 +1,3 @@",
      ' import { run } from "./log";',
      " ",
      "-logger.debug(run(1));",
      "+console.log(run(1));",
      "```",
      "",
      "---",
      NEXT,
    ]
      .join("\n")
      .replace("yet\n```", "yet\n\n```")
      .replace(")\nReverts", ")\n\nReverts"),
  );
  expect([undoRun!.status, undoRun!.output.title]).toEqual(["in_progress", undoLabel]);
  const gate = runsOn(bot, REPO, edited).find((run) => run.name === "resolve-bot")!;
  expect([gate.conclusion, gate.output.title]).toEqual(["action_required", `Pending: ${undoLabel}`]);
  expect(await bot.gh.branchSha(REPO, "feature-undo")).toBe(edited); // the preview wrote nothing

  const reverted = await comment(bot, REPO, pr.number, "alice", "/resolve apply back out");
  expect(reverted.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-undo"))!;
  expect(reverted.reply).toBe(
    `Reverted ${short} (${LABEL}).\n\nCommit [${head.slice(0, 7)}](${bot.gh.url}/acme/undo/commit/${head}) · Reason: back out`,
  );
  const commit = await bot.gh.commit(REPO, head);
  expect(commit.parents).toEqual([edited]);
  expect(commit.tree).toBe(treeBefore);
  expect(commit.verified).toBe(true);
  expect(commit.message).toMatch(
    new RegExp(
      `^Undo: ${LABEL} \\(${short}\\)\\n\\nback out\\n\\nUndo asked for: the logger is not wired up yet\\n\\nResolve-Action: [0-9a-f-]{36}\\nResolve-Request: [0-9a-f-]+#0\\nCo-authored-by: alice `,
    ),
  );
  expect(actionRuns(pr.headSha)).toEqual([[`resolve-bot: ${LABEL}`, "completed", "success"]]);
  expect(actionRuns(edited)).toEqual([[`resolve-bot: ${undoLabel}`, "completed", "success"]]);
  const newGate = runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot")!;
  expect([newGate.conclusion, newGate.output.title]).toEqual(["success", "No pending edits"]);

  // The revert is resolve-bot's own commit: undoing it previews the edit again.
  const again = await comment(bot, REPO, pr.number, "alice", "/resolve undo wired up after all");
  expect(again.reply.split("\n")[0]).toMatch(new RegExp(`^\\*\\*Redo: ${LABEL} \\(${head.slice(0, 7)}\\)\\*\\* — pending,`));
  expect(again.reply).toContain('-  console.log("run", x);\n+  logger.debug("run", x);');
});

test("a later commit on the same lines: the undo does not apply cleanly, names the file, and pushes nothing", async () => {
  const pr = await openPr("feature-conflict");
  const edited = await applyEdit(pr.number, "feature-conflict");
  const human = await bot.gh.pushCommit(REPO, "feature-conflict", {
    files: { "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x, "twice");\n  return x;\n}\n' },
    author: "alice",
  });

  const undo = await comment(bot, REPO, pr.number, "alice", "/resolve undo not wanted");
  expect(undo.done).toBe("confused");
  const short = edited.slice(0, 7);
  expect(undo.reply).toBe(
    `Undo of ${short} (${LABEL}) does not apply cleanly: later commits changed the same lines in src/log.ts. Nothing was pushed; to undo it anyway, revert it by hand (\`git revert ${short}\`) and resolve the conflicts.`,
  );
  expect(actionRuns(human)).toEqual([]);
  expect(await bot.gh.branchSha(REPO, "feature-conflict")).toBe(human);
});

test("no commit of resolve-bot's: a clear reply; from a line comment, the answer goes into the review thread", async () => {
  const pr = await openPr("feature-nothing");
  const nothing = await comment(bot, REPO, pr.number, "alice", "/resolve undo anything");
  expect([nothing.done, nothing.reply]).toEqual(["confused", "Nothing to undo: resolve-bot has applied no commit on this pull request."]);
  expect(actionRuns(pr.headSha)).toEqual([]);

  const edited = await applyEdit(pr.number, "feature-nothing");
  const conversation = bot.gh.comments(REPO, pr.number).length;
  const inThread = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/resolve undo from the diff",
    path: "docs/x.md",
    line: 1,
  });
  expect(inThread.done).toBe("rocket");
  expect(inThread.reply).toMatch(new RegExp(`^\\*\\*Undo: ${LABEL} \\(${edited.slice(0, 7)}\\)\\*\\* — pending, nothing written yet`));
  expect(actionRuns(edited)).toEqual([[`resolve-bot: Undo: ${LABEL} (${edited.slice(0, 7)})`, "in_progress", null]]);
  expect(bot.gh.comments(REPO, pr.number)).toHaveLength(conversation); // answered in the thread only
});

test("pushes: a pending undo is previewed again on a reviewer's commit; the revert's own push is recognised as resolve-bot's apply", async () => {
  const pr = await openPr("feature-push");
  const edited = await applyEdit(pr.number, "feature-push");
  const short = edited.slice(0, 7);
  const undoLabel = `Undo: ${LABEL} (${short})`;
  await comment(bot, REPO, pr.number, "alice", "/rename-symbol run execute");
  await comment(bot, REPO, pr.number, "alice", "/resolve undo not yet");

  // A reviewer's commit elsewhere: the undo is reverted again on the new head, unchanged.
  const human = await bot.gh.pushCommit(REPO, "feature-push", { files: { "docs/more.md": "more\n" }, author: "alice" });
  await deliver(
    bot,
    await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: edited, after: human }),
  );
  const resynced = await waitFor("the resync reply", () => {
    const reply = latestReply(bot, REPO, pr.number);
    return reply.startsWith("New commits were pushed") ? reply : undefined;
  });
  expect(resynced.split("\n\n---\n")[0]).toBe(
    `New commits were pushed (${short} → ${human.slice(0, 7)}), so the pending edits were previewed again:\n- Rename Symbol: run → execute (3 references in 2 files): the preview is unchanged.\n- ${undoLabel}: the preview is unchanged.`,
  );
  expect(actionRuns(human)).toEqual([
    ["resolve-bot: Rename Symbol: run → execute (3 references in 2 files)", "in_progress", null],
    [`resolve-bot: ${undoLabel}`, "in_progress", null],
  ]);

  const reverted = await comment(bot, REPO, pr.number, "alice", "/resolve apply back out");
  expect(reverted.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-push"))!;
  expect(await bot.gh.filesAt(REPO, head)).toEqual({ ...BASE_FILES, "docs/x.md": "feature-push\n", "docs/more.md": "more\n" });

  // GitHub's push of the revert: the store sees its Resolve-Action trailer and previews nothing again.
  const replies = bot.gh.comments(REPO, pr.number).length;
  await deliver(
    bot,
    await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: human, after: head }),
  );
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending"); // the same PR's queue: after the push's job
  expect(pending.reply.split("\n\n---\n")[0]).toBe(
    "1 pending, newest first (the first is resolved next):\n1. Rename Symbol: run → execute (3 references in 2 files) (#1, `/rename-symbol` by alice)",
  );
  expect(
    bot.gh
      .comments(REPO, pr.number)
      .slice(replies)
      .filter((entry) => entry.user === bot.gh.botLogin),
  ).toHaveLength(1);
  expect(actionRuns(head)).toEqual([["resolve-bot: Rename Symbol: run → execute (3 references in 2 files)", "in_progress", null]]);
  expect(actionRuns(human)).toEqual([
    ["resolve-bot: Rename Symbol: run → execute (3 references in 2 files)", "completed", "neutral"],
    [`resolve-bot: ${undoLabel}`, "completed", "success"],
  ]);
});
