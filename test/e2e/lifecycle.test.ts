/**
 * Pending edits across a pull request's life: merged or closed (runs and gate neutral, nothing
 * applied), reopened (restored), and the Re-run button on an action (re-previewed) or on the gate.
 */
import { OpenApiValidator } from "./emulator/index.js";
import { comment, deliver, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/life";
const LABEL = "AST Edit: 1 replacement in 1 file";

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "life", { "src/a.ts": 'console.log("a");\n', "src/b.ts": 'console.log("b");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
  await bot.gh.createRepo("acme", "broken", { "a.md": "a\n", ".github/resolve-bot.yml": "steering: sometimes\n" });
});

async function prWithEdits(head: string, paths: string[]) {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { [`${head}.md`]: "x\n" } }] });
  for (const path of paths) {
    const previewed = await comment(
      bot,
      REPO,
      pr.number,
      "alice",
      `/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths ${path}`,
    );
    expect(previewed.done).toBe("rocket");
  }
  return pr;
}

const actions = (sha: string) => runsOn(bot, REPO, sha).filter((run) => run.name.startsWith("resolve-bot: "));
const gate = (sha: string) => runsOn(bot, REPO, sha).find((run) => run.name === "resolve-bot")!;

async function closeAndDeliver(number: number, merged: boolean) {
  bot.gh.closePullRequest(REPO, number, { merged });
  const closed = await bot.gh.webhooks.pullRequest({ repo: REPO, number, action: "closed" });
  await deliver(bot, closed);
}

test("a merged pull request: its pending edits are completed neutral, nothing is applied, the gate is neutral", async () => {
  const pr = await prWithEdits("merged", ["src/a.ts", "src/b.ts"]);
  const before = await bot.gh.branchSha(REPO, "merged");
  await closeAndDeliver(pr.number, true);
  const closedGate = await waitFor("the neutral gate", () => (gate(pr.headSha).conclusion === "neutral" ? gate(pr.headSha) : undefined));
  expect([closedGate.output.title, closedGate.actions]).toEqual(["PR merged with 2 pending edits; they were not applied.", []]);
  expect(actions(pr.headSha).map((run) => [run.status, run.conclusion, run.output.title])).toEqual([
    ["completed", "neutral", `Not applied: ${LABEL}`],
    ["completed", "neutral", `Not applied: ${LABEL}`],
  ]);
  expect(actions(pr.headSha)[0]!.output.summary).toMatch(/^PR merged with 2 pending edits; they were not applied\./);
  expect(await bot.gh.branchSha(REPO, "merged")).toBe(before);
  const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
  expect(pending.reply).toContain("Nothing is pending");
});

test("closed then reopened: the stack is restored on the head and can be applied", async () => {
  const pr = await prWithEdits("reopen", ["src/a.ts"]);
  await closeAndDeliver(pr.number, false);
  await waitFor("the neutral gate", () => gate(pr.headSha).conclusion === "neutral");
  expect(gate(pr.headSha).output.title).toBe(
    "PR closed with 1 pending edit; it was not applied. Reopening the pull request restores them.",
  );

  bot.gh.reopenPullRequest(REPO, pr.number);
  await deliver(bot, await bot.gh.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "reopened" }));
  await waitFor("the gate back to action_required", () => gate(pr.headSha).conclusion === "action_required");
  expect(actions(pr.headSha).map((run) => [run.status, run.conclusion])).toEqual([
    ["completed", "neutral"],
    ["in_progress", null],
  ]);
  expect(actions(pr.headSha)[1]!.name).toBe(`resolve-bot: ${LABEL}`);
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply after reopening");
  expect(applied.done).toBe("rocket");
  expect(await bot.gh.fileAt(REPO, "reopen", "src/a.ts")).toBe('logger.info("a");\n');
});

test("Re-run on an action's check previews it again on the head, keeping its place", async () => {
  const pr = await prWithEdits("rerun-action", ["src/a.ts", "src/b.ts"]);
  const [first] = actions(pr.headSha);
  const rerun = await bot.gh.webhooks.checkRun({ repo: REPO, checkRunId: first!.id, action: "rerequested", user: "alice" });
  expect(OpenApiValidator.shared().validateWebhook("check_run", "rerequested", rerun.payload)).toEqual([]);
  await deliver(bot, rerun);
  await waitFor("the old run superseded", () => actions(pr.headSha)[0]!.status === "completed");
  const [old, second, fresh] = actions(pr.headSha);
  expect([old!.conclusion, old!.output.title]).toEqual(["neutral", `Superseded: ${LABEL}`]);
  expect([second!.status, fresh!.status]).toEqual(["in_progress", "in_progress"]);
  expect(fresh!.output.summary).toContain("the preview is unchanged");
  // Still below the newer edit: /resolve apply takes the newest first.
  await comment(bot, REPO, pr.number, "alice", "/resolve apply newest");
  expect(await bot.gh.fileAt(REPO, "rerun-action", "src/b.ts")).toBe('logger.info("b");\n');
  expect(await bot.gh.fileAt(REPO, "rerun-action", "src/a.ts")).toBe('console.log("a");\n');
});

test("Re-run on the gate brings it back in line with the stack", async () => {
  const pr = await prWithEdits("rerun-gate", ["src/a.ts"]);
  const run = bot.gh.state.checkRuns.find((candidate) => candidate.headSha === pr.headSha && candidate.name === "resolve-bot")!;
  Object.assign(run, { conclusion: "success", output: { ...run.output, title: "tampered" } });
  await deliver(bot, await bot.gh.webhooks.checkRun({ repo: REPO, checkRunId: run.id, action: "rerequested", user: "alice" }));
  await waitFor("the gate refreshed", () => gate(pr.headSha).conclusion === "action_required");
  expect(gate(pr.headSha).output.title).toBe(`Pending: ${LABEL}`);
});

test("a broken .github/resolve-bot.yml fails the gate with its problems instead of leaving it waiting", async () => {
  const pr = await bot.gh.createPullRequest({ repo: "acme/broken", head: "topic", user: "alice", commits: [{ files: { "b.md": "b\n" } }] });
  await deliver(bot, await bot.gh.webhooks.checkSuite({ repo: "acme/broken", sha: pr.headSha, action: "requested", user: "alice" }));
  const failed = await waitFor("the gate", () => runsOn(bot, "acme/broken", pr.headSha).find((run) => run.name === "resolve-bot"));
  expect([failed.conclusion, failed.output.title]).toEqual(["failure", ".github/resolve-bot.yml has problems"]);
  expect(failed.output.summary).toBe(
    'resolve-bot cannot check this pull request until `.github/resolve-bot.yml` on the default branch is fixed:\n\n- steering: must be one of stack, strict (got "sometimes")',
  );
});
