/**
 * resolve-bot as a GitHub Action: the bundled action (dist/action/index.js) run as a runner runs
 * it, one process per event, with the workflow's GITHUB_TOKEN (GitHub Actions' identity in the
 * emulator) — the same replies, check runs and commits as the server's, no buttons on the gate.
 */
import { actionReplies, commentAndRun, useActionRunner, type ActionRunner } from "./action-harness.js";

const REPO = "acme/widgets";
const BASE_FILES = {
  "README.md": "# widgets\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
};
const PREVIEW = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src";
/** An edit of src/log.ts alone: one replacement in one file. */
const LOG_EDIT = "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/log.ts";

const runner = useActionRunner(async ({ gh }) => {
  await gh.createRepo("acme", "widgets", BASE_FILES);
  gh.setPermission(REPO, "alice", "write");
  gh.setPermission(REPO, "rita", "read");
});

async function openPr({ gh }: ActionRunner, head: string) {
  return gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

/** An AST edit of src/log.ts, then a rename on top of it: two pending edits. */
async function twoPreviews(number: number): Promise<void> {
  await commentAndRun(runner(), REPO, number, "alice", LOG_EDIT);
  await commentAndRun(runner(), REPO, number, "alice", "/rename-symbol run execute");
}

function actionRuns({ gh }: ActionRunner, sha: string) {
  return gh.checkRuns(REPO, { headSha: sha });
}

test("a preview, then /resolve apply: one verified commit with the trailers, made as github-actions[bot]; the gate has no buttons", async () => {
  const pr = await openPr(runner(), "action-apply");
  const previewed = await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW);
  expect([previewed.code, previewed.reactions]).toEqual([0, ["eyes", "rocket"]]);
  expect(previewed.reply).toContain("**AST Edit: 2 replacements in 2 files** — pending, nothing written yet");
  expect(previewed.reply).toMatch(/---\nNext: `\/resolve apply <reason>` or `\/resolve discard <reason>`\.$/);
  const runs = actionRuns(runner(), pr.headSha);
  expect(runs.map((run) => [run.name, run.status, run.appId])).toEqual([
    ["resolve-bot: AST Edit: 2 replacements in 2 files", "in_progress", runner().gh.actionsAppId],
    ["resolve-bot", "completed", runner().gh.actionsAppId],
  ]);
  const gate = runs.find((run) => run.name === "resolve-bot")!;
  expect([gate.conclusion, gate.output.title, gate.actions]).toEqual([
    "action_required",
    "Pending: AST Edit: 2 replacements in 2 files",
    [],
  ]);
  expect(await runner().gh.branchSha(REPO, "action-apply")).toBe(pr.headSha);
  expect(previewed.summary).toContain("**AST Edit: 2 replacements in 2 files** — pending, nothing written yet");

  const applied = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply use the structured logger", { runId: "4242" });
  expect(applied.code).toBe(0);
  const head = (await runner().gh.branchSha(REPO, "action-apply"))!;
  const commit = await runner().gh.commit(REPO, head);
  expect(commit.parents).toEqual([pr.headSha]);
  expect(commit.verified).toBe(true);
  expect(commit.author.name).toBe("github-actions[bot]");
  expect(commit.message).toMatch(
    /^AST Edit: 2 replacements in 2 files\n\nuse the structured logger\n\nResolve-Action: [0-9a-f-]{36}\nResolve-Request: 4242#0\nCo-authored-by: alice <\d+\+alice@users\.noreply\.127\.0\.0\.1>\n?$/,
  );
  expect(await runner().gh.filesAt(REPO, head)).toEqual({
    ...BASE_FILES,
    "docs/x.md": "action-apply\n",
    "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n',
    "src/main.ts": 'import { run } from "./log";\n\nlogger.debug(run(1));\n',
  });
  expect(applied.reply).toBe(
    `Applied 2 replacements in 2 files.\n\nCommit [${head.slice(0, 7)}](${runner().gh.url}/acme/widgets/commit/${head}) · Reason: use the structured logger`,
  );
  const done = actionRuns(runner(), pr.headSha).find((run) => run.name.startsWith("resolve-bot: "))!;
  expect([done.status, done.conclusion]).toEqual(["completed", "success"]);
  const newGate = actionRuns(runner(), head).find((run) => run.name === "resolve-bot")!;
  expect([newGate.conclusion, newGate.output.title]).toEqual(["success", "No pending edits"]);
});

