/**
 * `/resolve apply --only <path>…` through the real server and the emulator: part of an edit is
 * committed, the rest stays pending as `<label> (rest)` in a check run on the new head, and
 * applying that commits the rest.
 */
import { comment, deliver, latestReply, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/parts";
const BASE_FILES = {
  "README.md": "# parts\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
};
const LABEL = "AST Edit: 2 replacements in 2 files";
const REST = `${LABEL} (rest)`;
const NEXT = "---\nNext: `/resolve apply <reason>` or `/resolve discard <reason>`.";

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "parts", BASE_FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

/** The files a commit changed against its parent. */
async function changedIn(sha: string): Promise<string[]> {
  return (await bot.gh.runGit(REPO, ["diff", "--name-only", `${sha}^`, sha])).trim().split("\n");
}

test("two files previewed, one applied with --only: the commit touches that file; the other is pending as (rest) on the new head; applying it commits the rest", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "feature-part",
    user: "alice",
    commits: [{ files: { "docs/x.md": "x\n" } }],
  });
  const previewed = await comment(
    bot,
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src",
  );
  expect(previewed.done).toBe("rocket");

  // Refusals change nothing and list the action's files.
  const refusals: Array<[string, string]> = [
    [
      "/resolve apply --only src/nope.ts keep it",
      `\`--only\` names src/nope.ts, which ${LABEL} does not change. Its files: src/log.ts, src/main.ts. Nothing was applied.`,
    ],
    [
      "/resolve apply --only src/log.ts src/main.ts all",
      `\`--only\` names every file of ${LABEL} (src/log.ts, src/main.ts), so nothing would be left pending: apply it whole, without \`--only\`. Nothing was applied.`,
    ],
    [
      "/resolve apply --force it",
      "`/resolve apply` has no option `--force` (it takes `--only <path>…`). To begin the reason with `--`, put `--` before it: `/resolve apply -- --force …`.",
    ],
  ];
  for (const [body, refusal] of refusals) {
    const refused = await comment(bot, REPO, pr.number, "alice", body);
    expect([refused.done, refused.reply]).toEqual([
      "confused",
      `${refusal}\n\n---\nPending: ${LABEL}. Resolve it with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`,
    ]);
  }
  expect(await bot.gh.branchSha(REPO, "feature-part")).toBe(pr.headSha);

  const part = await comment(bot, REPO, pr.number, "alice", "/resolve apply --only src/log.ts the logger first");
  expect(part.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-part"))!;
  const commit = await bot.gh.commit(REPO, head);
  expect(commit.parents).toEqual([pr.headSha]);
  expect(commit.message).toMatch(
    /^AST Edit: 2 replacements in 2 files \(part: src\/log\.ts\)\n\nthe logger first\n\nResolve-Action: [0-9a-f-]{36}\nResolve-Request: [0-9a-f-]+#0\nCo-authored-by: alice <\d+\+alice@users\.noreply\.127\.0\.0\.1>\n?$/,
  );
  expect(await changedIn(head)).toEqual(["src/log.ts"]);
  expect(await bot.gh.filesAt(REPO, head)).toEqual({
    ...BASE_FILES,
    "docs/x.md": "x\n",
    "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n',
  });

  // The original run is applied on the old head; the rest is a new pending run on the new head, and the gate waits for it.
  const original = runsOn(bot, REPO, pr.headSha).find((run) => run.name === `resolve-bot: ${LABEL}`)!;
  expect([original.status, original.conclusion]).toEqual(["completed", "success"]);
  const onHead = runsOn(bot, REPO, head);
  const rest = onHead.filter((run) => run.name.startsWith("resolve-bot: "));
  expect(rest.map((run) => [run.name, run.status, run.output.title])).toEqual([[`resolve-bot: ${REST}`, "in_progress", REST]]);
  expect(rest[0]!.output.text).toContain("diff --git a/src/main.ts b/src/main.ts");
  expect(rest[0]!.output.text).not.toContain("src/log.ts");
  expect(rest[0]!.annotations.map((annotation) => annotation.path)).toEqual(["src/main.ts"]);
  const gate = onHead.find((run) => run.name === "resolve-bot")!;
  expect([gate.status, gate.conclusion, gate.output.title]).toEqual(["completed", "action_required", `Pending: ${REST}`]);
  const restDiff = [
    "diff --git a/src/main.ts b/src/main.ts",
    "--- a/src/main.ts",
    "+++ b/src/main.ts",
    "@@ -1,3 +1,3 @@",
    ' import { run } from "./log";',
    " ",
    "-console.log(run(1));",
    "+logger.debug(run(1));",
  ].join("\n");
  expect(part.reply).toBe(
    [
      `Applied ${LABEL} to src/log.ts only. The rest (src/main.ts) is pending as ${REST}.`,
      `Commit [${head.slice(0, 7)}](${bot.gh.url}/acme/parts/commit/${head}) · Reason: the logger first`,
      `**${REST}** — pending, nothing written yet · [check run](${rest[0]!.htmlUrl})`,
      "```diff\n" + restDiff + "\n```",
      NEXT,
    ].join("\n\n"),
  );

  const whole = await comment(bot, REPO, pr.number, "alice", "/resolve apply the rest too");
  expect(whole.done).toBe("rocket");
  const last = (await bot.gh.branchSha(REPO, "feature-part"))!;
  expect((await bot.gh.commit(REPO, last)).parents).toEqual([head]);
  expect(await changedIn(last)).toEqual(["src/main.ts"]);
  expect(await bot.gh.filesAt(REPO, last)).toEqual({
    ...BASE_FILES,
    "docs/x.md": "x\n",
    "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n',
    "src/main.ts": 'import { run } from "./log";\n\nlogger.debug(run(1));\n',
  });
  expect(whole.reply).toBe(
    `Applied the rest of ${LABEL} (src/main.ts).\n\nCommit [${last.slice(0, 7)}](${bot.gh.url}/acme/parts/commit/${last}) · Reason: the rest too`,
  );
  const restRun = runsOn(bot, REPO, head).find((run) => run.name === `resolve-bot: ${REST}`)!;
  expect([restRun.status, restRun.conclusion]).toEqual(["completed", "success"]);
  const lastGate = runsOn(bot, REPO, last).find((run) => run.name === "resolve-bot")!;
  expect([lastGate.conclusion, lastGate.output.title]).toEqual(["success", "No pending edits"]);
});

