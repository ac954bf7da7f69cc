/**
 * A recorded request is carried out exactly once, whatever step its worker dies at. The real
 * server is killed (SIGKILL: no shutdown of any kind) between two of GitHub's answers — the write
 * before the kill landed, the one the kill interrupts did not — and started again; the job runs
 * again and must neither repeat what was done (a second commit, a second pending action, a second
 * discard, a second reply) nor skip what was not, and its one reply must say what is true.
 */
import type { RequestPattern } from "./emulator/router.js";
import { comment, deliver, runsOn, useBot, waitFor, withoutMarker, type Bot, settled } from "./harness.js";

const OWNER = "acme";
const NAME = "steps";
const REPO = `${OWNER}/${NAME}`;
let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo(OWNER, NAME, {
    "src/log.ts": 'console.log("log");\n',
    "src/warn.ts": 'console.warn("warn");\nconsole.warn("again");\n',
    "src/error.ts": 'console.error("1");\nconsole.error("2");\nconsole.error("3");\n',
  });
  bot.gh.setPermission(REPO, "alice", "write");
});

const LOG = "/ast-edit --pat 'console.log($$$A)' --out 'logger.log($$$A)' --paths src";
const WARN = "/ast-edit --pat 'console.warn($$$A)' --out 'logger.warn($$$A)' --paths src";
const ERROR = "/ast-edit --pat 'console.error($$$A)' --out 'logger.error($$$A)' --paths src";
const LOG_LABEL = "AST Edit: 1 replacement in 1 file";
const WARN_LABEL = "AST Edit: 2 replacements in 1 file";
const ERROR_LABEL = "AST Edit: 3 replacements in 1 file";
const RESOLVE = "`/resolve apply <reason>` or `/resolve discard <reason>`";
const INTERRUPTED = "(resolve-bot was interrupted before it could reply). Nothing more was done.";
const CHECK_RUN_WRITE = /^(POST|PATCH) \S*\/check-runs(\/\d+)?$/;

/**
 * Arms a kill: once each of `after` has been answered in turn, the server is killed just before
 * the next `then` request, which fails (it never reaches GitHub's state).
 */
function killBefore(then: RequestPattern, ...after: RequestPattern[]): void {
  const [first, ...rest] = after;
  if (first === undefined) {
    bot.gh.onceBefore(then, () => {
      void bot.process.kill("SIGKILL");
      bot.gh.injectFault({ path: then, status: 502 });
    });
    return;
  }
  bot.gh.onceBefore(first, () => killBefore(then, ...rest));
}

function botComments(number: number, after = 0): string[] {
  return bot.gh
    .comments(REPO, number)
    .slice(after)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => withoutMarker(entry.body));
}

/** Posts `body`, waits for the armed kill, restarts the server and waits for the job to finish again. */
async function killedAndRestarted(number: number, body: string): Promise<{ done: string; replies: string[]; reactions: string[] }> {
  const before = bot.gh.comments(REPO, number).length;
  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number, body, user: "alice" });
  expect(await deliver(bot, event)).toBeLessThan(300);
  await exited;
  await bot.restart();
  const done = await waitFor("the restarted job to finish", () =>
    bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
  );
  // A duplicate (a second reply, a second reaction) would be a job still queued or running.
  await settled(bot);
  return {
    done: done.content,
    replies: botComments(number, before),
    reactions: bot.gh.reactions(event.commentId).map((reaction) => reaction.content),
  };
}

async function openPr(branch: string, ...previews: string[]): Promise<{ number: number; headSha: string }> {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: branch,
    user: "alice",
    commits: [{ files: { [`${branch}.txt`]: "x\n" } }],
  });
  for (const preview of previews) expect((await comment(bot, REPO, pr.number, "alice", preview)).done).toBe("rocket");
  return pr;
}

/** The commits on the branch since `base`, oldest first: subject and Resolve-Action trailer. */
async function commitsSince(base: string, branch: string): Promise<Array<{ sha: string; subject: string }>> {
  const log = await bot.gh.runGit(REPO, ["log", "--reverse", "--format=%H %s", `${base}..refs/heads/${branch}`]);
  return log
    .split("\n")
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, 40), subject: line.slice(41) }));
}

