/**
 * The Action on pull requests from forks. A comment in the conversation (`issue_comment`) runs the
 * default branch's workflow with a write token, which still may not push to the fork: the edit is
 * offered as suggested changes and a patch, as the server does when GitHub refuses the push. A
 * `pull_request_review_comment` on a fork's pull request gets GitHub's read-only token: resolve-bot
 * says in the job's log and summary where to write the command, and writes nothing.
 */
import { commentAndRun, useActionRunner } from "./action-harness.js";

const REPO = "acme/forks";

const runner = useActionRunner(async ({ gh }) => {
  await gh.createRepo("acme", "forks", { "src/a.ts": 'export const a = 1;\nconsole.log("a", a);\n', "src/b.ts": "export const b = 2;\n" });
  gh.setPermission(REPO, "alice", "write");
  // An App's token could push to this fork's branch; the workflow's GITHUB_TOKEN never can.
  gh.setForkPushPolicy("maintainer_can_modify");
});

async function forkPr(head: string, owner: string) {
  return runner().gh.createPullRequest({
    repo: REPO,
    head,
    headRepo: `${owner}/forks`,
    user: owner,
    maintainerCanModify: true,
    commits: [{ files: { "src/b.ts": 'export const b = 2;\nconsole.log("b", b);\n' } }],
  });
}

test("a conversation comment on a fork's pull request: previewed as usual; the apply is offered as suggested changes and a patch", async () => {
  const { gh } = runner();
  const pr = await forkPr("from-fork", "carol");
  const previewed = await commentAndRun(
    runner(),
    REPO,
    pr.number,
    "alice",
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)' --paths src",
  );
  expect([previewed.code, previewed.reactions]).toEqual([0, ["eyes", "rocket"]]);
  expect(previewed.reply).toContain("**AST Edit: 2 replacements in 2 files** — pending, nothing written yet");
  expect(gh.checkRuns(REPO, { headSha: pr.headSha }).map((run) => [run.name, run.status])).toEqual([
    ["resolve-bot: AST Edit: 2 replacements in 2 files", "in_progress"],
    ["resolve-bot", "completed"],
  ]);

  const applied = await commentAndRun(runner(), REPO, pr.number, "alice", "/resolve apply please");
  expect([applied.code, applied.reactions]).toEqual([0, ["eyes", "confused"]]);
  expect(applied.reply).toContain(
    "Apply failed: this pull request comes from the fork carol/forks, and GitHub refused the push to it (Resource not accessible by integration). The edit stays pending; it is offered in [a review](",
  );
  const [review] = gh.reviews(REPO, pr.number);
  expect(review!.user).toBe(gh.actionsBotLogin);
  expect(review!.comments.map((c) => [c.path, c.startLine, c.line, c.body])).toEqual([
    ["src/b.ts", null, 2, '```suggestion\nlogger.info("b", b);\n```'],
  ]);
  expect(review!.body).toContain("The rest, as a patch for `git apply`:");
  expect(await gh.branchSha("carol/forks", "from-fork")).toBe(pr.headSha);
});

test("a line comment on a fork's pull request (read-only token): no error, no write; the job's log and summary say where to ask", async () => {
  const { gh } = runner();
  const pr = await forkPr("line-from-fork", "dave");
  const event = await gh.webhooks.reviewComment({
    repo: REPO,
    number: pr.number,
    user: "alice",
    body: "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
    path: "src/b.ts",
    line: 2,
  });
  gh.clearLog();
  const run = await runner().run(event, { env: { INPUT_TOKEN: gh.actionsToken({ readOnly: true }) } });
  expect(run.code).toBe(0);
  const notice =
    "This pull_request_review_comment event is on a pull request from the fork dave/forks: GitHub gives its workflow a read-only token, so resolve-bot cannot answer on the pull request.";
  expect(run.output).toContain(`::notice::${notice}`);
  expect(run.summary).toContain(notice);
  expect(run.summary).toContain("Write the command in the pull request's conversation instead");
  expect(gh.log()).toEqual([]);
});

test("the emulator's read-only GITHUB_TOKEN: reads work, every write gets GitHub's 403", async () => {
  const { gh } = runner();
  const { number } = await forkPr("read-only", "erin");
  const token = gh.actionsToken({ readOnly: true });
  const headers = { authorization: `token ${token}`, "content-type": "application/json" };
  const read = await fetch(`${gh.apiUrl}/repos/${REPO}/pulls/${number}`, { headers });
  expect(read.status).toBe(200);
  const pr = (await read.json()) as { head: { sha: string } };
  const write = await fetch(`${gh.apiUrl}/repos/${REPO}/check-runs`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "x", head_sha: pr.head.sha }),
  });
  expect(write.status).toBe(403);
  expect(((await write.json()) as { message: string }).message).toBe("Resource not accessible by integration");
});
