/**
 * What a long request says while it runs, through the real server (pipeline/cost.ts,
 * forges/github/replies/working-status.ts), with the threshold at 0 (RESOLVE_BOT_STATUS_AFTER_SECONDS) so every
 * command that reads files runs "long": an early status where the reply will go (the conversation,
 * or the review thread of a line comment), then the reply with how long it took, then the status
 * edited so it no longer claims work. A server killed between the status and the reply does not
 * say a second status when its job runs again. The big repository's status: big-repos.test.ts.
 */
import { comment, deliver, lineComment, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/working";
const STATUS = "Working on `/ast-edit` (3 files)…";
const SETTLED = "~~Working on `/ast-edit` (3 files)…~~ Finished: the reply is below.";
const TOOK = /\n\n<sub>Took (\d+ min )?[\d.]+ s\.<\/sub>$/;
const EDIT = "/ast-edit --pat 'console.log($$$A)' --out 'logger.log($$$A)'";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "working", { "src/a.ts": 'console.log("a");\n', "README.md": "# working\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_STATUS_AFTER_SECONDS: "0" },
);

function botComments(number: number): string[] {
  return bot.gh
    .comments(REPO, number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => withoutStatusMarker(withoutMarker(entry.body)));
}

/** A status as people read it: without its hidden marker (the request it belongs to). */
function withoutStatusMarker(body: string): string {
  return body.replace(/\n\n<!-- resolve-bot:working:\S+ -->$/, "");
}

/** What the bot's comments on a PR said just before it edited one of them. */
function beforeTheEdit(pattern: string, read: () => string[]): Promise<string[]> {
  return new Promise((resolve) => bot.gh.onceBefore(pattern, () => resolve(read())));
}

async function openPr(branch: string): Promise<number> {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: branch,
    user: "alice",
    commits: [{ files: { "src/b.ts": 'console.log("b");\n' } }],
  });
  return pr.number;
}

test("in the conversation: the status first, then the reply with how long it took, then the status struck through", async () => {
  const number = await openPr("conversation");
  const edited = beforeTheEdit("PATCH /repos/:o/:r/issues/comments/:id", () => botComments(number));
  const previewed = await comment(bot, REPO, number, "alice", EDIT);
  expect(previewed.done).toBe("rocket");
  const [status, reply] = await edited;
  expect(status).toBe(STATUS);
  expect(reply).toMatch(TOOK);
  expect(reply!.replace(TOOK, "")).toMatch(/^\*\*AST Edit: 2 replacements in 2 files\*\* — pending, nothing written yet/);
  expect(botComments(number)).toEqual([SETTLED, reply]);
  expect(previewed.reply).toBe(reply);
});

test("in a review thread: the status and the reply go into the thread, and the status is edited there", async () => {
  const number = await openPr("thread");
  const threadReplies = () =>
    bot.gh
      .lineComments(REPO, number)
      .filter((entry) => entry.user === bot.gh.botLogin)
      .map((entry) => withoutStatusMarker(withoutMarker(entry.body)));
  const edited = beforeTheEdit("PATCH /repos/:o/:r/pulls/comments/:id", threadReplies);
  const asked = await lineComment(bot, { repo: REPO, number, user: "alice", body: EDIT, path: "src/b.ts", line: 1 });
  expect(asked.done).toBe("rocket");
  const [status, reply] = await edited;
  expect(status).toBe("Working on `/ast-edit` (3 files)…");
  expect(reply).toMatch(TOOK);
  expect(reply!.replace(TOOK, "")).toMatch(/^\*\*AST Edit: 1 replacement in 1 file\*\* — pending, nothing written yet/);
  expect(threadReplies()).toEqual([SETTLED, reply]);
  expect(botComments(number)).toEqual([]);
});

test("killed between the status and the reply: the job runs again and says no second status", async () => {
  const number = await openPr("killed");
  // Once the status is posted, the server dies just before its reply.
  bot.gh.onceBefore("POST /repos/:o/:r/issues/:n/comments", () => {
    bot.gh.onceBefore("POST /repos/:o/:r/issues/:n/comments", () => {
      void bot.process.kill("SIGKILL");
      bot.gh.injectFault({ path: "POST /repos/:o/:r/issues/:n/comments", status: 502 });
    });
  });
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number, body: EDIT, user: "alice" });
  expect(await deliver(bot, event)).toBeLessThan(300);
  await exited;
  expect(botComments(number)).toEqual([STATUS]);
  await bot.restart();
  const done = await waitFor("the job run again to finish", () =>
    bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
  );
  expect(done.content).toBe("rocket");
  const [status, reply] = botComments(number);
  expect(botComments(number)).toHaveLength(2);
  expect(status).toBe(SETTLED);
  // The preview was pushed before the kill: the run again reports it, and the status it found is why it says how long it took.
  expect(reply).toMatch(TOOK);
  expect(reply!.replace(TOOK, "")).toMatch(/This was already carried out: the preview was pushed/);
});
