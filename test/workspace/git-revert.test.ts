/**
 * revertOnto against git itself: the change it stages on the head must give exactly the tree
 * `git revert` makes in a work tree, and it must conflict where `git revert` does.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { revertOnto } from "../../src/workspace/git-revert.js";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";
import { defaultLimits } from "../../src/workspace/limits.js";
import { git, makeRepo, treeAt, writeFiles } from "../helpers/git-repo.js";
import { UserError } from "../../src/errors.js";
import { chmodSync, rmSync } from "node:fs";

const LINES = (edit: Record<number, string> = {}) =>
  Array.from({ length: 12 }, (_, index) => edit[index] ?? `line ${index}`).join("\n") + "\n";

function commitAll(root: string, message: string): string {
  git(root, "add", "-A");
  git(root, "commit", "--quiet", "-m", message);
  return git(root, "rev-parse", "HEAD").trim();
}

function gitDirOf(root: string): string {
  return path.join(root, ".git");
}

/** The files of `head` with the staged change applied, as `path: content`. */
async function revertedFiles(root: string, head: string, commit: string): Promise<Record<string, string> | string[]> {
  const onto = new GitWorkspace(gitDirOf(root), head, defaultLimits());
  const revert = await revertOnto(gitDirOf(root), onto, commit);
  if ("conflicts" in revert) return revert.conflicts;
  const files = treeAt(root, head);
  for (const change of await revert.changes.resolveChanges()) {
    if (change.kind === "rename") delete files[change.from];
    if (change.kind === "delete") delete files[change.path];
    else files[change.path] = Buffer.from(change.content).toString("utf8");
  }
  return files;
}

/** What `git revert` itself makes of the same commit on the same head (then the branch is put back). */
function gitRevert(root: string, head: string, commit: string): Record<string, string> | "conflict" {
  git(root, "checkout", "--quiet", "--detach", head);
  try {
    execFileSync("git", ["revert", "--no-edit", commit], { cwd: root, stdio: "ignore" });
  } catch {
    git(root, "revert", "--abort");
    return "conflict";
  }
  return treeAt(root, "HEAD");
}

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function repo(files: Record<string, string>): string {
  const root = makeRepo(files);
  roots.push(root);
  return root;
}

test("a clean revert under later commits (other lines of the file, the file renamed, files added and deleted) is git's", async () => {
  const root = repo({ "src/a.ts": LINES(), "src/gone.ts": "bye\n", "src/moved.ts": LINES() });
  writeFiles(root, { "src/a.ts": LINES({ 1: "edited by the bot" }), "src/new.ts": "hello\n", "src/moved.ts": LINES({ 2: "bot" }) });
  rmSync(path.join(root, "src/gone.ts"));
  const commit = commitAll(root, "AST Edit: 3 replacements in 3 files");
  writeFiles(root, { "src/a.ts": LINES({ 1: "edited by the bot", 10: "a reviewer's line" }), "README.md": "later\n" });
  git(root, "mv", "src/moved.ts", "src/renamed.ts");
  const head = commitAll(root, "a reviewer's commit");

  const expected = gitRevert(root, head, commit);
  expect(expected).not.toBe("conflict");
  expect(await revertedFiles(root, head, commit)).toEqual(expected);
  expect(expected).toMatchObject({ "src/a.ts": LINES({ 10: "a reviewer's line" }), "src/gone.ts": "bye\n", "src/renamed.ts": LINES() });
});

test("a later commit on the same lines conflicts, as `git revert` does, naming the file", async () => {
  const root = repo({ "a.txt": LINES(), "b.txt": LINES() });
  writeFiles(root, { "a.txt": LINES({ 3: "bot" }), "b.txt": LINES({ 3: "bot" }) });
  const commit = commitAll(root, "AST Edit: 2 replacements in 2 files");
  writeFiles(root, { "a.txt": LINES({ 3: "bot, then a reviewer" }) });
  const head = commitAll(root, "a reviewer's commit");

  expect(gitRevert(root, head, commit)).toBe("conflict");
  expect(await revertedFiles(root, head, commit)).toEqual(["a.txt"]);
});

test("what a commit cannot say the way git does is refused: a merge, a file mode", async () => {
  const root = repo({ "run.sh": "echo run\n" });
  chmodSync(path.join(root, "run.sh"), 0o755);
  commitAll(root, "executable");
  git(root, "rm", "--quiet", "run.sh");
  const deleted = commitAll(root, "Move: run.sh deleted");
  const onto = new GitWorkspace(gitDirOf(root), deleted, defaultLimits());
  await expect(revertOnto(gitDirOf(root), onto, deleted)).rejects.toThrow(
    new UserError(
      `Undo would change the file mode of run.sh (its executable bit), which resolve-bot does not commit; revert ${deleted.slice(0, 7)} by hand (\`git revert ${deleted.slice(0, 7)}\`) instead.`,
    ),
  );

  git(root, "checkout", "--quiet", "-b", "side", "HEAD~1");
  writeFiles(root, { "side.txt": "side\n" });
  commitAll(root, "side");
  git(root, "checkout", "--quiet", "-");
  git(root, "merge", "--quiet", "--no-edit", "side");
  const merge = git(root, "rev-parse", "HEAD").trim();
  await expect(revertOnto(gitDirOf(root), new GitWorkspace(gitDirOf(root), merge, defaultLimits()), merge)).rejects.toThrow(
    new UserError(`${merge.slice(0, 7)} is a merge of 2 commits; undo reverts only commits with one parent.`),
  );
});