test("the workflow job's own run, owned by GitHub Actions too and even named like the gate, is not taken for the gate", async () => {
  const { gh } = runner();
  const pr = await openPr(runner(), "action-job-run");
  const job = gh.addCheckRun(REPO, {
    headSha: pr.headSha,
    name: "resolve-bot",
    status: "in_progress",
    appId: gh.actionsAppId,
    externalId: "b6f1c3b0-6a0e-5b7e-9e0c-2d0f1f4c1f7a",
  });
  const previewed = await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW);
  expect(previewed.code).toBe(0);
  const named = actionRuns(runner(), pr.headSha).filter((run) => run.name === "resolve-bot");
  expect(named.map((run) => [run.id === job, run.status, run.conclusion, run.output.title])).toEqual([
    [true, "in_progress", null, null],
    [false, "completed", "action_required", "Pending: AST Edit: 2 replacements in 2 files"],
  ]);
});

test("the early status works as on the server: said first, then the reply with how long it took, then struck through", async () => {
  const { gh } = runner();
  const pr = await openPr(runner(), "action-status");
  const run = await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW, { env: { RESOLVE_BOT_STATUS_AFTER_SECONDS: "0" } });
  expect(run.code).toBe(0);
  const comments = actionReplies(gh, REPO, pr.number).map((body) => body.replace(/\n\n<!-- resolve-bot:working:\S+ -->$/, ""));
  expect(comments).toHaveLength(2);
  expect(comments[0]).toBe("~~Working on `/ast-edit` (4 files)…~~ Finished: the reply is below.");
  expect(comments[1]).toMatch(
    /^\*\*AST Edit: 2 replacements in 2 files\*\* — pending, nothing written yet[^]*\n\n<sub>Took [\d.]+ s\.<\/sub>$/,
  );
});

test("LIFO: /resolve discard pops the newest preview; the older one stays pending and /resolve apply commits it", async () => {
  const pr = await openPr(runner(), "action-lifo");
  await twoPreviews(pr.number);
  const discarded = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve discard not now");
  expect([discarded.code, discarded.reactions]).toEqual([0, ["eyes", "rocket"]]);
  expect(discarded.reply.split("\n")[0]).toBe("Discarded: Rename Symbol: run → execute (3 references in 2 files). Reason: not now");
  expect(discarded.reply).toMatch(/Pending: AST Edit: 1 replacement in 1 file\. Resolve it with/);
  const renamed = actionRuns(runner(), pr.headSha).find((run) => run.name.startsWith("resolve-bot: Rename Symbol"))!;
  expect([renamed.status, renamed.conclusion]).toEqual(["completed", "cancelled"]);
  expect(await runner().gh.branchSha(REPO, "action-lifo")).toBe(pr.headSha);

  const applied = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply go");
  expect(applied.reply.split("\n")[0]).toBe("Applied 1 replacement in 1 file.");
  const head = (await runner().gh.branchSha(REPO, "action-lifo"))!;
  expect((await runner().gh.commit(REPO, head)).parents).toEqual([pr.headSha]);
  expect(await runner().gh.fileAt(REPO, head, "src/log.ts")).toBe(BASE_FILES["src/log.ts"].replace("console.log", "logger.info"));
});

