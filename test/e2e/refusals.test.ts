/**
 * Bad input gets a clear reply and changes nothing: the emulator's request log must show no
 * write other than the bot's reactions and its reply.
 */
import { comment, runsOn, useBot, deliver, type Bot, settled } from "./harness.js";

const REPO = "acme/gadgets";
const FILES = {
  "src/a.ts": 'export const a = 1;\nconsole.log("a", a);\n',
  ".github/workflows/ci.yml": "on: push\njobs: {}\n",
};

let bot: Bot;
let prNumber: number;
let headSha: string;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "gadgets", FILES);
  bot.gh.setPermission(REPO, "alice", "write");
  bot.gh.setPermission(REPO, "rita", "read");
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "notes.md": "n\n" } }] });
  prNumber = pr.number;
  headSha = pr.headSha;
});

/** Writes other than reactions and comments: must be none. */
function repositoryWrites() {
  return bot.gh.writes().filter((entry) => !/\/reactions$/.test(entry.path) && !/\/issues\/\d+\/comments$/.test(entry.path));
}

test.each([
  [
    "a read-only commenter",
    "rita",
    "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)'",
    "Sorry, `/ast-edit` needs write permission on this repository, and rita has read. Nothing was changed.",
  ],
  [
    "an unknown tool",
    "alice",
    "/frobnicate now",
    "Unknown command `/frobnicate`. Known commands: `/ast-edit`, `/ast-fix`, `/move`, `/rename-symbol`, `/resolve`, `/help`, `/pending`.",
  ],
  ["bad arguments", "alice", "/ast-edit --pat 'console.log($$$A)' --bogus", "`/ast-edit` was not run:\n\n- Unknown option --bogus."],
  ["a path outside the repository", "alice", "/move src/a.ts ../a.ts", 'Path "../a.ts" leaves the repository ("..").'],
])("%s: a clear reply, zero writes", async (_what, user, body, expected) => {
  const result = await comment(bot, REPO, prNumber, user, body);
  expect(result.done).toBe("confused");
  expect(result.reply.startsWith(expected)).toBe(true);
  expect(repositoryWrites()).toEqual([]);
  expect(runsOn(bot, REPO, headSha)).toEqual([]);
});

