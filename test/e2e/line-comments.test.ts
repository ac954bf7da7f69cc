/**
 * Commands where reviewers already are: a review comment on lines of the diff scopes its command
 * to them, and is answered in its review thread with reactions on the comment; a review's body
 * runs its commands like a conversation comment. Real server, signed webhooks, the emulator.
 */
import { OpenApiValidator } from "./emulator/index.js";
import { deliver, latestReply, lineComment, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/lines";
const UTIL = [
  "export function total(price: number, qty: number) {",
  '  console.log("price", price);',
  '  console.log("qty", qty);',
  "  return price * qty;",
  "}",
  'export const CURRENCY = "EUR";',
  "",
].join("\n");
const USE = 'import { total, CURRENCY } from "./util";\nexport const shown = `${total(1, 2)} ${CURRENCY}`;\n';

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "lines", { "README.md": "# lines\n", "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n' });
  bot.gh.setPermission(REPO, "alice", "write");
  bot.gh.setPermission(REPO, "rita", "read");
});

/** A pull request that adds src/util.ts and src/use.ts: every line of them is in the diff. */
async function openPullRequest(head: string) {
  return bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "src/util.ts": UTIL, "src/use.ts": USE } }] });
}

function botComments(number: number) {
  return bot.gh.comments(REPO, number).filter((comment) => comment.user === bot.gh.botLogin);
}

test("/ast-edit on a line keeps only that line's matches, says so in the thread; /resolve in the thread applies it", async () => {
  const pr = await openPullRequest("ast-line");
  const pattern = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
  const preview = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: pattern, path: "src/util.ts", line: 3 });
  expect(preview.done).toBe("rocket");
  expect(bot.gh.reactions(preview.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
  expect(preview.reply).toContain("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet");
  // Its own paragraph: right after the list, markdown would carry it into the file's item.
  expect(preview.reply).toContain("- src/util.ts: 1 replacement\n\nOnly matches overlapping line 3 of src/util.ts were kept.");
  expect(preview.reply).toContain('-  console.log("qty", qty);\n+  logger.debug("qty", qty);');
  expect(preview.reply).not.toContain('logger.debug("price"');
  // Answered in the thread, not in the conversation.
  expect(botComments(pr.number)).toEqual([]);

  const apply = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/resolve apply only the qty line",
    inReplyTo: preview.commentId,
  });
  expect(apply.done).toBe("rocket");
  expect(apply.reply).toMatch(/^Applied 1 replacement in 1 file\.\n\nCommit \[[0-9a-f]{7}\]\(\S+\) · Reason: only the qty line$/);
  const util = await bot.gh.fileAt(REPO, "ast-line", "src/util.ts");
  expect(util).toBe(UTIL.replace('console.log("qty"', 'logger.debug("qty"'));
  const thread = bot.gh.lineComments(REPO, pr.number).filter((comment) => comment.inReplyTo === preview.commentId);
  expect(thread.map((comment) => comment.user)).toEqual([bot.gh.botLogin, "alice", bot.gh.botLogin]);
});

