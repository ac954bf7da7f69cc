/**
 * The GitHub emulator driven by a real Octokit (ProbotOctokit, JWT → installation token), with
 * git-level assertions on the bare repositories and OpenAPI conformance of every response.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHmac, generateKeyPairSync, createSign } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import tar from "tar-stream";
import { GitHubEmulator, OpenApiValidator, SECONDARY_RATE_LIMIT_MESSAGE, signWebhook, type Violation } from "./emulator/index.js";

type Octokit = InstanceType<typeof ProbotOctokit>;

const REPO = "acme/widgets";
const [owner, repo] = ["acme", "widgets"];

let emulator: GitHubEmulator;
let octokit: Octokit;
let pr: { number: number; headSha: string; baseSha: string };
let forkPr: { number: number; headSha: string; headRepo: string };
const violations: Violation[] = [];

function makeOctokit(auth: Record<string, unknown>): Octokit {
  return new ProbotOctokit({
    baseUrl: emulator.apiUrl,
    auth,
    retry: { enabled: false },
    throttle: { enabled: false },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
}

async function status(p: Promise<unknown>): Promise<{ status: number; message: string; headers: Record<string, unknown> }> {
  try {
    const r = (await p) as { status: number };
    return { status: r.status, message: "", headers: {} };
  } catch (err) {
    const e = err as { status?: number; message?: string; response?: { headers?: Record<string, unknown>; data?: { message?: string } } };
    if (typeof e.status !== "number") throw err;
    return { status: e.status, message: e.response?.data?.message ?? e.message ?? "", headers: e.response?.headers ?? {} };
  }
}

function jwt(appId: number, privateKeyPem: string): string {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");
  const data = `${enc({ alg: "RS256", typ: "JWT" })}.${enc({ iat: now - 30, exp: now + 300, iss: appId })}`;
  return `${data}.${createSign("RSA-SHA256").update(data).sign(privateKeyPem, "base64url")}`;
}

beforeAll(async () => {
  emulator = await GitHubEmulator.start();
  await emulator.createRepo(owner, repo, {
    "README.md": "# widgets\n",
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
    "docs/guide.md": "guide\n",
    ".github/resolve-bot.yml": "enabled: true\nlimit: 3\n",
  });
  await emulator.createRepo(owner, ".github", { ".github/other.yml": "org: default\n" });
  pr = await emulator.createPullRequest({
    repo: REPO,
    head: "feature",
    user: "alice",
    title: "Tweak a",
    commits: [{ files: { "src/a.ts": "export const a = 10;\n" }, message: "tweak a" }],
  });
  forkPr = await emulator.createPullRequest({
    repo: REPO,
    head: "fix",
    headRepo: "mallory/widgets",
    user: "mallory",
    commits: [{ files: { "src/b.ts": "export const b = 20;\n" } }],
  });
  octokit = makeOctokit({ appId: emulator.appId, privateKey: emulator.privateKey, installationId: emulator.installationId });
});

afterEach(() => {
  violations.push(...emulator.validateLog());
  emulator.clearLog();
  emulator.clearFaults();
});

afterAll(async () => {
  await emulator?.stop();
});

describe("authentication", () => {
  it("exchanges a real app JWT for an installation token and uses it", async () => {
    const app = makeOctokit({ appId: emulator.appId, privateKey: emulator.privateKey });
    const me = await app.rest.apps.getAuthenticated();
    expect(me.data?.id).toBe(emulator.appId);
    const installations = await app.rest.apps.listInstallations();
    expect(installations.data.map((i) => i.id)).toEqual([emulator.installationId]);
    const inst = await app.rest.apps.getRepoInstallation({ owner, repo });
    expect(inst.data.id).toBe(emulator.installationId);

    const r = await octokit.rest.repos.get({ owner, repo });
    expect(r.data.default_branch).toBe("main");
    const exchange = emulator.log().filter((e) => e.path === `/app/installations/${emulator.installationId}/access_tokens`);
    expect(exchange.map((e) => e.status)).toEqual([201]);
    expect(emulator.writes()).toEqual([]);
  });

  it("answers 401 without a token, with a bad token, and with a JWT signed by another key", async () => {
    const noAuth = await fetch(`${emulator.apiUrl}/repos/${REPO}`);
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({ message: "Bad credentials" });
    const bad = await fetch(`${emulator.apiUrl}/repos/${REPO}`, { headers: { authorization: "token ghs_nope" } });
    expect(bad.status).toBe(401);

    const other = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const forged = await fetch(`${emulator.apiUrl}/app/installations/${emulator.installationId}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt(emulator.appId, other.privateKey)}` },
    });
    expect(forged.status).toBe(401);
    const good = await fetch(`${emulator.apiUrl}/app/installations/${emulator.installationId}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt(emulator.appId, emulator.privateKey)}` },
    });
    expect(good.status).toBe(201);
    const { token } = (await good.json()) as { token: string };
    const bearer = await fetch(`${emulator.apiUrl}/repos/${REPO}`, { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
    const wrongApp = await fetch(`${emulator.apiUrl}/app`, {
      headers: { authorization: `Bearer ${jwt(emulator.appId + 1, emulator.privateKey)}` },
    });
    expect(wrongApp.status).toBe(401);
  });

  it("answers GET /user for a person's OAuth token or fine-grained PAT; 401 for an unknown, expired or installation token", async () => {
    const oauth = emulator.userToken("alice");
    const pat = emulator.userToken("bob", { kind: "pat" });
    expect(oauth).toMatch(/^ghu_/);
    expect(pat).toMatch(/^github_pat_/);
    const asAlice = await makeOctokit({ token: oauth }).rest.users.getAuthenticated();
    expect([asAlice.data.login, asAlice.data.type]).toEqual(["alice", "User"]);
    const asBob = await makeOctokit({ token: pat }).rest.users.getAuthenticated();
    expect(asBob.data.login).toBe("bob");

    const expired = emulator.userToken("alice", { ttlMs: -1 });
    const installation = (await octokit.auth({ type: "installation" })) as { token: string };
    for (const token of ["ghu_forged", expired, installation.token]) {
      const answer = await fetch(`${emulator.apiUrl}/user`, { headers: { authorization: `Bearer ${token}` } });
      expect([answer.status, ((await answer.json()) as { message: string }).message]).toEqual([401, "Bad credentials"]);
    }
    // A user token is no installation's: the app's endpoints refuse it.
    expect((await fetch(`${emulator.apiUrl}/repos/${REPO}`, { headers: { authorization: `token ${oauth}` } })).status).toBe(401);
  });
});

describe("review comments on lines", () => {
  it("takes a review's line comments (suggestions) only on lines of the pull request's diff: 422 otherwise", async () => {
    const review = (comments: Array<{ path: string; line: number; start_line?: number }>) =>
      status(
        octokit.rest.pulls.createReview({
          owner,
          repo,
          pull_number: pr.number,
          event: "COMMENT",
          body: "suggestions",
          comments: comments.map((c) => ({ ...c, side: "RIGHT" as const, body: "```suggestion\nx\n```" })),
        }),
      );
    expect(await review([{ path: "src/a.ts", line: 1 }])).toMatchObject({ status: 200 });
    // Past the file's one changed line, on a file the pull request does not touch, and a range reaching out of the diff.
    for (const outside of [
      { path: "src/a.ts", line: 2 },
      { path: "src/b.ts", line: 1 },
      { path: "src/a.ts", start_line: 1, line: 2 },
    ]) {
      expect(await review([outside])).toEqual(expect.objectContaining({ status: 422, message: "Unprocessable Entity" }));
    }
    expect(emulator.reviews(REPO, pr.number).map((r) => r.comments.map((c) => [c.path, c.startLine, c.line]))).toEqual([
      [["src/a.ts", null, 1]],
    ]);
  });

  it("lists threads, replies to a thread's first comment only, and takes reactions on review comments", async () => {
    const top = await emulator.webhooks.reviewComment({
      repo: REPO,
      number: pr.number,
      user: "alice",
      body: "here",
      path: "src/a.ts",
      line: 1,
    });
    const reply = await octokit.rest.pulls.createReplyForReviewComment({
      owner,
      repo,
      pull_number: pr.number,
      comment_id: top.commentId,
      body: "answered",
    });
    expect(reply.status).toBe(201);
    expect(reply.data).toMatchObject({ in_reply_to_id: top.commentId, path: "src/a.ts", line: 1, body: "answered" });
    const nested = octokit.rest.pulls.createReplyForReviewComment({
      owner,
      repo,
      pull_number: pr.number,
      comment_id: reply.data.id,
      body: "x",
    });
    expect(await status(nested)).toMatchObject({ status: 422 });
    const listed = await octokit.rest.pulls.listReviewComments({ owner, repo, pull_number: pr.number });
    expect(listed.data.map((comment) => comment.id)).toEqual([top.commentId, reply.data.id]);
    const created = await octokit.rest.reactions.createForPullRequestReviewComment({
      owner,
      repo,
      comment_id: top.commentId,
      content: "eyes",
    });
    expect(created.status).toBe(201);
    const again = await octokit.rest.reactions.createForPullRequestReviewComment({
      owner,
      repo,
      comment_id: top.commentId,
      content: "eyes",
    });
    expect(again.status).toBe(200);
    const reactions = await octokit.rest.reactions.listForPullRequestReviewComment({ owner, repo, comment_id: top.commentId });
    expect(reactions.data.map((reaction) => reaction.content)).toEqual(["eyes"]);
    expect(await status(octokit.rest.reactions.listForPullRequestReviewComment({ owner, repo, comment_id: 1 }))).toMatchObject({
      status: 404,
    });
  });
});

describe("review threads follow the head", () => {
  it("untouched lines move with the text around them; once a commit changes them, replies carry line null (outdated)", async () => {
    const lines = ["one", "two", "three", "four", "five", "six"];
    const branch = "threads-follow";
    const opened = await emulator.createPullRequest({
      repo: REPO,
      head: branch,
      user: "alice",
      commits: [{ files: { "src/t.ts": `${lines.join("\n")}\n` } }],
    });
    const onThree = await emulator.webhooks.reviewComment({
      repo: REPO,
      number: opened.number,
      user: "alice",
      body: "3",
      path: "src/t.ts",
      line: 3,
    });
    const onFive = await emulator.webhooks.reviewComment({
      repo: REPO,
      number: opened.number,
      user: "alice",
      body: "4-5",
      path: "src/t.ts",
      startLine: 4,
      line: 5,
    });
    const reply = (inReplyTo: number) =>
      emulator.webhooks.reviewComment({ repo: REPO, number: opened.number, user: "alice", body: "re", inReplyTo });

    // Two lines inserted above both threads: they move down by two.
    const inserted = await emulator.pushCommit(REPO, branch, {
      files: { "src/t.ts": `zero\nhalf\n${lines.join("\n")}\n` },
      author: "alice",
    });
    expect((await reply(onFive.commentId)).payload.comment).toMatchObject({
      start_line: 6,
      line: 7,
      position: 7,
      original_start_line: 4,
      original_line: 5,
      commit_id: inserted,
      original_commit_id: opened.headSha,
    });
    // "three" (now line 5) changes: that thread is outdated; the other keeps its lines.
    const changed = ["zero", "half", "one", "two", "THREE", "four", "five", "six"];
    await emulator.pushCommit(REPO, branch, { files: { "src/t.ts": `${changed.join("\n")}\n` }, author: "alice" });
    expect((await reply(onThree.commentId)).payload.comment).toMatchObject({
      line: null,
      position: null,
      start_line: null,
      original_line: 3,
    });
    expect((await reply(onFive.commentId)).payload.comment).toMatchObject({ start_line: 6, line: 7 });
    const listed = await octokit.rest.pulls.listReviewComments({ owner, repo, pull_number: opened.number });
    expect(listed.data.find((comment) => comment.id === onThree.commentId)).not.toHaveProperty("line");
  });
});

describe("pull requests, permissions, comments", () => {
  it("reads same-repo and fork pull requests", async () => {
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr.number });
    expect(data.head).toMatchObject({ sha: pr.headSha, ref: "feature", repo: { full_name: REPO } });
    expect(data.base).toMatchObject({ sha: pr.baseSha, ref: "main", repo: { full_name: REPO } });
    expect(data.user.login).toBe("alice");
    expect(data.commits).toBe(1);
    expect(pr.headSha).toBe(await emulator.branchSha(REPO, "feature"));

    const fork = await octokit.rest.pulls.get({ owner, repo, pull_number: forkPr.number });
    expect(fork.data.head.repo?.full_name).toBe("mallory/widgets");
    expect(fork.data.base.repo.full_name).toBe(REPO);
    expect(fork.data.maintainer_can_modify).toBe(true);
    expect(fork.data.head.sha).toBe(forkPr.headSha);
    // The fork head is fetched into the base repository like refs/pull/N/head.
    expect((await emulator.runGit(REPO, ["rev-parse", `refs/pull/${forkPr.number}/head`])).trim()).toBe(forkPr.headSha);

    expect((await status(octokit.rest.pulls.get({ owner, repo, pull_number: 999 }))).status).toBe(404);
  });

  it("maps fine-grained roles to classic permissions", async () => {
    emulator.setPermission(REPO, "mia", "maintain");
    emulator.setPermission(REPO, "tom", "triage");
    emulator.setPermission(REPO, "wes", "write");
    emulator.setPermission(REPO, "ned", "none");
    const perm = async (username: string): Promise<[string, string]> => {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
      return [data.permission, data.role_name];
    };
    expect(await perm("mia")).toEqual(["write", "maintain"]);
    expect(await perm("tom")).toEqual(["read", "triage"]);
    expect(await perm("wes")).toEqual(["write", "write"]);
    expect(await perm("ned")).toEqual(["none", "none"]);
    expect(await perm("acme")).toEqual(["admin", "admin"]);
    expect((await status(octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: "ghost-user" }))).status).toBe(404);
  });

  it("creates and lists comments and reactions", async () => {
    const created = await octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "preview" });
    expect(created.status).toBe(201);
    expect(created.data.user?.login).toBe(emulator.botLogin);
    const listed = await octokit.rest.issues.listComments({ owner, repo, issue_number: pr.number });
    expect(listed.data.map((c) => c.body)).toContain("preview");

    const first = await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: created.data.id, content: "eyes" });
    expect(first.status).toBe(201);
    const again = await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: created.data.id, content: "eyes" });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: created.data.id, content: "rocket" });
    const reactions = await octokit.rest.reactions.listForIssueComment({ owner, repo, comment_id: created.data.id });
    expect(reactions.data.map((r) => r.content).sort()).toEqual(["eyes", "rocket"]);
    expect(emulator.reactions(created.data.id)).toHaveLength(2);
    expect(emulator.comments(REPO, pr.number).map((c) => c.user)).toContain(emulator.botLogin);
    expect((await status(octokit.rest.issues.createComment({ owner, repo, issue_number: 4040, body: "x" }))).status).toBe(404);
  });
});

describe("check runs", () => {
  it("creates, updates (annotations append) and reads a run", async () => {
    const actions = [{ label: "Apply", description: "Commit the previewed change", identifier: "apply" }];
    const created = await octokit.rest.checks.create({
      owner,
      repo,
      name: "resolve-bot/pending",
      head_sha: pr.headSha,
      status: "in_progress",
      external_id: "action-1",
      details_url: "https://example.com/details",
      output: { title: "Pending", summary: "one change", text: "diff" },
      actions,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ status: "in_progress", conclusion: null, external_id: "action-1", app: { id: emulator.appId } });
    expect(created.data.pull_requests.map((p) => p.number)).toEqual([pr.number]);

    const annotations = (n: number, offset: number) =>
      Array.from({ length: n }, (_, i) => ({
        path: "src/a.ts",
        start_line: i + offset,
        end_line: i + offset,
        annotation_level: "notice" as const,
        message: `m${i + offset}`,
      }));
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: created.data.id,
      output: { title: "Pending", summary: "s", annotations: annotations(50, 1) },
    });
    const done = await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: created.data.id,
      conclusion: "success",
      output: { title: "Applied", summary: "done", annotations: annotations(50, 51) },
    });
    expect(done.data).toMatchObject({ status: "completed", conclusion: "success" });
    expect(done.data.completed_at).toEqual(expect.any(String));
    expect(done.data.output.annotations_count).toBe(100);
    const got = await octokit.rest.checks.get({ owner, repo, check_run_id: created.data.id });
    expect(got.data.output.title).toBe("Applied");
    const listed = await octokit.rest.checks.listAnnotations({ owner, repo, check_run_id: created.data.id, per_page: 100 });
    expect(listed.data).toHaveLength(100);
    expect(emulator.checkRuns(REPO, { name: "resolve-bot/pending" })[0]?.actions).toEqual(actions);
  });

  it("enforces GitHub's limits with 422", async () => {
    const base = { owner, repo, name: "limits", head_sha: pr.headSha };
    const tooMany = Array.from({ length: 51 }, (_, i) => ({
      path: "a",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "notice" as const,
      message: "m",
    }));
    expect((await status(octokit.rest.checks.create({ ...base, output: { title: "t", summary: "s", annotations: tooMany } }))).status).toBe(
      422,
    );
    expect((await status(octokit.rest.checks.create({ ...base, output: { title: "t", summary: "x".repeat(65536) } }))).status).toBe(422);
    expect(
      (await status(octokit.rest.checks.create({ ...base, output: { title: "t", summary: "s", text: "x".repeat(65536) } }))).status,
    ).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, output: { title: "t", summary: "x".repeat(65535) } }))).status).toBe(201);
    const action = { label: "ok", description: "ok", identifier: "ok" };
    expect((await status(octokit.rest.checks.create({ ...base, actions: [action, action, action, action] }))).status).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, actions: [{ ...action, label: "x".repeat(21) }] }))).status).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, actions: [{ ...action, description: "x".repeat(41) }] }))).status).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, actions: [{ ...action, identifier: "x".repeat(21) }] }))).status).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, head_sha: "0".repeat(40) }))).status).toBe(422);
    expect((await status(octokit.rest.checks.create({ ...base, status: "completed" }))).status).toBe(422);
  });

  it("lists per ref with check_name, status, filter, app_id and pagination, newest first", async () => {
    const sha = await emulator.createBranch(REPO, "list-target", "main");
    const mk = (name: string, status?: "in_progress" | "completed") =>
      octokit.rest.checks.create({
        owner,
        repo,
        name,
        head_sha: sha,
        ...(status === "completed" ? { conclusion: "neutral" as const } : status ? { status } : {}),
      });
    const r1 = await mk("alpha", "in_progress");
    const r2 = await mk("alpha", "completed");
    const r3 = await mk("beta", "in_progress");
    emulator.addCheckRun(REPO, { headSha: sha, name: "ci", conclusion: "success", appId: 15368 });

    const list = async (q: Record<string, unknown>) => (await octokit.rest.checks.listForRef({ owner, repo, ref: sha, ...q })).data;
    const latest = await list({});
    expect(latest.check_runs.map((r) => r.name)).toEqual(["ci", "beta", "alpha"]);
    expect(latest.check_runs.find((r) => r.name === "alpha")?.id).toBe(r2.data.id);
    const all = await list({ filter: "all" });
    expect(all.total_count).toBe(4);
    expect(all.check_runs.map((r) => r.id).slice(1)).toEqual([r3.data.id, r2.data.id, r1.data.id]);
    expect((await list({ filter: "all", check_name: "alpha" })).check_runs.map((r) => r.id)).toEqual([r2.data.id, r1.data.id]);
    expect((await list({ status: "in_progress" })).check_runs.map((r) => r.name)).toEqual(["beta"]);
    expect((await list({ filter: "all", status: "in_progress" })).check_runs.map((r) => r.id)).toEqual([r3.data.id, r1.data.id]);
    expect((await list({ app_id: emulator.appId })).check_runs.map((r) => r.name)).toEqual(["beta", "alpha"]);
    expect((await list({ app_id: 15368 })).check_runs.map((r) => r.name)).toEqual(["ci"]);
    const page2 = await list({ filter: "all", per_page: 3, page: 2 });
    expect(page2.total_count).toBe(4);
    expect(page2.check_runs.map((r) => r.id)).toEqual([r1.data.id]);
    const byBranch = await octokit.rest.checks.listForRef({ owner, repo, ref: "list-target", check_name: "beta" });
    expect(byBranch.data.check_runs.map((r) => r.id)).toEqual([r3.data.id]);
    const paged = await octokit.paginate(octokit.rest.checks.listForRef, { owner, repo, ref: sha, filter: "all", per_page: 1 });
    expect(paged).toHaveLength(4);
  });
});

describe("git data", () => {
  it("commits through blobs, trees, commits and refs, checked with git", async () => {
    const head = (await emulator.branchSha(REPO, "feature"))!;
    const headCommit = await octokit.rest.git.getCommit({ owner, repo, commit_sha: head });
    const baseTree = headCommit.data.tree.sha;
    const oldTree = await octokit.rest.git.getTree({ owner, repo, tree_sha: baseTree, recursive: "1" });
    const bSha = oldTree.data.tree.find((e) => e.path === "src/b.ts")!.sha;

    const binary = Buffer.from([0, 1, 2, 255, 254, 10]);
    const blob = await octokit.rest.git.createBlob({ owner, repo, content: binary.toString("base64"), encoding: "base64" });
    expect(blob.status).toBe(201);
    const text = await octokit.rest.git.createBlob({ owner, repo, content: "héllo\n", encoding: "utf-8" });
    const fetched = await octokit.rest.git.getBlob({ owner, repo, file_sha: text.data.sha });
    expect(Buffer.from(fetched.data.content, "base64").toString("utf8")).toBe("héllo\n");

    const tree = await octokit.rest.git.createTree({
      owner,
      repo,
      base_tree: baseTree,
      tree: [
        { path: "src/a.ts", mode: "100644", type: "blob", content: "export const a = 42;\n" },
        { path: "src/b.ts", mode: "100644", type: "blob", sha: null },
        { path: "lib/renamed/b.ts", mode: "100644", type: "blob", sha: bSha },
        { path: "docs/guide.md", mode: "100644", type: "blob", sha: null },
        { path: "assets/logo.bin", mode: "100644", type: "blob", sha: blob.data.sha },
        { path: "hello.txt", mode: "100755", type: "blob", sha: text.data.sha },
      ],
    });
    expect(tree.status).toBe(201);
    const commit = await octokit.rest.git.createCommit({
      owner,
      repo,
      message: "Apply resolve-bot change\n\nbody",
      tree: tree.data.sha,
      parents: [head],
    });
    expect(commit.status).toBe(201);
    expect(commit.data.verification).toMatchObject({ verified: true, reason: "valid" });
    expect(commit.data.author.name).toBe(emulator.botLogin);
    const ref = await octokit.rest.git.updateRef({ owner, repo, ref: "heads/feature", sha: commit.data.sha, force: false });
    expect(ref.data.object.sha).toBe(commit.data.sha);

    // Everything below is read back with git from the bare repository.
    expect(await emulator.branchSha(REPO, "feature")).toBe(commit.data.sha);
    const files = await emulator.filesAt(REPO, "feature");
    expect(Object.keys(files).sort()).toEqual([
      ".github/resolve-bot.yml",
      "README.md",
      "assets/logo.bin",
      "hello.txt",
      "lib/renamed/b.ts",
      "src/a.ts",
    ]);
    expect(files["src/a.ts"]).toBe("export const a = 42;\n");
    expect(await emulator.fileBufferAt(REPO, "feature", "assets/logo.bin")).toEqual(binary);
    const entries = await emulator.treeAt(REPO, "feature");
    expect(entries.find((e) => e.path === "lib/renamed/b.ts")?.sha).toBe(bSha);
    expect(entries.find((e) => e.path === "hello.txt")?.mode).toBe("100755");
    expect(entries.some((e) => e.path === "docs")).toBe(false);
    const info = await emulator.commit(REPO, "feature");
    expect(info).toMatchObject({ message: "Apply resolve-bot change\n\nbody", parents: [head], tree: tree.data.sha, verified: true });
    expect((await emulator.runGit(REPO, ["cat-file", "-t", bSha])).trim()).toBe("blob");
    const getRef = await octokit.rest.git.getRef({ owner, repo, ref: "heads/feature" });
    expect(getRef.data.object.sha).toBe(commit.data.sha);
    const getCommit = await octokit.rest.git.getCommit({ owner, repo, commit_sha: commit.data.sha });
    expect(getCommit.data.verification.verified).toBe(true);
    const recursive = await octokit.rest.git.getTree({ owner, repo, tree_sha: commit.data.sha, recursive: "1" });
    expect(
      recursive.data.tree
        .filter((e) => e.type === "blob")
        .map((e) => e.path)
        .sort(),
    ).toEqual(Object.keys(files).sort());

    // A commit with an explicit author is not signed; a new branch via POST refs.
    const authored = await octokit.rest.git.createCommit({
      owner,
      repo,
      message: "by hand",
      tree: tree.data.sha,
      parents: [commit.data.sha],
      author: { name: "Ann", email: "ann@example.com", date: "2024-05-01T10:00:00Z" },
    });
    expect(authored.data.verification.verified).toBe(false);
    expect(authored.data.author).toMatchObject({ name: "Ann", date: "2024-05-01T10:00:00Z" });
    const newRef = await octokit.rest.git.createRef({ owner, repo, ref: "refs/heads/by-hand", sha: authored.data.sha });
    expect(newRef.status).toBe(201);
    expect((await status(octokit.rest.git.createRef({ owner, repo, ref: "refs/heads/by-hand", sha: authored.data.sha }))).status).toBe(422);
    // GET commits/{ref} and branches/{branch}
    expect((await octokit.rest.repos.getCommit({ owner, repo, ref: "by-hand" })).data.sha).toBe(authored.data.sha);
    expect((await octokit.rest.repos.getBranch({ owner, repo, branch: "by-hand" })).data.commit.sha).toBe(authored.data.sha);
  });

  it("rejects non-fast-forward ref updates after a concurrent push, unless forced", async () => {
    const head = (await emulator.branchSha(REPO, "feature"))!;
    const { data: c } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: head });
    const tree = await octokit.rest.git.createTree({
      owner,
      repo,
      base_tree: c.tree.sha,
      tree: [{ path: "race.txt", mode: "100644", type: "blob", content: "bot\n" }],
    });
    const commit = await octokit.rest.git.createCommit({ owner, repo, message: "bot change", tree: tree.data.sha, parents: [head] });
    let pushed = "";
    emulator.onceBefore("PATCH /repos/:o/:r/git/refs/*", async () => {
      pushed = await emulator.pushCommit(REPO, "feature", { files: { "human.txt": "human\n" }, message: "human push", author: "alice" });
    });
    const res = await status(octokit.rest.git.updateRef({ owner, repo, ref: "heads/feature", sha: commit.data.sha, force: false }));
    expect(res).toMatchObject({ status: 422, message: "Update is not a fast forward" });
    expect(await emulator.branchSha(REPO, "feature")).toBe(pushed);
    expect((await emulator.commit(REPO, pushed)).parents).toEqual([head]);
    // The hook ran once; a forced update wins.
    const forced = await octokit.rest.git.updateRef({ owner, repo, ref: "heads/feature", sha: commit.data.sha, force: true });
    expect(forced.status).toBe(200);
    expect(await emulator.fileAt(REPO, "feature", "race.txt")).toBe("bot\n");
    expect(await emulator.fileAt(REPO, "feature", "human.txt")).toBeUndefined();
    expect((await status(octokit.rest.git.updateRef({ owner, repo, ref: "heads/nope", sha: commit.data.sha }))).status).toBe(422);
  });

  it("rejects sha + content, bad modes and unknown parents", async () => {
    const head = (await emulator.branchSha(REPO, "main"))!;
    const blob = await octokit.rest.git.createBlob({ owner, repo, content: "x" });
    const both = await status(
      octokit.rest.git.createTree({ owner, repo, tree: [{ path: "x", mode: "100644", type: "blob", sha: blob.data.sha, content: "x" }] }),
    );
    expect(both.status).toBe(422);
    expect(
      (await status(octokit.rest.git.createTree({ owner, repo, tree: [{ path: "../x", mode: "100644", type: "blob", content: "x" }] })))
        .status,
    ).toBe(422);
    expect(
      (await status(octokit.rest.git.createTree({ owner, repo, tree: [{ path: "x", mode: "100644", type: "blob", sha: "1".repeat(40) }] })))
        .status,
    ).toBe(422);
    const { data: c } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: head });
    expect(
      (await status(octokit.rest.git.createCommit({ owner, repo, message: "m", tree: c.tree.sha, parents: ["2".repeat(40)] }))).status,
    ).toBe(422);
    // Nested paths without a base tree build nested trees.
    const nested = await octokit.rest.git.createTree({
      owner,
      repo,
      tree: [{ path: "a/b/c.txt", mode: "100644", type: "blob", content: "deep" }],
    });
    expect(nested.data.tree).toEqual([expect.objectContaining({ path: "a", type: "tree" })]);
    const deep = await octokit.rest.git.getTree({ owner, repo, tree_sha: nested.data.sha, recursive: "true" });
    expect(deep.data.tree.map((e) => e.path)).toEqual(["a", "a/b", "a/b/c.txt"]);
  });

  it("refuses workflow changes without the workflows permission", async () => {
    const head = (await emulator.branchSha(REPO, "feature"))!;
    const { data: c } = await octokit.rest.git.getCommit({ owner, repo, commit_sha: head });
    const tree = await octokit.rest.git.createTree({
      owner,
      repo,
      base_tree: c.tree.sha,
      tree: [{ path: ".github/workflows/x.yml", mode: "100644", type: "blob", content: "on: push\n" }],
    });
    const commit = await octokit.rest.git.createCommit({ owner, repo, message: "ci", tree: tree.data.sha, parents: [head] });
    const refused = await status(octokit.rest.git.updateRef({ owner, repo, ref: "heads/feature", sha: commit.data.sha }));
    expect(refused).toMatchObject({
      status: 422,
      message: "refusing to allow a GitHub App to create or update workflow `.github/workflows/x.yml` without `workflows` permission",
    });
    expect(await emulator.branchSha(REPO, "feature")).toBe(head);
    emulator.grantWorkflows();
    try {
      expect((await octokit.rest.git.updateRef({ owner, repo, ref: "heads/feature", sha: commit.data.sha })).status).toBe(200);
    } finally {
      emulator.revokeWorkflows();
    }
  });

  it("refuses writes to a fork owned by someone else", async () => {
    const res = await status(octokit.rest.git.createBlob({ owner: "mallory", repo: "widgets", content: "x" }));
    expect(res).toMatchObject({ status: 403, message: "Resource not accessible by integration" });
  });
});

describe("content", () => {
  it("serves a tarball with one top-level folder", async () => {
    const sha = (await emulator.branchSha(REPO, "main"))!;
    const res = await octokit.rest.repos.downloadTarballArchive({ owner, repo, ref: "main" });
    const names: string[] = [];
    const contents: Record<string, string> = {};
    await new Promise<void>((resolve, reject) => {
      const extract = tar.extract();
      extract.on("entry", (header, stream, next) => {
        names.push(header.name);
        const chunks: Buffer[] = [];
        stream.on("data", (d: unknown) => chunks.push(d as Buffer));
        stream.on("end", () => {
          contents[header.name] = Buffer.concat(chunks).toString("utf8");
          next();
        });
      });
      extract.on("finish", resolve);
      extract.on("error", reject);
      extract.end(gunzipSync(Buffer.from(res.data as ArrayBuffer)));
    });
    const prefix = `acme-widgets-${sha.slice(0, 7)}/`;
    expect(names.every((n) => n.startsWith(prefix))).toBe(true);
    expect(contents[`${prefix}src/a.ts`]).toBe("export const a = 1;\n");
    expect(names).toContain(`${prefix}.github/resolve-bot.yml`);
    const redirect = emulator.log().find((e) => e.path === `/repos/${REPO}/tarball/main`);
    expect(redirect?.status).toBe(302);
  });

  it("serves contents (base64, raw, directories, 404) and Probot's config lookup", async () => {
    const { data } = await octokit.rest.repos.getContent({ owner, repo, path: "src/a.ts" });
    expect(Array.isArray(data)).toBe(false);
    const file = data as { content: string; encoding: string; type: string };
    expect(file).toMatchObject({ type: "file", encoding: "base64" });
    expect(Buffer.from(file.content, "base64").toString("utf8")).toBe("export const a = 1;\n");
    const onBranch = await octokit.rest.repos.getContent({ owner, repo, path: "src/a.ts", ref: "feature" });
    expect(Buffer.from((onBranch.data as { content: string }).content, "base64").toString("utf8")).not.toBe("export const a = 1;\n");
    const dir = await octokit.rest.repos.getContent({ owner, repo, path: "src" });
    expect((dir.data as Array<{ name: string }>).map((e) => e.name)).toEqual(["a.ts", "b.ts"]);
    const raw = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      owner,
      repo,
      path: "README.md",
      mediaType: { format: "raw" },
    });
    expect(raw.data).toBe("# widgets\n");
    expect((await status(octokit.rest.repos.getContent({ owner, repo, path: "missing.txt" }))).status).toBe(404);

    const config = await octokit.config.get({ owner, repo, path: ".github/resolve-bot.yml" });
    expect(config.config).toEqual({ enabled: true, limit: 3 });
    const fallback = await octokit.config.get({ owner, repo, path: ".github/other.yml" });
    expect(fallback.config).toEqual({ org: "default" });
    expect(fallback.files.map((f) => f.repo)).toEqual(["widgets", ".github"]);
  });
});

describe("faults, hooks and the request log", () => {
  it("injects statuses, delays and secondary rate limits", async () => {
    const fault = emulator.injectFault({ method: "GET", path: "/repos/:o/:r/pulls/:n", status: 502, times: 2 });
    expect((await status(octokit.rest.pulls.get({ owner, repo, pull_number: pr.number }))).status).toBe(502);
    expect((await status(octokit.rest.pulls.get({ owner, repo, pull_number: pr.number }))).status).toBe(502);
    expect((await status(octokit.rest.pulls.get({ owner, repo, pull_number: pr.number }))).status).toBe(200);
    expect(fault.hits).toBe(2);

    emulator.injectFault({ path: "POST /repos/:o/:r/issues/:n/comments", secondaryRateLimit: { retryAfter: 7 } });
    const limited = await status(octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "x" }));
    expect(limited.status).toBe(403);
    expect(limited.message).toBe(SECONDARY_RATE_LIMIT_MESSAGE);
    expect(limited.headers["retry-after"]).toBe("7");
    expect((await status(octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "x" }))).status).toBe(201);

    emulator.injectFault({ method: "GET", path: "/repos/:o/:r", delayMs: 150 });
    const t0 = Date.now();
    expect((await octokit.rest.repos.get({ owner, repo })).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);

    emulator.injectFault({
      method: "POST",
      path: "/repos/:o/:r/check-runs",
      status: 500,
      body: { message: "boom", documentation_url: "x" },
    });
    const boom = await status(octokit.rest.checks.create({ owner, repo, name: "n", head_sha: pr.headSha }));
    expect(boom).toMatchObject({ status: 500, message: "boom" });
    expect(
      emulator
        .log()
        .filter((e) => e.fault)
        .map((e) => e.status),
    ).toEqual([502, 502, 403, 500]);
  });

  it("a fault `when: after` carries the write out, then answers with the fault (the answer was lost)", async () => {
    const comments = emulator.comments(REPO, pr.number).length;
    emulator.injectFault({ path: "POST /repos/:o/:r/issues/:n/comments", status: 502, when: "after" });
    expect((await status(octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "lost answer" }))).status).toBe(
      502,
    );
    expect(
      emulator
        .comments(REPO, pr.number)
        .slice(comments)
        .map((c) => c.body),
    ).toEqual(["lost answer"]);
    emulator.injectFault({ path: "POST /repos/:o/:r/issues/:n/comments", secondaryRateLimit: { retryAfter: 3 }, when: "after" });
    const limited = await status(octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "limited" }));
    expect([limited.status, limited.headers["retry-after"]]).toEqual([403, "3"]);
    expect(
      emulator
        .comments(REPO, pr.number)
        .slice(comments)
        .map((c) => c.body),
    ).toEqual(["lost answer", "limited"]);
    expect(
      emulator
        .log()
        .filter((e) => e.fault)
        .map((e) => e.status),
    ).toEqual([502, 403]);
  });

  it("logs requests with method, path, query, status, body and time; writes() skips GETs and the token exchange", async () => {
    const before = new Date();
    await octokit.rest.checks.listForRef({ owner, repo, ref: pr.headSha, check_name: "x", per_page: 5 });
    await octokit.rest.issues.createComment({ owner, repo, issue_number: pr.number, body: "logged" });
    const log = emulator.log();
    const list = log.find((e) => e.method === "GET" && e.path.endsWith("/check-runs"))!;
    expect(list).toMatchObject({
      path: `/repos/${REPO}/commits/${pr.headSha}/check-runs`,
      query: { check_name: "x", per_page: "5" },
      status: 200,
    });
    expect(list.operation).toBe("GET /repos/{owner}/{repo}/commits/{ref}/check-runs");
    expect(list.timestamp.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5);
    expect(emulator.writes().map((e) => [e.method, e.path, e.requestBody])).toEqual([
      ["POST", `/repos/${REPO}/issues/${pr.number}/comments`, { body: "logged" }],
    ]);

    const unknown = await status(octokit.request("GET /repos/{owner}/{repo}/hooks", { owner, repo }));
    expect(unknown.status).toBe(404);
    expect(emulator.unmatched().map((e) => e.path)).toEqual([`/repos/${REPO}/hooks`]);
    expect(emulator.validateLog().map((v) => v.errors[0])).toEqual([`no emulated endpoint for GET /repos/${REPO}/hooks`]);
    emulator.clearLog();
    expect(emulator.log()).toEqual([]);
  });
});

describe("webhooks", () => {
  it("delivers signed events that a receiver can verify, with choosable delivery ids", async () => {
    const secret = "s3cret";
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        received.push({ headers: req.headers, body });
        const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
        res.statusCode = req.headers["x-hub-signature-256"] === expected ? 200 : 400;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
    try {
      const event = emulator.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve apply looks good", user: "alice" });
      const first = await emulator.deliver(url, event, { secret });
      expect(first.status).toBe(200);
      const again = await emulator.deliver(url, event, { secret, deliveryId: first.deliveryId });
      expect(again.status).toBe(200);
      expect(received.map((r) => r.headers["x-github-delivery"])).toEqual([first.deliveryId, first.deliveryId]);
      expect(received[0]!.headers["x-github-event"]).toBe("issue_comment");
      const payload = JSON.parse(received[0]!.body) as {
        issue: { number: number; pull_request?: unknown };
        comment: { id: number; body: string; user: { login: string } };
        installation: { id: number };
        repository: { full_name: string };
      };
      expect(payload.issue.number).toBe(pr.number);
      expect(payload.issue.pull_request).toBeDefined();
      expect(payload.comment).toMatchObject({ id: event.commentId, body: "/resolve apply looks good", user: { login: "alice" } });
      expect(payload.installation.id).toBe(emulator.installationId);
      expect(payload.repository.full_name).toBe(REPO);
      // The comment exists in the emulator, so the app can react to it.
      const reaction = await octokit.rest.reactions.createForIssueComment({ owner, repo, comment_id: event.commentId, content: "+1" });
      expect(reaction.status).toBe(201);

      const wrong = await emulator.deliver(url, event, { secret: "other" });
      expect(wrong.status).toBe(400);
      expect(signWebhook(secret, received[0]!.body)).toBe(received[0]!.headers["x-hub-signature-256"]);

      const run = await octokit.rest.checks.create({
        owner,
        repo,
        name: "resolve-bot",
        head_sha: pr.headSha,
        conclusion: "neutral",
        actions: [{ label: "Apply", description: "d", identifier: "apply" }],
      });
      const clicked = await emulator.webhooks.checkRunRequestedAction({
        repo: REPO,
        checkRunId: run.data.id,
        identifier: "apply",
        user: "alice",
      });
      expect(clicked.payload).toMatchObject({
        action: "requested_action",
        requested_action: { identifier: "apply" },
        check_run: { id: run.data.id, head_sha: pr.headSha },
      });
      const sync = await emulator.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "synchronize", before: pr.baseSha });
      expect(sync.payload).toMatchObject({
        action: "synchronize",
        number: pr.number,
        before: pr.baseSha,
        after: await emulator.branchSha(REPO, "feature"),
      });
      emulator.closePullRequest(REPO, pr.number);
      const closed = await emulator.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "closed" });
      expect(closed.payload).toMatchObject({ action: "closed", pull_request: { state: "closed", merged: false } });
      emulator.reopenPullRequest(REPO, pr.number);
      const reopened = await emulator.webhooks.pullRequest({ repo: REPO, number: pr.number, action: "reopened" });
      expect((await emulator.deliver(url, reopened, { secret })).status).toBe(200);

      const validator = OpenApiValidator.shared();
      const payloadErrors = [
        ...validator.validateWebhook("issue_comment", "created", event.payload),
        ...validator.validateWebhook("check_run", "requested_action", clicked.payload),
        ...validator.validateWebhook("pull_request", "synchronize", sync.payload),
        ...validator.validateWebhook("pull_request", "closed", closed.payload),
        ...validator.validateWebhook("pull_request", "reopened", reopened.payload),
      ];
      expect(payloadErrors).toEqual([]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("webhook deliveries (GET /app/hook/deliveries)", () => {
  it("records every delivery it sends as GitHub lists them: answers, failures, faults, redeliveries; pages by cursor; 3 days", async () => {
    const secret = "s3cret";
    let answer = 202;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.statusCode = answer;
        res.setHeader("x-answered-by", "test");
        res.end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
    const appOctokit = makeOctokit({ appId: emulator.appId, privateKey: emulator.privateKey });
    try {
      const before = emulator.deliveries().length;
      const event = emulator.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
      expect((await emulator.deliver(url, event, { secret })).status).toBe(202);
      answer = 503;
      const refused = emulator.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/help", user: "alice" });
      expect((await emulator.deliver(url, refused, { secret })).status).toBe(503);
      emulator.failDeliveries({ event: "issue_comment", mode: "drop" });
      const dropped = await emulator.deliver(url, refused, { secret });
      expect(dropped.status).toBe(0);
      answer = 200;
      emulator.failDeliveries({ mode: "timeout" });
      expect((await emulator.deliver(url, refused, { secret })).status).toBe(200);
      await expect(emulator.deliver("http://127.0.0.1:1/api/github/webhooks", refused, { secret })).rejects.toThrow();

      const list = await appOctokit.request("GET /app/hook/deliveries", { per_page: 2 });
      expect(list.data.map((d) => [d.guid, d.status, d.status_code, d.redelivery])).toEqual([
        [refused.id, "failed to connect", 0, true],
        [refused.id, "timed out", 0, true],
      ]);
      expect(list.data[0]).toMatchObject({ event: "issue_comment", action: "created", installation_id: emulator.installationId });
      expect(String(list.headers.link)).toMatch(/[?&]cursor=v1_\d+.*>; rel="next"$/);
      const all = await appOctokit.paginate("GET /app/hook/deliveries", { per_page: 2 });
      expect(all.slice(0, 5).map((d) => [d.guid, d.status, d.status_code, d.redelivery])).toEqual([
        [refused.id, "failed to connect", 0, true],
        [refused.id, "timed out", 0, true],
        [refused.id, "failed to connect", 0, true],
        [refused.id, "Invalid HTTP Response: 503", 503, false],
        [event.id, "OK", 202, false],
      ]);
      expect(all).toHaveLength(before + 5);
      // `status` (GitHub's filter: 400–599) is missing from the Octokit types installed here.
      const failureQuery = { per_page: 100, status: "failure" };
      const failures = await appOctokit.paginate("GET /app/hook/deliveries", failureQuery);
      expect(failures.filter((d) => d.guid === refused.id).map((d) => d.status_code)).toEqual([503]);

      const detail = await appOctokit.request("GET /app/hook/deliveries/{delivery_id}", { delivery_id: all[4]!.id });
      expect(detail.data.request.payload).toEqual(event.payload);
      expect(detail.data.request.headers).toMatchObject({ "x-github-event": "issue_comment", "x-github-delivery": event.id });
      expect(detail.data.response).toMatchObject({ payload: "ok", headers: { "x-answered-by": "test" } });

      // Older than 3 days: neither listed nor readable.
      const old = emulator.addDelivery({ event: "issue_comment", action: "created", at: Date.now() - 3 * 24 * 3_600_000 - 60_000 });
      expect((await appOctokit.paginate("GET /app/hook/deliveries", { per_page: 100 })).some((d) => d.id === old.id)).toBe(false);
      expect((await status(appOctokit.request("GET /app/hook/deliveries/{delivery_id}", { delivery_id: old.id }))).status).toBe(404);
      // The App's JWT only: an installation token is refused.
      const token = emulator.auth.issueToken(emulator.installationId).token;
      const withToken = await fetch(`${emulator.apiUrl}/app/hook/deliveries`, { headers: { authorization: `token ${token}` } });
      expect(withToken.status).toBe(401);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("with Probot", () => {
  it("runs a Probot app against the emulator over HTTP (GHE base URL, real JWT, signed delivery)", async () => {
    const secret = "probot-secret";
    const probot = new Probot({
      appId: emulator.appId,
      privateKey: emulator.privateKey,
      secret,
      baseUrl: emulator.apiUrl,
      logLevel: "fatal",
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    const seen: string[] = [];
    const middleware = await createNodeMiddleware(
      (app) => {
        app.on("issue_comment.created", async (context) => {
          seen.push(context.id);
          const config = await context.config<{ enabled: boolean }>("resolve-bot.yml");
          await context.octokit.rest.reactions.createForIssueComment(
            context.repo({ comment_id: context.payload.comment.id, content: "eyes" }),
          );
          const { data: pull } = await context.octokit.rest.pulls.get(context.repo({ pull_number: context.payload.issue.number }));
          await context.octokit.rest.checks.create(
            context.repo({
              name: "resolve-bot/pending",
              head_sha: pull.head.sha,
              status: "in_progress",
              output: { title: "t", summary: `enabled=${config?.enabled}` },
            }),
          );
        });
      },
      { probot },
    );
    const server = createServer((req, res) => void middleware(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;
    try {
      const event = emulator.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve preview", user: "alice" });
      const delivered = await emulator.deliver(url, event, { secret, deliveryId: "delivery-1" });
      expect(delivered.status).toBe(200);
      expect(seen).toEqual(["delivery-1"]);
      expect(emulator.reactions(event.commentId).map((r) => [r.user, r.content])).toEqual([[emulator.botLogin, "eyes"]]);
      const head = await emulator.branchSha(REPO, "feature");
      expect(emulator.checkRuns(REPO, { headSha: head, name: "resolve-bot/pending" }).at(-1)?.output.summary).toBe("enabled=true");
      expect(emulator.writes().map((e) => e.operation)).toEqual([
        "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
        "POST /repos/{owner}/{repo}/check-runs",
      ]);
      expect((await emulator.deliver(url, event, { secret: "wrong" })).status).toBe(400);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("git over HTTP (git http-backend)", () => {
  /** git in a fresh empty repository, with `token` as GitHub's app credentials (Basic x-access-token). */
  async function gitWith(token: string | undefined, args: string[], dir?: string): Promise<{ code: number; stderr: string; dir: string }> {
    const where = dir ?? mkdtempSync(path.join(tmpdir(), "emulator-git-client-"));
    if (!dir) execFileSync("git", ["init", "-q", "--bare", where]);
    const header = token === undefined ? {} : authHeaderEnv(token);
    return new Promise((resolve) => {
      execFile(
        "git",
        args,
        { cwd: where, env: { PATH: process.env.PATH ?? "", HOME: where, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", ...header } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr), dir: where }),
      );
    });
  }

  function authHeaderEnv(token: string): Record<string, string> {
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    return { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` };
  }

  it("fetches one commit by its SHA with an installation token, and logs each git request", async () => {
    const token = emulator.auth.issueToken(emulator.installationId).token;
    const fetched = await gitWith(token, ["fetch", "-q", "--depth=1", "--no-tags", emulator.gitUrl(REPO), pr.headSha]);
    expect(fetched).toMatchObject({ code: 0 });
    const show = execFileSync("git", ["show", `${pr.headSha}:src/a.ts`], { cwd: fetched.dir, encoding: "utf8" });
    expect(show).toBe("export const a = 10;\n");
    const log = emulator.gitRequests();
    expect(log.map((e) => [e.method, e.path, e.status, e.git?.service])).toEqual([
      ["GET", "/acme/widgets.git/info/refs", 200, "git-upload-pack"],
      ["POST", "/acme/widgets.git/git-upload-pack", 200, "git-upload-pack"],
    ]);
    expect(log[1]!.git!.responseBytes).toBeGreaterThan(0);
    // Only the asked-for commit: the depth-1 fetch has no parent.
    expect(() => execFileSync("git", ["cat-file", "-e", pr.baseSha], { cwd: fetched.dir, stdio: "ignore" })).toThrow();
  });

  it("answers 401 without a token or with one it did not issue, and 403 to a push", async () => {
    const anonymous = await gitWith(undefined, ["fetch", "-q", emulator.gitUrl(REPO), "main"]);
    expect(anonymous.code).not.toBe(0);
    const forged = await gitWith("ghs_notissued", ["fetch", "-q", emulator.gitUrl(REPO), "main"]);
    expect(forged.code).not.toBe(0);
    expect(emulator.gitRequests().map((e) => e.status)).toEqual([401, 401]);
    emulator.clearLog();
    const token = emulator.auth.issueToken(emulator.installationId).token;
    const fetched = await gitWith(token, ["fetch", "-q", emulator.gitUrl(REPO), "main:refs/heads/main"]);
    expect(fetched.code).toBe(0);
    const pushed = await gitWith(token, ["push", "-q", emulator.gitUrl(REPO), "main:refs/heads/pushed"], fetched.dir);
    expect(pushed.code).not.toBe(0);
    expect(emulator.gitRequests().at(-1)).toMatchObject({ method: "GET", path: "/acme/widgets.git/info/refs", status: 403 });
    expect(await emulator.branchSha(REPO, "pushed")).toBeUndefined();
  });
});

describe("OpenAPI conformance", () => {
  it("flags a response that does not match its schema", () => {
    const errors = OpenApiValidator.shared().validate({
      operation: "GET /repos/{owner}/{repo}/pulls/{pull_number}",
      status: 200,
      body: { number: "1" },
    });
    expect(errors.length).toBeGreaterThan(0);
    expect(OpenApiValidator.shared().validate({ operation: "POST /repos/{owner}/{repo}/check-runs", status: 200, body: {} })).toEqual([
      "status 200 is not a documented response of checks/create",
    ]);
  });

  it("every response the emulator gave in this suite matched GitHub's OpenAPI description", () => {
    expect(violations).toEqual([]);
  });
});
