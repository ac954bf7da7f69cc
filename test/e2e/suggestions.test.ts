/**
 * `--as-suggestion` on any preview tool, on a same-repository pull request: the preview becomes a
 * review with one suggested change per changed run of lines on the PR's diff, on exactly those
 * lines, and a patch for the rest; nothing is pushed on the stack and no check run is made.
 */
import { comment, runsOn, useBot, type Bot } from "./harness.js";

const REPO = "acme/suggest";
let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "suggest", { "src/old.ts": 'console.log("old");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
});

test("/ast-edit --as-suggestion: suggestions on the diff's lines, a patch for the rest, nothing pending", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "topic",
    user: "alice",
    commits: [{ files: { "src/new.ts": 'export const n = 1;\nconsole.log("new");\n' } }],
  });
  const result = await comment(
    bot,
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --as-suggestion",
  );
  expect(result.done).toBe("rocket");
  expect(result.reply).toMatch(
    /^AST Edit: 2 replacements in 2 files: nothing was pushed; it is offered in \[a review\]\(\S+\) as 1 suggested change the author can commit in one click, and the rest as a patch for `git apply`\./,
  );
  const [review] = bot.gh.reviews(REPO, pr.number);
  expect(review!.body).toMatch(/^resolve-bot suggests AST Edit: 2 replacements in 2 files \(`--as-suggestion`: nothing is pending\)\./);
  expect(review!.body).toContain('-console.log("old");\n+logger.info("old");');
  expect(review!.comments).toEqual([
    expect.objectContaining({ path: "src/new.ts", startLine: null, line: 2, body: '```suggestion\nlogger.info("new");\n```' }),
  ]);
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toEqual([]);
  expect((await comment(bot, REPO, pr.number, "alice", "/pending")).reply).toBe("Nothing is pending.");
});

test("--as-suggestion on a hunk with two separate changes: two suggestions, each on exactly its changed lines", async () => {
  const two = [
    "export function two(): number {",
    '  console.log("first");',
    "  const a = 1;",
    "  const b = 2;",
    "  const c = 3;",
    "  const d = 4;",
    '  console.log("second");',
    '  console.log("third");',
    "  return a + b + c + d;",
    "}",
    "",
  ].join("\n");
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "two-changes",
    user: "alice",
    commits: [{ files: { "src/two.ts": two } }],
  });
  const result = await comment(
    bot,
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src/two.ts --as-suggestion",
  );
  expect(result.reply).toMatch(/as 2 suggested changes the author can commit in one click\.$/m);
  const [review] = bot.gh.reviews(REPO, pr.number);
  // As the emulator stored them, which (as GitHub) takes a comment only on lines of the pull request's diff.
  expect(review!.comments.map((c) => [c.path, c.startLine, c.line, c.body])).toEqual([
    ["src/two.ts", null, 2, '```suggestion\n  logger.info("first");\n```'],
    ["src/two.ts", 7, 8, '```suggestion\n  logger.info("second");\n  logger.info("third");\n```'],
  ]);
  expect(review!.body).not.toContain("git apply");
});