const file = (branch: string, path: string) => bot.gh.runGit(REPO, ["show", `refs/heads/${branch}:${path}`]);
const link = (sha: string) => `[${sha.slice(0, 7)}](${bot.gh.url}/${REPO}/commit/${sha})`;
/** The html_url of the one run of an action on a commit: a re-run's reply links it as the first run's would have. */
const runUrl = (sha: string, label: string) => {
  const runs = runsOn(bot, REPO, sha).filter((run) => run.name === `resolve-bot: ${label}`);
  expect(runs).toHaveLength(1);
  return runs[0]!.htmlUrl;
};
const actionRuns = (sha: string) =>
  runsOn(bot, REPO, sha)
    .filter((run) => run.name.startsWith("resolve-bot: "))
    .map((run) => [run.name, run.status, run.conclusion]);

/** The one reply to "/resolve apply first\n/resolve apply second" when the first apply was done before the kill. */
const firstCarriedOutSecondApplied = (first: string, second: string) =>
  [
    "✅ `/resolve`",
    `This was already carried out: commit ${first.slice(0, 7)} on the branch is this request's apply ${INTERRUPTED}`,
    `Commit ${link(first)} · Reason: first`,
    "✅ `/resolve`",
    "Applied 2 replacements in 1 file.",
    `Commit ${link(second)} · Reason: second`,
    `---\nPending: ${LOG_LABEL}. Resolve it with ${RESOLVE}.`,
  ].join("\n\n");

test("SIGKILL after the second apply's commit object, before its ref update: each action is committed once", async () => {
  const pr = await openPr("object", LOG, WARN, ERROR);
  killBefore("PATCH /repos/:o/:r/git/refs/*", "POST /repos/:o/:r/git/commits", "POST /repos/:o/:r/git/commits");
  const result = await killedAndRestarted(pr.number, "/resolve apply first\n/resolve apply second");

  const commits = await commitsSince(pr.headSha, "object");
  expect(commits.map((commit) => commit.subject)).toEqual([ERROR_LABEL, WARN_LABEL]);
  const [first, second] = commits.map((commit) => commit.sha) as [string, string];
  expect(await file("object", "src/error.ts")).toBe('logger.error("1");\nlogger.error("2");\nlogger.error("3");\n');
  expect(await file("object", "src/warn.ts")).toBe('logger.warn("warn");\nlogger.warn("again");\n');
  expect(await file("object", "src/log.ts")).toBe('console.log("log");\n');
  expect(actionRuns(second)).toEqual([[`resolve-bot: ${LOG_LABEL}`, "in_progress", null]]);
  expect(result.done).toBe("rocket");
  expect(result.replies).toEqual([firstCarriedOutSecondApplied(first, second)]);
});

test("SIGKILL after the first apply's run was completed, before the stack was carried: the second apply still happens, once", async () => {
  const pr = await openPr("carry", LOG, WARN, ERROR);
  killBefore(CHECK_RUN_WRITE, "PATCH /repos/:o/:r/git/refs/*", "PATCH /repos/:o/:r/check-runs/:id");
  const result = await killedAndRestarted(pr.number, "/resolve apply first\n/resolve apply second");

  const commits = await commitsSince(pr.headSha, "carry");
  expect(commits.map((commit) => commit.subject)).toEqual([ERROR_LABEL, WARN_LABEL]);
  const [first, second] = commits.map((commit) => commit.sha) as [string, string];
  expect(await file("carry", "src/log.ts")).toBe('console.log("log");\n');
  // The applied action's run says so; the rest of the stack moved on and only LOG is pending.
  expect(actionRuns(pr.headSha)).toEqual(expect.arrayContaining([[`resolve-bot: ${ERROR_LABEL}`, "completed", "success"]]));
  expect(actionRuns(second)).toEqual([[`resolve-bot: ${LOG_LABEL}`, "in_progress", null]]);
  expect(runsOn(bot, REPO, second).find((run) => run.name === "resolve-bot")?.conclusion).toBe("action_required");
  expect(result.replies).toEqual([firstCarriedOutSecondApplied(first, second)]);
  expect(result.done).toBe("rocket");
});