test("after its own apply outdates a thread, /pending, /resolve undo and /resolve apply still work there; a scoped /ast-edit is refused", async () => {
  const pr = await openPullRequest("thread-after-apply");
  const pattern = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
  const preview = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: pattern, path: "src/util.ts", line: 3 });
  // A thread on line 6, which the apply does not touch: it keeps its line.
  const other = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: "/pending", path: "src/util.ts", line: 6 });
  const reply = (body: string) => lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body, inReplyTo: preview.commentId });
  const lineOf = (id: number) => bot.gh.lineComments(REPO, pr.number).find((comment) => comment.id === id)?.line;
  const conversation = botComments(pr.number).length;

  const applied = await reply("/resolve apply only the qty line");
  expect(applied.done).toBe("rocket");
  const edited = (await bot.gh.branchSha(REPO, "thread-after-apply"))!;
  expect(await bot.gh.fileAt(REPO, edited, "src/util.ts")).toBe(UTIL.replace('console.log("qty"', 'logger.debug("qty"'));

  // The commit changed line 3: GitHub now sends the thread's replies with `line: null` (outdated).
  const pending = await reply("/pending");
  expect(lineOf(pending.commentId)).toBeNull();
  expect([pending.done, pending.reply]).toEqual(["rocket", "Nothing is pending."]);

  const undo = await reply("/resolve undo x");
  expect(undo.done).toBe("rocket");
  const undoLabel = `Undo: AST Edit: 1 replacement in 1 file (${edited.slice(0, 7)})`;
  expect(undo.reply).toMatch(new RegExp(`^\\*\\*${undoLabel.replace(/[()]/g, "\\$&")}\\*\\* — pending, nothing written yet`));
  expect(undo.reply).toContain('-  logger.debug("qty", qty);\n+  console.log("qty", qty);');

  const reverted = await reply("/resolve apply y");
  expect(reverted.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "thread-after-apply"))!;
  expect(reverted.reply).toBe(
    `Reverted ${edited.slice(0, 7)} (AST Edit: 1 replacement in 1 file).\n\nCommit [${head.slice(0, 7)}](${bot.gh.url}/${REPO}/commit/${head}) · Reason: y`,
  );
  expect(await bot.gh.fileAt(REPO, head, "src/util.ts")).toBe(UTIL);

  const scoped = await reply(pattern);
  expect(scoped.done).toBe("confused");
  expect(scoped.reply).toBe(
    "This comment is on a line of src/util.ts that is no longer part of the pull request's diff (it is outdated), so a command on its lines was not run. Comment on the current diff, or in the conversation.",
  );
  expect(runsOn(bot, REPO, head).filter((run) => run.name.startsWith("resolve-bot: ") && run.status !== "completed")).toEqual([]);

  // The untouched thread is not outdated: a command scoped to its line still runs there.
  const renamed = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/rename-symbol CURRENCY_CODE",
    inReplyTo: other.commentId,
  });
  expect(lineOf(renamed.commentId)).toBe(6);
  expect(renamed.done).toBe("rocket");
  expect(renamed.reply).toContain("**Rename Symbol: CURRENCY → CURRENCY_CODE (3 references in 2 files)**");
  // Every answer went into its thread.
  expect(botComments(pr.number)).toHaveLength(conversation);
});

test("a thread reply whose answer is lost (502 after GitHub wrote it) is posted once, not twice", async () => {
  const pr = await openPullRequest("lost-reply");
  const fault = bot.gh.injectFault({
    path: `POST /repos/${REPO}/pulls/${pr.number}/comments/:id/replies`,
    status: 502,
    when: "after",
    times: 1,
  });
  const pending = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: "/pending", path: "src/use.ts", line: 1 });
  expect(fault.hits).toBe(1);
  expect(pending.done).toBe("rocket");
  const thread = bot.gh.lineComments(REPO, pr.number).filter((comment) => comment.inReplyTo === pending.commentId);
  expect(thread.map((comment) => comment.user)).toEqual([bot.gh.botLogin]);
  expect(pending.reply).toBe("Nothing is pending.");
});

test("a range of lines keeps the matches overlapping it; with --paths given, the command is not scoped", async () => {
  const pr = await openPullRequest("ast-range");
  const pattern = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
  const range = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: pattern,
    path: "src/util.ts",
    startLine: 1,
    line: 3,
  });
  expect(range.reply).toContain("**AST Edit: 2 replacements in 1 file**");
  expect(range.reply).toContain("Only matches overlapping lines 1–3 of src/util.ts were kept.");
  const named = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: `${pattern} src`,
    path: "src/util.ts",
    line: 4,
  });
  expect(named.reply).toContain("**AST Edit: 2 replacements in 1 file**");
  expect(named.reply).not.toContain("Only matches overlapping");
});

test("/rename-symbol on a line: <old> <new> renames there; <new> alone needs exactly one name on the line", async () => {
  const pr = await openPullRequest("rename-line");
  const several = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/rename-symbol sum",
    path: "src/util.ts",
    line: 1,
  });
  expect(several.done).toBe("confused");
  expect(several.reply).toContain("Line 1 of src/util.ts has 3 names (total, price, qty); say which: `/rename-symbol <from> <to>`.");

  const named = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/rename-symbol total sum",
    path: "src/util.ts",
    line: 1,
  });
  expect(named.done).toBe("rocket");
  expect(named.reply).toContain("**Rename Symbol: total → sum (3 references in 2 files)**");

  const alone = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/rename-symbol CURRENCY_CODE",
    path: "src/util.ts",
    line: 6,
  });
  expect(alone.done).toBe("rocket");
  expect(alone.reply).toContain("**Rename Symbol: CURRENCY → CURRENCY_CODE (3 references in 2 files)**");
});