test("a commenter who may not run the command fetches nothing; one who may, fetches the repository", async () => {
  // A repository nobody has used the bot on: the cache does not hold it, so a command's first fetch may start early.
  await bot.gh.createRepo("acme", "fresh", FILES);
  bot.gh.setPermission("acme/fresh", "alice", "write");
  bot.gh.setPermission("acme/fresh", "rita", "read");
  const pr = await bot.gh.createPullRequest({ repo: "acme/fresh", head: "topic", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
  bot.gh.clearLog();
  const refused = await comment(bot, "acme/fresh", pr.number, "rita", "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)'");
  expect(refused.reply.startsWith("Sorry, `/ast-edit` needs write permission on this repository, and rita has read.")).toBe(true);
  await settled(bot);
  expect(bot.gh.gitRequests()).toEqual([]);
  const previewed = await comment(bot, "acme/fresh", pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)'");
  expect(previewed.done).toBe("rocket");
  expect(bot.gh.gitRequests().length).toBeGreaterThan(0);
});

test("bad arguments: every error, the one usage line, the wrong parameter's help and a pointer to /help <command>", async () => {
  const usage =
    "Usage: `/rename-symbol <from> [<to>] [--at <path:line[:column]>] [--file <path>] [--one-name-on-line] [--find-in-comments] " +
    "[--find-in-strings] [--provide-prefix-and-suffix-text-for-rename] [--quote-preference <auto|double|single>] " +
    "[--import-module-specifier-preference <shortest|project-relative|relative|non-relative>] " +
    "[--import-module-specifier-ending <auto|minimal|index|js>]`";
  const unknown = await comment(bot, REPO, prNumber, "alice", "/rename-symbol onlyone --nope");
  expect(unknown.reply).toBe(
    ["`/rename-symbol` was not run:", "- Unknown option --nope.", usage, "Every parameter, and examples: `/help rename-symbol`."].join(
      "\n\n",
    ),
  );
  const missing = await comment(bot, REPO, prNumber, "alice", "/rename-symbol onlyone --at");
  expect(missing.reply).toBe(
    [
      "`/rename-symbol` was not run:",
      "- --at needs a value.",
      usage,
      "- `--at` — Position of the symbol: path:line or path:line:column (1-based), as an editor's F2",
      "Every parameter, and examples: `/help rename-symbol`.",
    ].join("\n\n"),
  );
  // The pointer works: one tool's whole help.
  const help = await comment(bot, REPO, prNumber, "alice", "/help rename-symbol");
  expect(help.reply.split("\n\n").slice(0, 2)).toEqual([
    "**`/rename-symbol`** — Renames a TypeScript/JavaScript symbol and every reference to it across the repository, as an editor's F2: by name, or by position with --at.",
    usage,
  ]);
  expect(help.reply).not.toContain("**`/move`**");
});

test("comments by bots, on issues, or without commands are ignored entirely", async () => {
  const before = bot.gh.comments(REPO, prNumber).length;
  const fromBot = bot.gh.webhooks.issueComment({ repo: REPO, number: prNumber, body: "/ast-edit --pat a --out b", user: "other-app[bot]" });
  expect(await deliver(bot, fromBot)).toBeLessThan(300);
  const chatter = bot.gh.webhooks.issueComment({ repo: REPO, number: prNumber, body: "LGTM, see /help later", user: "alice" });
  expect(await deliver(bot, chatter)).toBeLessThan(300);
  await settled(bot);
  expect(bot.gh.writes()).toEqual([]);
  expect(bot.gh.comments(REPO, prNumber).length).toBe(before + 2);
});

test("a bad .github/resolve-bot.yml on the default branch is answered with its errors", async () => {
  await bot.gh.pushCommit(REPO, "main", {
    files: {
      ".github/resolve-bot.yml": "steering: sometimes\nmystery: 1\ntools: [ast_edit, teleport]\npermissions:\n  ast_edit: superuser\n",
    },
  });
  try {
    const result = await comment(bot, REPO, prNumber, "alice", "/help");
    expect(result.done).toBe("confused");
    expect(result.reply).toBe(
      [
        "`.github/resolve-bot.yml` has problems, so nothing was run:",
        "- mystery: unknown key",
        '- permissions.ast_edit: must be one of read, triage, write, maintain, admin (got "superuser")',
        '- steering: must be one of stack, strict (got "sometimes")',
        // Every problem in one pass: the unknown tool beside the schema's problems.
        '- tools: unknown tool "teleport"',
      ].join("\n"),
    );
    expect(repositoryWrites()).toEqual([]);
  } finally {
    await bot.gh.pushCommit(REPO, "main", { files: { ".github/resolve-bot.yml": null } });
  }
});

test("a workflow file change without the workflows permission is refused before any write", async () => {
  const previewed = await comment(bot, REPO, prNumber, "alice", "/move .github/workflows/ci.yml .github/workflows/build.yml");
  expect(previewed.done).toBe("rocket");
  bot.gh.clearLog();
  const applied = await comment(bot, REPO, prNumber, "alice", "/resolve apply rename the workflow");
  expect(applied.done).toBe("confused");
  expect(applied.reply.split("\n")[0]).toBe(
    "Apply failed: this change touches .github/workflows/build.yml, .github/workflows/ci.yml, and the app does not have the `workflows` permission that GitHub requires for that. Nothing was written.",
  );
  expect(repositoryWrites()).toEqual([]);
  expect(await bot.gh.branchSha(REPO, "topic")).toBe(headSha);
  expect(runsOn(bot, REPO, headSha).find((run) => run.name.startsWith("resolve-bot: Move"))?.status).toBe("in_progress");
  await comment(bot, REPO, prNumber, "alice", "/resolve discard cleanup");
});

test("an unexpected GitHub failure gets an apology, 😕, and no repository writes", async () => {
  // A head the bot has not fetched yet: git fails, so does the tarball it falls back to.
  const other = await bot.gh.createPullRequest({ repo: REPO, head: "other", user: "alice", commits: [{ files: { "other.md": "o\n" } }] });
  bot.gh.clearLog();
  const gitFault = bot.gh.injectFault({ method: "POST", path: "/acme/gadgets.git/git-upload-pack", status: 500 });
  const fault = bot.gh.injectFault({ method: "GET", path: "/repos/:o/:r/tarball/*", status: 404 });
  const result = await comment(bot, REPO, other.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'");
  expect(gitFault.hits).toBe(1);
  expect(bot.output()).toContain(`could not fetch acme/gadgets at ${other.headSha} with git; reading its tarball instead`);
  expect(fault.hits).toBe(1);
  expect(result.done).toBe("confused");
  expect(result.reply).toBe(
    "Something went wrong inside resolve-bot; the error is in the app's log. Nothing was committed unless a reply or a check run says so.",
  );
  expect(repositoryWrites()).toEqual([]);
  expect(bot.output()).toContain("resolve-bot failed");
});

test("a repository over its limit is refused with the limit and what raises it, and nothing is written", async () => {
  await bot.gh.createRepo("acme", "limited", {
    ".github/resolve-bot.yml": "limits:\n  max_files: 2\n",
    "src/a.ts": "console.log(1);\n",
    "src/b.ts": "console.log(2);\n",
  });
  bot.gh.setPermission("acme/limited", "alice", "write");
  const limited = await bot.gh.createPullRequest({
    repo: "acme/limited",
    head: "topic",
    user: "alice",
    commits: [{ files: { "c.ts": "c\n" } }],
  });
  bot.gh.clearLog();
  const result = await comment(
    bot,
    "acme/limited",
    limited.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
  );
  expect(result.done).toBe("confused");
  expect(result.reply.split("\n")[0]).toBe(
    "The repository has 4 files, over the limit of 2 (raise it with `limits.max_files` in .github/resolve-bot.yml, up to the server's RESOLVE_BOT_MAX_FILES); resolve-bot does not work on it.",
  );
  expect(repositoryWrites()).toEqual([]);
});

test("when git cannot fetch, the command is answered from the tarball, and the fallback is logged", async () => {
  const fresh = await bot.gh.createPullRequest({ repo: REPO, head: "fallback", user: "alice", commits: [{ files: { "f.md": "f\n" } }] });
  bot.gh.clearLog();
  const gitFault = bot.gh.injectFault({ method: "POST", path: "/acme/gadgets.git/git-upload-pack", status: 500 });
  const result = await comment(bot, REPO, fresh.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'");
  expect(gitFault.hits).toBe(1);
  expect(result.done).toBe("rocket");
  expect(result.reply).toContain("**AST Edit: 1 replacement in 1 file**");
  expect(bot.gh.log().filter((entry) => entry.path === `/repos/${REPO}/tarball/${fresh.headSha}`)).toHaveLength(1);
  expect(bot.output()).toContain(`could not fetch acme/gadgets at ${fresh.headSha} with git; reading its tarball instead`);
});
