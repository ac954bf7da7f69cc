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

const runner = useActionRunner(async ({ gh }) => {
  await gh.createRepo("acme", "widgets", BASE_FILES);
  gh.setPermission(REPO, "alice", "write");
  gh.setPermission(REPO, "rita", "read");
});

async function openPr({ gh }: ActionRunner, head: string) {
  return gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

function actionRuns({ gh }: ActionRunner, sha: string) {
  return gh.checkRuns(REPO, { headSha: sha });
}

test("a preview, then /resolve apply: one verified commit with the trailers, made as github-actions[bot]; the gate has no buttons", async () => {
  const pr = await openPr(runner(), "action-apply");
  const previewed = await commentAndRun(runner(), REPO, pr.number, "alice", PREVIEW);
  expect([previewed.code, previewed.reactions]).toEqual([0, ["eyes", "rocket"]]);
  expect(previewed.reply).toContain("**AST Edit: 2 replacements in 2 files** — pending #1, nothing written yet");
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
  expect(previewed.summary).toContain("**AST Edit: 2 replacements in 2 files** — pending #1");

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
