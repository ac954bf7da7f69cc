/**
 * `issue_comment.edited`: with `run_on_edit: true` a command added by editing a comment runs once,
 * and the reply says which lines it ran; an edit never runs a command again; without the setting
 * an edit does nothing at all. Real server, signed webhooks, the emulator.
 */
import { comment, deliver, useBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/edits";
let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "edits", { "src/a.ts": 'console.log("a");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
});

function botReplies(number: number) {
  return bot.gh.comments(REPO, number).filter((entry) => entry.user === bot.gh.botLogin);
}

/** Edits comment `id` to `body`; returns once a later command on the same pull request is done (jobs run in order). */
async function edit(number: number, id: number, body: string): Promise<void> {
  expect(await deliver(bot, bot.gh.webhooks.issueCommentEdited({ repo: REPO, commentId: id, body }))).toBeLessThan(300);
  await comment(bot, REPO, number, "alice", "/help");
}

test(
  "without run_on_edit, an edit that adds a command does nothing",
  async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "off", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
    const first = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "Looks fine.", user: "alice" });
    expect(await deliver(bot, first)).toBeLessThan(300);
    await edit(pr.number, first.commentId, "Looks fine.\n/pending");
    expect(bot.gh.reactions(first.commentId)).toEqual([]);
    expect(botReplies(pr.number).map((reply) => reply.body)).toEqual([expect.stringContaining("Preview tools compute a change")]);
  },
  patient(60_000),
);

test(
  "with run_on_edit: what an edit adds runs once, the reply names its lines, and no edit runs it again",
  async () => {
    await bot.gh.pushCommit(REPO, "main", { files: { ".github/resolve-bot.yml": "run_on_edit: true\n" } });
    try {
      const pr = await bot.gh.createPullRequest({ repo: REPO, head: "on", user: "alice", commits: [{ files: { "c.txt": "c\n" } }] });
      const first = await comment(bot, REPO, pr.number, "alice", "/pending");
      expect(first.reply).toBe("Nothing is pending.");

      const before = botReplies(pr.number).length;
      const added = bot.gh.webhooks.issueCommentEdited({
        repo: REPO,
        commentId: first.commentId,
        body: "/pending\nAnd:\n/ast-edit --pat 'console.log($$$A)' --out 'console.info($$$A)'",
      });
      expect(await deliver(bot, added)).toBeLessThan(300);
      await waitFor("the edit's reply", () => (botReplies(pr.number).length > before ? true : undefined));
      const reply = botReplies(pr.number).at(-1)!.body;
      expect(reply).toMatch(/^This answers what your edit added: line 3 \(`\/ast-edit`\)\.\n\n\*\*AST Edit: 1 replacement in 1 file\*\*/);
      expect(reply).not.toContain("Nothing is pending.");
      expect(bot.gh.reactions(first.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);

      // Removed, then put back (on another line): it ran already, so nothing runs and nothing is said.
      await edit(pr.number, first.commentId, "/pending");
      const count = botReplies(pr.number).length;
      await edit(pr.number, first.commentId, "Again:\n/ast-edit --pat 'console.log($$$A)' --out 'console.info($$$A)'\n/pending");
      expect(botReplies(pr.number)).toHaveLength(count + 1); // only the barrier's /help
      // The comment's own first command, taken out and put back: it ran when the comment was posted.
      await edit(pr.number, first.commentId, "/ast-edit --pat 'console.log($$$A)' --out 'console.info($$$A)'");
      await edit(pr.number, first.commentId, "/pending\n/ast-edit --pat 'console.log($$$A)' --out 'console.info($$$A)'");
      expect(botReplies(pr.number)).toHaveLength(count + 3); // only the barriers' /help
      expect(bot.gh.reactions(first.commentId).map((reaction) => reaction.content)).toEqual(["eyes", "rocket"]);
      const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
      expect(pending.reply).toContain("1 pending, newest first (the first is resolved next):\n1. AST Edit: 1 replacement in 1 file");
    } finally {
      await bot.gh.pushCommit(REPO, "main", { files: { ".github/resolve-bot.yml": null } });
    }
  },
  patient(90_000),
);