test("--only on an action that does not split by file (a rename) is refused with its files, and it stays pending", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "feature-rename",
    user: "alice",
    commits: [{ files: { "docs/y.md": "y\n" } }],
  });
  await comment(bot, REPO, pr.number, "alice", "/rename-symbol run execute");
  const refused = await comment(bot, REPO, pr.number, "alice", "/resolve apply --only src/log.ts just the declaration");
  const label = "Rename Symbol: run → execute (3 references in 2 files)";
  expect([refused.done, refused.reply]).toEqual([
    "confused",
    `${label} cannot be applied in part: \`/rename-symbol\` does not split by file (its changes to src/log.ts, src/main.ts go together). Apply or discard it whole with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`. Nothing was applied.\n\n---\nPending: ${label}. Resolve it with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`,
  ]);
  expect(await bot.gh.branchSha(REPO, "feature-rename")).toBe(pr.headSha);
});

test("the rest is previewed again after a push like any action, and applies on the pushed head", async () => {
  const pr = await bot.gh.createPullRequest({
    repo: REPO,
    head: "feature-push",
    user: "alice",
    commits: [{ files: { "docs/z.md": "z\n" } }],
  });
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src");
  expect((await comment(bot, REPO, pr.number, "alice", "/resolve apply --only src/main.ts main first")).done).toBe("rocket");
  const part = (await bot.gh.branchSha(REPO, "feature-push"))!;
  const pushed = await bot.gh.pushCommit(REPO, "feature-push", { files: { "docs/more.md": "more\n" }, author: "alice" });
  const sync = await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: part, after: pushed });
  expect(await deliver(bot, sync)).toBeLessThan(300);
  await waitFor("the resync reply", () => latestReply(bot, REPO, pr.number).startsWith("New commits were pushed") || undefined);
  const moved = runsOn(bot, REPO, pushed).find((run) => run.name === `resolve-bot: ${REST}`)!;
  expect(moved.status).toBe("in_progress");
  expect(moved.output.summary).toContain(`Previewed again on ${pushed.slice(0, 7)} after new commits (was ${part.slice(0, 7)})`);
  expect(moved.annotations.map((annotation) => annotation.path)).toEqual(["src/log.ts"]);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply log too");
  expect(applied.reply.split("\n")[0]).toBe(`Applied the rest of ${LABEL} (src/log.ts).`);
  const last = (await bot.gh.branchSha(REPO, "feature-push"))!;
  expect((await bot.gh.commit(REPO, last)).parents).toEqual([pushed]);
  expect(await changedIn(last)).toEqual(["src/log.ts"]);
});
