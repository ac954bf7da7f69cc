import { execFileSync } from "node:child_process";
import { commitChangeSet, gitBlobSha } from "../../../../src/forges/github/edits/commit-writer.js";
import { TransientFailure } from "../../../../src/pipeline/transient.js";
import { ChangeSet } from "../../../../src/workspace/changeset.js";
import { MemoryWorkspace } from "../../../../src/workspace/workspace.js";
import { fakeOctokit } from "../../../helpers/fake-octokit.js";

const HEAD = "c".repeat(40);
const pr = (isFork = false) => ({
  owner: "o",
  repo: "r",
  number: 1,
  headSha: HEAD,
  headRef: "topic",
  headRepo: isFork ? "f/r" : "o/r",
  isFork,
  state: "open",
});
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

function responses() {
  let tree = 0;
  return {
    "git.getCommit": () => ({ sha: HEAD, tree: { sha: "tree0" } }),
    "git.createTree": () => ({ sha: `tree${++tree}` }),
    "git.createBlob": () => ({ sha: "blob-png" }),
    "git.createCommit": () => ({ sha: "d".repeat(40) }),
    "git.updateRef": () => ({}),
  };
}

describe("commitChangeSet", () => {
  test("one commit: chunked trees on base_tree, inline text, blobs for binary, reused shas for renames, null for deletions", async () => {
    const files: Record<string, string | Uint8Array> = { "old.txt": "same\n", "gone.txt": "bye\n", "img.png": png };
    for (let index = 0; index < 400; index++) files[`src/f${String(index).padStart(3, "0")}.ts`] = `export const v = ${index};\n`;
    const changes = new ChangeSet(new MemoryWorkspace(files, HEAD));
    for (let index = 0; index < 400; index++)
      await changes.write(`src/f${String(index).padStart(3, "0")}.ts`, `export const v = ${index + 1};\n`);
    await changes.rename("old.txt", "new.txt");
    await changes.delete("gone.txt");
    await changes.write("img2.png", png);
    const { octokit, calls } = fakeOctokit(responses());

    const sha = await commitChangeSet(octokit, pr(), changes, { message: "msg\n", canWriteWorkflows: async () => false });
    expect(sha).toBe("d".repeat(40));
    expect(calls.map((call) => call.method)).toEqual([
      "git.getCommit",
      "git.createBlob",
      "git.createTree",
      "git.createTree",
      "git.createTree",
      "git.createCommit",
      "git.updateRef",
    ]);
    const trees = calls.filter((call) => call.method === "git.createTree").map((call) => call.params);
    expect(trees.map((tree) => [tree.base_tree, tree.tree.length])).toEqual([
      ["tree0", 150],
      ["tree1", 150],
      ["tree2", 104],
    ]);
    const entries = trees.flatMap((tree) => tree.tree);
    expect(entries.find((entry: any) => entry.path === "gone.txt")).toEqual({ path: "gone.txt", mode: "100644", type: "blob", sha: null });
    expect(entries.find((entry: any) => entry.path === "old.txt")).toEqual({ path: "old.txt", mode: "100644", type: "blob", sha: null });
    const gitSha = execFileSync("git", ["hash-object", "--stdin"], { input: "same\n", encoding: "utf8" }).trim();
    expect(entries.find((entry: any) => entry.path === "new.txt")).toEqual({ path: "new.txt", mode: "100644", type: "blob", sha: gitSha });
    expect(gitBlobSha(Buffer.from("same\n"))).toBe(gitSha);
    expect(entries.find((entry: any) => entry.path === "img2.png")).toEqual({
      path: "img2.png",
      mode: "100644",
      type: "blob",
      sha: "blob-png",
    });
    expect(calls.find((call) => call.method === "git.createBlob")!.params.encoding).toBe("base64");
    expect(entries.find((entry: any) => entry.path === "src/f000.ts")).toEqual({
      path: "src/f000.ts",
      mode: "100644",
      type: "blob",
      content: "export const v = 1;\n",
    });
    const commit = calls.find((call) => call.method === "git.createCommit")!.params;
    expect(commit).toEqual({ owner: "o", repo: "r", message: "msg\n", tree: "tree3", parents: [HEAD] });
    expect(calls.at(-1)!.params).toEqual({ owner: "o", repo: "r", ref: "heads/topic", sha: "d".repeat(40), force: false });
  });

  test("a non-fast-forward ref update is a stale apply that leaves the branch alone", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.txt": "a\n" }, HEAD));
    await changes.write("a.txt", "b\n");
    const { octokit } = fakeOctokit({
      ...responses(),
      "git.updateRef": () => {
        throw Object.assign(new Error("Update is not a fast forward"), { status: 422 });
      },
    });
    await expect(commitChangeSet(octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => true })).rejects.toThrow(
      "the branch topic moved while the edit was being applied (a new push); nothing was committed.",
    );
  });

  test.each([
    [
      422,
      "Reference does not exist",
      "the branch topic no longer exists (it was deleted); nothing was committed. The edit stays pending; restore the branch to apply it.",
    ],
    [
      422,
      "Protected branch update failed for refs/heads/topic.",
      "GitHub refused the push to topic: Protected branch update failed for refs/heads/topic.. Nothing was committed; the edit stays pending.",
    ],
    [
      403,
      "Repository rule violations found: Cannot update this protected ref.",
      "GitHub refused the push to topic: Repository rule violations found: Cannot update this protected ref.. Nothing was committed; the edit stays pending.",
    ],
  ])("a %d %j ref refusal is named as it is, not as a race", async (status, message, expected) => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.txt": "a\n" }, HEAD));
    await changes.write("a.txt", "b\n");
    const { octokit } = fakeOctokit({
      ...responses(),
      "git.updateRef": () => {
        throw Object.assign(new Error(message), { status, response: { data: { message } } });
      },
    });
    await expect(commitChangeSet(octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => true })).rejects.toThrow(expected);
  });

  test("a branch moved on only by resolve-bot's applies is a lost race, tried again; any other commit among them is a push", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.txt": "a\n" }, HEAD));
    await changes.write("a.txt", "b\n");
    const ours = (n: number) =>
      `Edit ${n}\n\nok\n\nResolve-Action: ${String(n).repeat(8)}-0000-0000-0000-000000000000\nResolve-Request: 9#0\n`;
    const moved = (commits: Record<string, { message: string; parent: string }>, tip: string) =>
      fakeOctokit({
        ...responses(),
        "git.getCommit": (params) => {
          const commit = commits[params.commit_sha as string];
          return commit
            ? { sha: params.commit_sha, message: commit.message, parents: [{ sha: commit.parent }] }
            : { sha: HEAD, tree: { sha: "tree0" } };
        },
        "git.updateRef": () => {
          throw Object.assign(new Error("Update is not a fast forward"), { status: 422 });
        },
        "git.getRef": () => ({ object: { sha: tip } }),
      }).octokit;
    const apply = (octokit: ReturnType<typeof moved>) =>
      commitChangeSet(octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => true });
    const [one, two] = ["1".repeat(40), "2".repeat(40)];
    const race = apply(moved({ [one]: { message: ours(1), parent: HEAD }, [two]: { message: ours(2), parent: one } }, two));
    await expect(race).rejects.toBeInstanceOf(TransientFailure);
    await expect(race).rejects.toThrow("another resolve-bot request applied an edit to topic first");
    const pushed = apply(moved({ [one]: { message: ours(1), parent: HEAD }, [two]: { message: "a person's commit\n", parent: one } }, two));
    await expect(pushed).rejects.toThrow("the branch topic moved while the edit was being applied (a new push); nothing was committed.");
  });

  test("a 5xx on the ref update counts as applied when the branch points at the new commit", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.txt": "a\n" }, HEAD));
    await changes.write("a.txt", "b\n");
    let branch = HEAD;
    const { octokit } = fakeOctokit({
      ...responses(),
      "git.updateRef": (params) => {
        branch = params.sha;
        throw Object.assign(new Error("Server Error"), { status: 502 });
      },
      "git.getRef": () => ({ object: { sha: branch } }),
    });
    expect(await commitChangeSet(octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => true })).toBe("d".repeat(40));
    const failing = fakeOctokit({
      ...responses(),
      "git.updateRef": () => {
        throw Object.assign(new Error("Server Error"), { status: 502 });
      },
      "git.getRef": () => ({ object: { sha: HEAD } }),
    });
    await expect(commitChangeSet(failing.octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => true })).rejects.toThrow(
      "Server Error",
    );
  });

  test("a fork whose author allows edits by maintainers is written in the fork", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.ts": "a\n" }, HEAD));
    await changes.write("a.ts", "b\n");
    const { octokit, calls } = fakeOctokit(responses());
    expect(
      await commitChangeSet(octokit, { ...pr(true), maintainerCanModify: true }, changes, {
        message: "m",
        canWriteWorkflows: async () => true,
      }),
    ).toBe("d".repeat(40));
    expect(calls.map((call) => `${call.method} ${call.params.owner}/${call.params.repo}`)).toEqual([
      "git.getCommit f/r",
      "git.createTree f/r",
      "git.createCommit f/r",
      "git.updateRef f/r",
    ]);
  });

  test("a fork that refuses the push, or does not allow edits, gets a review with suggestions and writes no commit", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ "a.ts": "1\n2\n3\n" }, HEAD));
    await changes.write("a.ts", "1\ntwo\n3\n");
    const refused = Object.assign(new Error("Resource not accessible by integration"), { status: 403 });
    const { octokit, calls } = fakeOctokit({
      ...responses(),
      "git.createTree": () => Promise.reject(refused),
      "pulls.listFiles": () => [{ filename: "a.ts", patch: "@@ -1,2 +1,3 @@\n 1\n+2\n 3" }],
      "pulls.createReview": () => ({ html_url: "https://example.test/review" }),
    });
    await expect(
      commitChangeSet(octokit, { ...pr(true), maintainerCanModify: true }, changes, { message: "m", canWriteWorkflows: async () => true }),
    ).rejects.toThrow(
      "this pull request comes from the fork f/r, and GitHub refused the push to it (Resource not accessible by integration). The edit stays pending; it is offered in [a review](https://example.test/review) as 1 suggested change the author can commit in one click.",
    );
    const review = calls.find((call) => call.method === "pulls.createReview")!.params;
    expect(review.comments).toEqual([
      // Only the changed line, not the whole hunk.
      { path: "a.ts", line: 2, side: "RIGHT", body: "```suggestion\ntwo\n```" },
    ]);
    await expect(commitChangeSet(octokit, pr(true), changes, { message: "m", canWriteWorkflows: async () => true })).rejects.toThrow(
      "this pull request comes from the fork f/r, and its author does not allow edits by maintainers.",
    );
    expect(calls.filter((call) => call.method === "git.updateRef")).toEqual([]);
  });

  test("workflow files without the permission are refused before any call", async () => {
    const changes = new ChangeSet(new MemoryWorkspace({ ".github/workflows/ci.yml": "on: push\n" }, HEAD));
    await changes.write(".github/workflows/ci.yml", "on: pull_request\n");
    const { octokit, calls } = fakeOctokit(responses());
    await expect(commitChangeSet(octokit, pr(), changes, { message: "m", canWriteWorkflows: async () => false })).rejects.toThrow(
      "this change touches .github/workflows/ci.yml, and the app does not have the `workflows` permission",
    );
    expect(calls).toEqual([]);
    expect(
      await commitChangeSet(octokit, pr(), new ChangeSet(new MemoryWorkspace({}, HEAD)), {
        message: "m",
        canWriteWorkflows: async () => true,
      }),
    ).toBeUndefined();
  });
});