test("a re-run of the workflow run (same GITHUB_RUN_ID, attempt 2) applies once: the next pending edit is not popped, the reply not repeated", async () => {
  const pr = await openPr(runner(), "action-rerun");
  await twoPreviews(pr.number);
  const event = runner().gh.webhooks.issueComment({ repo: REPO, number: pr.number, user: "alice", body: "/resolve apply rename" });
  const first = await runner().run(event, { runId: "5151", attempt: 1 });
  expect(first.code).toBe(0);
  const applied = (await runner().gh.branchSha(REPO, "action-rerun"))!;
  expect((await runner().gh.commit(REPO, applied)).message).toMatch(/^Rename Symbol: run → execute[^]*\nResolve-Request: 5151#0\n/);
  const repliesAfterFirst = actionReplies(runner().gh, REPO, pr.number);

  const again = await runner().run(event, { runId: "5151", attempt: 2 });
  expect(again.code).toBe(0);
  expect(await runner().gh.branchSha(REPO, "action-rerun")).toBe(applied);
  expect(actionReplies(runner().gh, REPO, pr.number)).toEqual(repliesAfterFirst);
  const pending = actionRuns(runner(), applied).filter((run) => run.name.startsWith("resolve-bot: ") && run.status !== "completed");
  expect(pending.map((run) => run.name)).toEqual(["resolve-bot: AST Edit: 1 replacement in 1 file"]);
  expect(
    runner()
      .gh.reactions(event.commentId)
      .map((reaction) => reaction.content),
  ).toEqual(["eyes", "rocket"]);
});

test("two /resolve apply runs at once (workflow runs are not serialised): the one that loses the race runs again and pops the next edit", async () => {
  const { gh } = runner();
  const pr = await openPr(runner(), "action-race");
  await commentAndRun(runner(), REPO, pr.number, "alice", LOG_EDIT);
  await commentAndRun(
    runner(),
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.warn($$$A)' --paths src/main.ts",
  );
  const first = gh.webhooks.issueComment({ repo: REPO, number: pr.number, user: "alice", body: "/resolve apply one" });
  const second = gh.webhooks.issueComment({ repo: REPO, number: pr.number, user: "alice", body: "/resolve apply two" });
  // The first run has popped the newest edit and made its commit; before its ref update lands, the
  // second run does the whole of its apply (the same edit: it was still the newest).
  let secondRun: ReturnType<ActionRunner["run"]> | undefined;
  gh.onceBefore("PATCH /repos/:o/:r/git/refs/*", async () => {
    secondRun = runner().run(second);
    await secondRun;
  });
  const firstRun = await runner().run(first);
  expect([firstRun.code, (await secondRun!).code]).toEqual([0, 0]);
  expect(firstRun.output).toContain(
    "resolve-bot will try the job again in 1 s (attempt 1 of 3 failed: another resolve-bot request applied an edit to action-race first",
  );

  const head = (await gh.branchSha(REPO, "action-race"))!;
  const subjects = await gh.runGit(REPO, ["log", "--format=%s", `${pr.headSha}..${head}`]);
  expect(subjects.split("\n").filter(Boolean)).toEqual(["AST Edit: 1 replacement in 1 file", "AST Edit: 1 replacement in 1 file"]);
  expect(await gh.fileAt(REPO, head, "src/log.ts")).toBe(BASE_FILES["src/log.ts"].replace("console.log", "logger.info"));
  expect(await gh.fileAt(REPO, head, "src/main.ts")).toBe(BASE_FILES["src/main.ts"].replace("console.log", "logger.warn"));
  const [two, one] = actionReplies(gh, REPO, pr.number).slice(-2);
  expect(two).toMatch(
    /^Applied 1 replacement in 1 file\.\n\nCommit \[[0-9a-f]{7}\]\([^)]+\) · Reason: two\n\n---\nPending: AST Edit: 1 replacement in 1 file\./,
  );
  expect(one).toBe(`Applied 1 replacement in 1 file.\n\nCommit [${head.slice(0, 7)}](${gh.url}/acme/widgets/commit/${head}) · Reason: one`);
  expect(actionRuns(runner(), head).filter((run) => run.name.startsWith("resolve-bot: ") && run.status !== "completed")).toEqual([]);
  expect(actionRuns(runner(), head).find((run) => run.name === "resolve-bot")?.conclusion).toBe("success");
  expect(gh.reactions(first.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
});

test("a push (pull_request.synchronize) previews the pending edit again on the new head, as the server does", async () => {
  const { gh } = runner();
  const pr = await openPr(runner(), "action-push");
  await commentAndRun(runner(), REPO, pr.number, "alice", LOG_EDIT);
  const pushed = await gh.pushCommit(REPO, "action-push", { files: { "docs/more.md": "more\n" }, author: "alice" });
  const sync = await gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: pr.headSha, after: pushed });
  expect((await runner().run(sync)).code).toBe(0);
  expect(actionReplies(gh, REPO, pr.number).at(-1)).toMatch(
    new RegExp(
      `^New commits were pushed \\(${pr.headSha.slice(0, 7)} → ${pushed.slice(0, 7)}\\), so the pending edits were previewed again:\n- AST Edit: 1 replacement in 1 file: the preview`,
    ),
  );
  const moved = actionRuns(runner(), pushed).find((run) => run.name === "resolve-bot: AST Edit: 1 replacement in 1 file")!;
  expect(moved.status).toBe("in_progress");
  const gate = actionRuns(runner(), pushed).find((run) => run.name === "resolve-bot")!;
  expect([gate.conclusion, gate.actions]).toEqual(["action_required", []]);
});

