/**
 * The main loop through GitHub: preview → pending check run + gate → /resolve apply → one
 * verified commit, all through the real server and a stateful emulator.
 */
import { comment, latestReply, lineComment, runsOn, useBot, waitFor, deliver, type Bot } from "./harness.js";

const REPO = "acme/widgets";
const BASE_FILES = {
  "README.md": "# widgets\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
};

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "widgets", BASE_FILES);
  bot.gh.setPermission(REPO, "alice", "write");
  bot.gh.setPermission(REPO, "rita", "read");
});

async function openPr(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

test("/ast-edit previews; /resolve apply commits exactly the preview as one verified commit", async () => {
  const pr = await openPr("feature-apply");
  const previewed = await comment(
    bot,
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src",
  );
  expect(previewed.done).toBe("rocket");
  expect(bot.gh.reactions(previewed.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);

  const runs = runsOn(bot, REPO, pr.headSha);
  const action = runs.filter((run) => run.name.startsWith("resolve-bot: "));
  expect(action.map((run) => [run.name, run.status, run.output.title])).toEqual([
    ["resolve-bot: AST Edit: 2 replacements in 2 files", "in_progress", "AST Edit: 2 replacements in 2 files"],
  ]);
  expect(action[0]!.output.text).toContain('-  console.log("run", x);\n+  logger.debug("run", x);');
  expect(action[0]!.output.summary).toContain("`/resolve apply <reason>` or `/resolve discard <reason>`");
  expect(action[0]!.annotations.map((annotation) => [annotation.path, annotation.start_line])).toEqual([
    ["src/log.ts", 1],
    ["src/main.ts", 1],
  ]);
  const gate = runs.find((run) => run.name === "resolve-bot")!;
  expect([gate.status, gate.conclusion, gate.output.title]).toEqual([
    "completed",
    "action_required",
    "Pending: AST Edit: 2 replacements in 2 files",
  ]);
  expect(gate.actions.map((button) => [button.label, button.identifier])).toEqual([
    ["Apply newest", "apply"],
    ["Discard newest", "discard"],
  ]);
  expect(action[0]!.htmlUrl).toBe(`${bot.gh.url}/acme/widgets/runs/${action[0]!.id}`);
  expect(previewed.reply).toContain(
    `**AST Edit: 2 replacements in 2 files** — pending, nothing written yet · [check run](${action[0]!.htmlUrl})`,
  );
  expect(previewed.reply).toContain("```diff\ndiff --git a/src/log.ts b/src/log.ts");
  expect(previewed.reply).toMatch(/---\nNext: `\/resolve apply <reason>` or `\/resolve discard <reason>`\.$/);
  // The preview wrote nothing to the repository.
  expect(await bot.gh.branchSha(REPO, "feature-apply")).toBe(pr.headSha);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply use the structured logger");
  expect(applied.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-apply"))!;
  const commit = await bot.gh.commit(REPO, head);
  expect(commit.parents).toEqual([pr.headSha]);
  expect(commit.verified).toBe(true);
  expect(commit.message).toMatch(
    /^AST Edit: 2 replacements in 2 files\n\nuse the structured logger\n\nResolve-Action: [0-9a-f-]{36}\nResolve-Request: [0-9a-f-]+#0\nCo-authored-by: alice <\d+\+alice@users\.noreply\.127\.0\.0\.1>\n?$/,
  );
  expect(await bot.gh.filesAt(REPO, head)).toEqual({
    ...BASE_FILES,
    "docs/x.md": "feature-apply\n",
    "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n',
    "src/main.ts": 'import { run } from "./log";\n\nlogger.debug(run(1));\n',
  });
  const done = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot: AST Edit: 2 replacements in 2 files")!;
  expect([done.status, done.conclusion]).toEqual(["completed", "success"]);
  expect(done.output.summary).toContain(`Applied in [${head.slice(0, 7)}]`);
  expect(done.output.summary).toContain("Reason: use the structured logger");
  const newGate = runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot")!;
  expect([newGate.conclusion, newGate.output.title]).toEqual(["success", "No pending edits"]);
  expect(applied.reply).toBe(
    `Applied 2 replacements in 2 files.\n\nCommit [${head.slice(0, 7)}](${bot.gh.url}/acme/widgets/commit/${head}) · Reason: use the structured logger`,
  );
});

test("every preview reply links each action's check run, at the html_url GitHub gave the run: in the conversation and in a thread", async () => {
  const pr = await openPr("feature-links");
  const statusLines = (reply: string) => reply.split("\n").filter((line) => line.includes("nothing written yet"));
  const runUrl = (label: string) => {
    const runs = runsOn(bot, REPO, pr.headSha).filter((run) => run.name === `resolve-bot: ${label}`);
    expect(runs).toHaveLength(1);
    return runs[0]!.htmlUrl;
  };
  const two = await comment(
    bot,
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src/log.ts\n/rename-symbol run execute",
  );
  expect(two.done).toBe("rocket");
  const edit = "AST Edit: 1 replacement in 1 file";
  const rename = "Rename Symbol: run → execute (3 references in 2 files)";
  expect(statusLines(two.reply)).toEqual([
    // Numbered as /pending numbers the stack: newest first.
    `**${edit}** — pending (2 of 2, newest first), nothing written yet · [check run](${runUrl(edit)})`,
    `**${rename}** — pending (1 of 2, newest first), nothing written yet · [check run](${runUrl(rename)})`,
  ]);
  expect(runUrl(edit)).toMatch(new RegExp(`^${bot.gh.url}/acme/widgets/runs/\\d+$`));

  const inThread = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' src/main.ts",
    path: "docs/x.md",
    line: 1,
  });
  expect(inThread.done).toBe("rocket");
  const info = "AST Edit: 1 replacement in 1 file (#3)";
  const infoRun = runsOn(bot, REPO, pr.headSha).find((run) => run.name === `resolve-bot: ${info}`)!;
  expect(statusLines(inThread.reply)).toEqual([
    // The run's name keeps the action's id (#3: a second run of the same label); the reply says where it stands.
    `**AST Edit: 1 replacement in 1 file** — pending (1 of 3, newest first), nothing written yet · [check run](${infoRun.htmlUrl})`,
  ]);
});

test("nothing pending and discard use the spec's messages verbatim", async () => {
  const pr = await openPr("feature-discard");
  const nothing = await comment(bot, REPO, pr.number, "alice", "/resolve apply anything");
  expect([nothing.done, nothing.reply]).toEqual(["confused", "No pending action to resolve. Nothing to apply or discard."]);
  await comment(bot, REPO, pr.number, "alice", "/rename-symbol run execute");
  const discarded = await comment(bot, REPO, pr.number, "alice", "/resolve discard not needed");
  expect(discarded.reply).toBe("Discarded: Rename Symbol: run → execute (3 references in 2 files). Reason: not needed");
  const run = runsOn(bot, REPO, pr.headSha).find((candidate) => candidate.name.startsWith("resolve-bot: Rename Symbol"))!;
  expect([run.status, run.conclusion]).toEqual(["completed", "cancelled"]);
  expect(await bot.gh.branchSha(REPO, "feature-discard")).toBe(pr.headSha);
});

test("two previews: discard pops the second; the first stays pending and moves to the new head after a push", async () => {
  const pr = await openPr("feature-lifo");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/log.ts");
  await comment(bot, REPO, pr.number, "alice", "/move src/main.ts src/app/main.ts");
  const discarded = await comment(bot, REPO, pr.number, "alice", "/resolve discard x");
  expect(discarded.reply.split("\n")[0]).toBe("Discarded: Move: 1 file (1 import updated). Reason: x");
  expect(discarded.reply).toMatch(/Pending: AST Edit: 1 replacement in 1 file\. Resolve it with/);

  const pushed = await bot.gh.pushCommit(REPO, "feature-lifo", { files: { "docs/more.md": "more\n" }, author: "alice" });
  const sync = await bot.gh.webhooks.pullRequest({
    repo: REPO,
    number: pr.number,
    action: "synchronize",
    before: pr.headSha,
    after: pushed,
  });
  expect(await deliver(bot, sync)).toBeLessThan(300);
  await waitFor("the resync reply", () => latestReply(bot, REPO, pr.number).startsWith("New commits were pushed") || undefined);
  expect(latestReply(bot, REPO, pr.number)).toContain("- AST Edit: 1 replacement in 1 file: the preview");
  const moved = runsOn(bot, REPO, pushed).find((run) => run.name === "resolve-bot: AST Edit: 1 replacement in 1 file")!;
  expect(moved.status).toBe("in_progress");
  expect(moved.output.summary).toContain(
    `Previewed again on ${pushed.slice(0, 7)} after new commits (was ${pr.headSha.slice(0, 7)}): the preview`,
  );
  const old = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot: AST Edit: 1 replacement in 1 file")!;
  expect([old.status, old.conclusion]).toEqual(["completed", "neutral"]);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply go");
  expect(applied.reply.split("\n")[0]).toBe("Applied 1 replacement in 1 file.");
  const head = (await bot.gh.branchSha(REPO, "feature-lifo"))!;
  expect((await bot.gh.commit(REPO, head)).parents).toEqual([pushed]);
});

test("a push that leaves nothing to change closes the pending action as neutral", async () => {
  const pr = await openPr("feature-gone");
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/log.ts");
  const pushed = await bot.gh.pushCommit(REPO, "feature-gone", {
    files: { "src/log.ts": "export function run(x: number) {\n  return x;\n}\n" },
    author: "alice",
  });
  await deliver(
    bot,
    await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: pr.headSha, after: pushed }),
  );
  await waitFor("the resync reply", () => latestReply(bot, REPO, pr.number).startsWith("New commits were pushed") || undefined);
  expect(latestReply(bot, REPO, pr.number)).toBe(
    `New commits were pushed (${pr.headSha.slice(0, 7)} → ${pushed.slice(0, 7)}), so the pending edits were previewed again:\n- AST Edit: 1 replacement in 1 file: closed, nothing left to change (the tool no longer proposes this change; it says: No replacements made).`,
  );
  const old = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot: AST Edit: 1 replacement in 1 file")!;
  expect([old.status, old.conclusion, old.output.title]).toEqual(["completed", "neutral", "Closed: AST Edit: 1 replacement in 1 file"]);
  const gate = runsOn(bot, REPO, pushed).find((run) => run.name === "resolve-bot")!;
  expect([gate.conclusion, gate.output.title]).toEqual(["success", "No pending edits"]);
});

test("a newly opened pull request gets a passing gate check, for branch protection", async () => {
  const pr = await openPr("feature-opened");
  await deliver(bot, await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "opened" }));
  const gate = await waitFor("the gate", () => runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot"));
  expect([gate.status, gate.conclusion, gate.output.title]).toEqual(["completed", "success", "No pending edits"]);
});
