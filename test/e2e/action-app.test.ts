/**
 * The Action with a GitHub App's id and private key as inputs (`app-id`, `private-key`): it mints a
 * token for the repository's installation as actions/create-github-app-token does, and then acts
 * as that App (its check runs, its bot's replies and commits), so its pushes start workflows.
 */
import { commentAndRun, useActionRunner } from "./action-harness.js";

const REPO = "acme/apps";

const runner = useActionRunner(async ({ gh }) => {
  await gh.createRepo("acme", "apps", { "src/a.ts": 'console.log("a");\n' });
  gh.setPermission(REPO, "alice", "write");
});

/** The App's inputs; `token` keeps its default (the runner still passes the workflow's token): the App wins. */
function appInputs(privateKey: string, appId: string): Record<string, string | undefined> {
  return { "INPUT_APP-ID": appId, "INPUT_PRIVATE-KEY": privateKey };
}

test("app-id + private-key: a token for the repository's installation; check runs, replies and the commit are the App's", async () => {
  const { gh } = runner();
  const pr = await gh.createPullRequest({ repo: REPO, head: "as-app", user: "alice", commits: [{ files: { "docs/x.md": "x\n" } }] });
  gh.clearLog();
  // A key pasted into a secret on one line, with literal \n, works too.
  const inputs = appInputs(gh.privateKey.replace(/\n/g, "\\n"), String(gh.appId));
  const previewed = await commentAndRun(
    runner(),
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
    {
      env: inputs,
    },
  );
  expect(previewed.code).toBe(0);
  const minted = gh.log().filter((entry) => entry.path.startsWith("/app") || entry.path.endsWith("/installation"));
  expect(minted.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
    ["GET", `/repos/${REPO}/installation`, 200],
    ["POST", `/app/installations/${gh.installationId}/access_tokens`, 201],
  ]);
  expect(gh.comments(REPO, pr.number).map((entry) => entry.user)).toEqual(["alice", gh.botLogin]);
  const runs = gh.checkRuns(REPO, { headSha: pr.headSha });
  expect(runs.map((run) => [run.name, run.appId])).toEqual([
    ["resolve-bot: AST Edit: 1 replacement in 1 file", gh.appId],
    ["resolve-bot", gh.appId],
  ]);
  expect(runs.find((run) => run.name === "resolve-bot")!.actions).toEqual([]);

  const applied = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply go", { env: inputs });
  expect(applied.code).toBe(0);
  const head = (await gh.branchSha(REPO, "as-app"))!;
  const commit = await gh.commit(REPO, head);
  expect([commit.author.name, commit.verified, commit.parents]).toEqual([gh.botLogin, true, [pr.headSha]]);
  expect(await gh.fileAt(REPO, head, "src/a.ts")).toBe('logger.info("a");\n');
});

test("app-id without private-key: the step fails saying the two go together, and nothing is called", async () => {
  const { gh } = runner();
  const pr = await gh.createPullRequest({ repo: REPO, head: "half-app", user: "alice", commits: [{ files: { "docs/y.md": "y\n" } }] });
  gh.clearLog();
  const run = await commentAndRun(runner(), REPO, pr.number, "alice", "/pending", { env: { ...appInputs("", String(gh.appId)) } });
  expect(run.code).toBe(1);
  expect(run.output).toContain("::error::resolve-bot cannot run: the `app-id` and `private-key` inputs go together");
  expect(gh.log()).toEqual([]);
});