test("a line comment runs on its lines and is answered in its thread; /resolve apply in the thread commits it", async () => {
  const { gh } = runner();
  const pr = await gh.createPullRequest({
    repo: REPO,
    head: "action-line",
    user: "alice",
    commits: [{ files: { "src/util.ts": 'export function f() {\n  console.log("a");\n  console.log("b");\n}\n' } }],
  });
  const body = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
  const preview = await gh.webhooks.reviewComment({ repo: REPO, number: pr.number, user: "alice", body, path: "src/util.ts", line: 3 });
  expect((await runner().run(preview)).code).toBe(0);
  const threadOf = (id: number) => gh.lineComments(REPO, pr.number).filter((comment) => comment.inReplyTo === id);
  const previewReply = threadOf(preview.commentId).at(-1)!;
  expect(previewReply.user).toBe(gh.actionsBotLogin);
  expect(previewReply.body).toContain("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet");
  expect(previewReply.body).toContain("Only matches overlapping line 3 of src/util.ts were kept.");
  expect(gh.reactions(preview.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
  expect(actionReplies(gh, REPO, pr.number)).toEqual([]);

  const apply = await gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/resolve apply b only",
    inReplyTo: preview.commentId,
  });
  expect((await runner().run(apply)).code).toBe(0);
  expect(threadOf(preview.commentId).at(-1)!.body).toMatch(
    /^Applied 1 replacement in 1 file\.\n\nCommit \[[0-9a-f]{7}\]\(\S+\) · Reason: b only/,
  );
  expect(await gh.fileAt(REPO, "action-line", "src/util.ts")).toBe('export function f() {\n  console.log("a");\n  logger.debug("b");\n}\n');
});

test("/resolve undo previews the revert of the applied edit; applying it restores the tree", async () => {
  const pr = await openPr(runner(), "action-undo");
  const treeBefore = (await runner().gh.commit(REPO, pr.headSha)).tree;
  await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW);
  await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply edit");
  const edited = (await runner().gh.branchSha(REPO, "action-undo"))!;
  const undo = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve undo not wired up yet");
  const undoRun = actionRuns(runner(), edited).find((run) => run.name.startsWith("resolve-bot: Undo"))!;
  expect(undo.reply.split("\n")[0]).toBe(
    `**Undo: AST Edit: 2 replacements in 2 files (${edited.slice(0, 7)})** — pending, nothing written yet · [check run](${runner().gh.url}/acme/widgets/runs/${undoRun.id})`,
  );
  const reverted = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply back out");
  const head = (await runner().gh.branchSha(REPO, "action-undo"))!;
  expect(reverted.reply.split("\n")[0]).toBe(`Reverted ${edited.slice(0, 7)} (AST Edit: 2 replacements in 2 files).`);
  const commit = await runner().gh.commit(REPO, head);
  expect([commit.parents, commit.tree]).toEqual([[edited], treeBefore]);
});

