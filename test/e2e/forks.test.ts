/**
 * Fork pull requests: with "Allow edits by maintainers" the edit is committed in the fork;
 * when that is off or GitHub refuses the push, the author gets a review whose suggested changes
 * cover the changed lines inside the pull request's diff, and the rest as a patch that `git apply` takes,
 * split across comments when it is too large for one (never cut inside a fence).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { comment, runsOn, useBot, type Bot } from "./harness.js";

const REPO = "acme/forks";
const BIG = Array.from({ length: 3_000 }, (_, index) => `console.log("line ${index}", ${index});`).join("\n") + "\n";

let bot: Bot;
const checkouts: string[] = [];
afterAll(() => checkouts.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "forks", {
    "src/a.ts": 'export const a = 1;\nconsole.log("a", a);\n',
    "src/b.ts": "export const b = 2;\n",
    "big/log.ts": BIG,
  });
  bot.gh.setPermission(REPO, "alice", "write");
});

async function forkPr(head: string, owner: string, maintainerCanModify: boolean) {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head,
    headRepo: `${owner}/forks`,
    user: owner,
    maintainerCanModify,
    commits: [{ files: { "src/b.ts": 'export const b = 2;\nconsole.log("b", b);\n' } }],
  });
  return pr;
}

/** The head branch of the fork checked out in a temporary directory. */
function checkout(fork: string, branch: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-fork-"));
  checkouts.push(dir);
  execFileSync("git", ["clone", "--quiet", "--branch", branch, bot.gh.gitDir(fork), dir]);
  return dir;
}

/** Applies each fenced diff in order with `git apply`, as the author would. */
function gitApply(dir: string, bodies: string[]): void {
  bodies.forEach((body, index) => {
    const match = /^(`{3,})diff\n([\s\S]*?)\n\1$/m.exec(body);
    if (!match) throw new Error(`no fenced patch in: ${body.slice(0, 200)}`);
    const file = path.join(dir, `.part-${index}.patch`);
    writeFileSync(file, `${match[2]}\n`);
    execFileSync("git", ["apply", file], { cwd: dir });
    rmSync(file);
  });
}

const read = (dir: string, file: string) => execFileSync("cat", [path.join(dir, file)], { encoding: "utf8" });

test("edits by maintainers allowed: the commit lands on the fork's branch and the stack follows the new head", async () => {
  bot.gh.setForkPushPolicy("maintainer_can_modify");
  const pr = await forkPr("allowed", "bob", true);
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src");
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply please");
  expect(applied.done).toBe("rocket");
  expect(applied.reply).toContain("Applied");
  const head = (await bot.gh.branchSha("bob/forks", "allowed"))!;
  expect(await bot.gh.fileAt("bob/forks", "allowed", "src/b.ts")).toBe('export const b = 2;\nlogger.info("b", b);\n');
  expect((await bot.gh.commit("bob/forks", head)).parents).toEqual([pr.headSha]);
  const gate = runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot");
  expect(gate?.conclusion).toBe("success");
  expect(bot.gh.reviews(REPO, pr.number)).toEqual([]);
});

test("GitHub refuses the push: suggested changes for the changed lines in the diff, the rest as a patch; both together make the edit", async () => {
  bot.gh.setForkPushPolicy("never");
  const pr = await forkPr("refused", "carol", true);
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src");
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply please");
  expect(applied.done).toBe("confused");
  expect(applied.reply).toContain(
    "Apply failed: this pull request comes from the fork carol/forks, and GitHub refused the push to it (Resource not accessible by integration). The edit stays pending; it is offered in [a review](",
  );
  expect(applied.reply).toContain("as 1 suggested change the author can commit in one click, and the rest as a patch for `git apply`.");
  const [review] = bot.gh.reviews(REPO, pr.number);
  expect(review!.comments.map((c) => [c.path, c.startLine, c.line, c.body])).toEqual([
    ["src/b.ts", null, 2, '```suggestion\nlogger.info("b", b);\n```'],
  ]);
  expect(review!.body).toContain("The rest, as a patch for `git apply`:");
  expect(review!.body).not.toContain("src/b.ts");

  // The author commits the suggestion and applies the patch: the result is the previewed edit.
  const dir = checkout("carol/forks", "refused");
  writeFileSync(path.join(dir, "src/b.ts"), 'export const b = 2;\nlogger.info("b", b);\n');
  gitApply(dir, [review!.body]);
  expect(read(dir, "src/a.ts")).toBe('export const a = 1;\nlogger.info("a", a);\n');
  expect(runsOn(bot, REPO, pr.headSha).find((run) => run.name.startsWith("resolve-bot: AST Edit"))?.status).toBe("in_progress");
  expect(await bot.gh.branchSha("carol/forks", "refused")).toBe(pr.headSha);
});

test("edits by maintainers off and a patch over 65,536 characters: parts in comments that git apply takes in order", async () => {
  bot.gh.setForkPushPolicy("maintainer_can_modify");
  const pr = await forkPr("closed-to-edits", "dave", false);
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths big");
  const before = bot.gh.comments(REPO, pr.number).length;
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply please");
  expect(applied.reply).toMatch(
    /^Apply failed: this pull request comes from the fork dave\/forks, and its author does not allow edits by maintainers\. The edit stays pending; it is offered in \[a review\]\([^)]+\) as a patch for `git apply` in (\d+) comments after it\./m,
  );
  const parts = bot.gh
    .comments(REPO, pr.number)
    .slice(before)
    .filter((entry) => entry.user === bot.gh.botLogin && entry.body.startsWith("Patch part "))
    .map((entry) => entry.body);
  expect(parts.length).toBeGreaterThan(2);
  expect(applied.reply).toContain(`in ${parts.length} comments after it`);
  for (const [index, body] of parts.entries()) {
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body.startsWith(`Patch part ${index + 1} of ${parts.length}: apply the parts in order with \`git apply\`.`)).toBe(true);
  }
  const dir = checkout("dave/forks", "closed-to-edits");
  gitApply(dir, parts);
  expect(read(dir, "big/log.ts")).toBe(BIG.replaceAll("console.log(", "logger.info("));
  expect(bot.gh.reviews(REPO, pr.number).at(-1)!.body).toContain("it follows in");
});