test("SIGKILL before the reply, every write done: one reply that says what the first run did", async () => {
  const pr = await openPr("reply", LOG);
  killBefore("POST /repos/:o/:r/issues/:n/comments");
  const result = await killedAndRestarted(pr.number, `${ERROR}\n/resolve apply ok`);

  const commits = await commitsSince(pr.headSha, "reply");
  expect(commits.map((commit) => commit.subject)).toEqual([ERROR_LABEL]);
  const head = commits[0]!.sha;
  expect(actionRuns(head)).toEqual([[`resolve-bot: ${LOG_LABEL}`, "in_progress", null]]);
  expect(result.replies).toEqual([
    [
      "✅ `/ast-edit`",
      `**${ERROR_LABEL}** — pending, nothing written yet · [check run](${runUrl(pr.headSha, ERROR_LABEL)})`,
      `This was already carried out: the preview was pushed ${INTERRUPTED}`,
      "✅ `/resolve`",
      `This was already carried out: commit ${head.slice(0, 7)} on the branch is this request's apply ${INTERRUPTED}`,
      `Commit ${link(head)} · Reason: ok`,
      `---\nPending: ${LOG_LABEL}. Resolve it with ${RESOLVE}.`,
    ].join("\n\n"),
  ]);
  expect(result.done).toBe("rocket");
});

test("SIGKILL after the reply, before the 🚀: no second reply, no second discard, and the 🚀 comes", async () => {
  const pr = await openPr("replied", LOG, WARN);
  killBefore("POST /repos/:o/:r/issues/comments/:id/reactions", "POST /repos/:o/:r/issues/:n/comments");
  const result = await killedAndRestarted(pr.number, "/resolve discard not now");

  expect(result.replies).toEqual([`Discarded: ${WARN_LABEL}. Reason: not now\n\n---\nPending: ${LOG_LABEL}. Resolve it with ${RESOLVE}.`]);
  expect(result.reactions).toEqual(["eyes", "rocket"]);
  expect(actionRuns(pr.headSha)).toEqual([
    [`resolve-bot: ${LOG_LABEL}`, "in_progress", null],
    [`resolve-bot: ${WARN_LABEL}`, "completed", "cancelled"],
  ]);
});

test("SIGKILL after a preview's check run was created, before the gate and the reply: one pending action, one reply", async () => {
  const pr = await openPr("preview");
  killBefore(CHECK_RUN_WRITE, "POST /repos/:o/:r/check-runs");
  const result = await killedAndRestarted(pr.number, LOG);

  expect(actionRuns(pr.headSha)).toEqual([[`resolve-bot: ${LOG_LABEL}`, "in_progress", null]]);
  expect(runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot")?.conclusion).toBe("action_required");
  expect(result.replies).toEqual([
    [
      `**${LOG_LABEL}** — pending, nothing written yet · [check run](${runUrl(pr.headSha, LOG_LABEL)})`,
      `This was already carried out: the preview was pushed ${INTERRUPTED}`,
      `---\nNext: ${RESOLVE}.`,
    ].join("\n\n"),
  ]);
  expect(result.done).toBe("rocket");
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain(`1 pending, newest first (the first is resolved next):\n1. ${LOG_LABEL} (#1,`);
});

test("SIGKILL after a discard completed its run, before the gate and the reply: the older action stays pending", async () => {
  const pr = await openPr("discard", LOG, WARN);
  killBefore(CHECK_RUN_WRITE, "PATCH /repos/:o/:r/check-runs/:id");
  const result = await killedAndRestarted(pr.number, "/resolve discard not now");

  expect(actionRuns(pr.headSha)).toEqual([
    [`resolve-bot: ${LOG_LABEL}`, "in_progress", null],
    [`resolve-bot: ${WARN_LABEL}`, "completed", "cancelled"],
  ]);
  expect(runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot")?.output.title).toBe(`Pending: ${LOG_LABEL}`);
  expect(result.replies).toEqual([
    [
      `This was already carried out: ${WARN_LABEL} was discarded ${INTERRUPTED}`,
      "Reason: not now",
      `---\nPending: ${LOG_LABEL}. Resolve it with ${RESOLVE}.`,
    ].join("\n\n"),
  ]);
  expect(result.done).toBe("rocket");
  expect(await commitsSince(pr.headSha, "discard")).toEqual([]);
});