test("a read-only commenter is refused with the server's reply, and nothing is written but the reply and reactions", async () => {
  const pr = await openPr(runner(), "action-readonly");
  runner().gh.clearLog();
  const refused = await commentAndRun(runner(), REPO, pr.number, "rita", PREVIEW);
  expect([refused.code, refused.reactions]).toEqual([0, ["eyes", "confused"]]);
  expect(refused.reply).toBe("Sorry, `/ast-edit` needs write permission on this repository, and rita has read. Nothing was changed.");
  expect(actionRuns(runner(), pr.headSha)).toEqual([]);
  const writes = runner()
    .gh.writes()
    .filter((entry) => !/\/reactions$/.test(entry.path) && !/\/issues\/\d+\/comments$/.test(entry.path));
  expect(writes).toEqual([]);
});

test("a comment by github-actions[bot] (the Action's own reply quoting a command) is ignored: no API call at all", async () => {
  const pr = await openPr(runner(), "action-bot");
  runner().gh.clearLog();
  const event = runner().gh.webhooks.issueComment({
    repo: REPO,
    number: pr.number,
    user: "github-actions[bot]",
    body: "Next: `/resolve apply <reason>`\n/resolve apply x",
  });
  const run = await runner().run(event);
  expect(run.code).toBe(0);
  expect(run.output).toContain("resolve-bot has nothing to do for issue_comment.created.");
  expect(runner().gh.log()).toEqual([]);
});

test("the workflow's GITHUB_TOKEN in the environment (no `token` input) works the same", async () => {
  const pr = await openPr(runner(), "action-env-token");
  const run = await commentAndRun(runner(), REPO, pr.number, "alice", "/pending", {
    env: { INPUT_TOKEN: undefined, GITHUB_TOKEN: runner().gh.actionsToken() },
  });
  expect([run.code, run.reply]).toEqual([0, "Nothing is pending."]);
});

test("custom tools (RESOLVE_BOT_TOOLS) are refused in the Action before anything is read", async () => {
  const pr = await openPr(runner(), "action-tools");
  runner().gh.clearLog();
  const run = await commentAndRun(runner(), REPO, pr.number, "alice", "/pending", { env: { RESOLVE_BOT_TOOLS: "./tools/mine.mjs" } });
  expect(run.code).toBe(1);
  expect(run.output).toContain("::error::RESOLVE_BOT_TOOLS is not read by the Action");
  expect(runner().gh.log()).toEqual([]);
});

test("a request failing inside resolve-bot gets the apology naming this workflow run's log, linked to its attempt, and exit code 1", async () => {
  const pr = await openPr(runner(), "action-failure");
  // A head not fetched yet: git fails, so does the tarball it falls back to (refusals.test.ts on the server).
  const gitFault = runner().gh.injectFault({ method: "POST", path: "/acme/widgets.git/git-upload-pack", status: 500, times: Infinity });
  const tarballFault = runner().gh.injectFault({ method: "GET", path: "/repos/:o/:r/tarball/*", status: 404, times: Infinity });
  const failed = await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW, { runId: "5150", attempt: 2 });
  gitFault.remove();
  tarballFault.remove();
  expect(gitFault.hits).toBeGreaterThan(0);
  expect(tarballFault.hits).toBe(1);
  const apology =
    `Something went wrong inside resolve-bot; the error is in [this workflow run's log](${runner().gh.url}/acme/widgets/actions/runs/5150/attempts/2). ` +
    "Nothing was committed unless a reply or a check run says so.";
  expect([failed.code, failed.reactions, failed.reply]).toEqual([1, ["eyes", "confused"], apology]);
  expect(failed.output).toContain("resolve-bot failed");
  expect(failed.summary).toBe(`${apology}\n\n`);
  expect(actionRuns(runner(), pr.headSha)).toEqual([]);
});