test("/move <to> on a line moves that file; /pending and /help answer in the thread", async () => {
  const pr = await openPullRequest("move-line");
  const moved = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/move src/lib/util.ts",
    path: "src/util.ts",
    line: 2,
  });
  expect(moved.done).toBe("rocket");
  expect(moved.reply).toContain("**Move: 1 file (1 import updated)**");
  expect(moved.reply).toContain("src/util.ts → src/lib/util.ts");

  const pending = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: "/pending", path: "src/use.ts", line: 1 });
  expect(pending.reply).toContain("1 pending, newest first (the first is resolved next):\n1. Move: 1 file (1 import updated)");
  const help = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: "/help", path: "src/use.ts", line: 2 });
  expect(help.reply).toContain("**`/ast-edit`**");
  expect(botComments(pr.number)).toEqual([]);
});

test("an outdated comment, a base-side comment and a missing permission are refused in the thread; nothing is pushed", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "refusals",
    user: "alice",
    commits: [{ files: { "README.md": "# lines\n\nmore\n", "src/util.ts": UTIL } }],
  });
  const outdated = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/move src/old.ts",
    path: "src/util.ts",
    line: 2,
    outdated: true,
  });
  expect(outdated.done).toBe("confused");
  expect(outdated.reply).toBe(
    "This comment is on a line of src/util.ts that is no longer part of the pull request's diff (it is outdated), so a command on its lines was not run. Comment on the current diff, or in the conversation.",
  );
  const base = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/move src/old.ts",
    path: "README.md",
    line: 1,
    side: "LEFT",
  });
  expect(base.reply).toMatch(/^This comment is on the old \(base\) side of README\.md;/);
  const denied = await lineComment(bot, {
    repo: REPO,
    number: pr.number,
    user: "rita",
    body: "/move src/x.ts",
    path: "src/util.ts",
    line: 2,
  });
  expect(denied.reply).toBe("Sorry, `/move` needs write permission on this repository, and rita has read. Nothing was changed.");
  expect(bot.gh.checkRuns(REPO, { headSha: pr.headSha }).filter((run) => run.name.startsWith("resolve-bot: "))).toEqual([]);
});

test("a review's body runs its commands in order, answered in the conversation", async () => {
  const pr = await openPullRequest("review-body");
  const event = await bot.gh.webhooks.reviewSubmitted({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "Two things:\n/ast-edit --pat 'console.log($$$A)' src/util.ts --out 'logger.info($$$A)'\n/pending",
    state: "changes_requested",
  });
  expect(await deliver(bot, event)).toBeLessThan(300);
  await waitFor("the review's reply", () => (botComments(pr.number).length > 0 ? true : undefined));
  const reply = latestReply(bot, REPO, pr.number);
  expect(reply.split(/\n\n(?=✅ `\/)/).map((section) => section.split("\n")[0])).toEqual(["✅ `/ast-edit`", "✅ `/pending`"]);
  expect(reply).toContain("**AST Edit: 2 replacements in 1 file**");
});

test("the review events' payloads are what GitHub's description says they are", async () => {
  const pr = await openPullRequest("payloads");
  const validator = OpenApiValidator.shared();
  const comment = await bot.gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "hi",
    path: "src/util.ts",
    line: 2,
  });
  const reply = await bot.gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "re",
    inReplyTo: comment.commentId,
  });
  const outdated = await bot.gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "old",
    path: "src/util.ts",
    line: 2,
    outdated: true,
  });
  const review = await bot.gh.webhooks.reviewSubmitted({ repo: REPO, number: pr.number, user: "alice", body: "ok" });
  expect([
    ...validator.validateWebhook("pull_request_review_comment", "created", comment.payload),
    ...validator.validateWebhook("pull_request_review_comment", "created", reply.payload),
    ...validator.validateWebhook("pull_request_review_comment", "created", outdated.payload),
    ...validator.validateWebhook("pull_request_review", "submitted", review.payload),
  ]).toEqual([]);
  expect(reply.payload.comment).toMatchObject({ in_reply_to_id: comment.commentId, path: "src/util.ts", line: 2 });
  expect(outdated.payload.comment).toMatchObject({ line: null, position: null, original_line: 2 });
  await expect(
    bot.gh.webhooks.reviewComment({ repo: REPO, number: pr.number, user: "alice", body: "x", path: "README.md", line: 1 }),
  ).rejects.toThrow("README.md:1-1 (RIGHT) is not part of the diff");
});
