/**
 * `git revert <commit>` onto a head, computed by git in a repository without a work tree: the
 * 3-way merge `git revert` makes (merge-ort), with base = the commit, ours = the head and
 * theirs = the commit's parent. Nothing is checked out and no ref moves.
 *
 * git 2.39's `merge-tree --write-tree` takes no `--merge-base` (that came in 2.40), so the base is
 * given the way merge-tree finds one: the head's tree and the parent's tree are each committed on
 * top of one commit of the reverted commit's tree, their only common ancestor. Those three commits
 * (fixed author and date, so the same revert makes the same objects) and the merge's tree stay
 * unreferenced in the repository.
 *
 * The result is the head's files as a ChangeSet, so it is previewed, fingerprinted and committed
 * like any tool's change; what a ChangeSet cannot say (a symbolic link, a submodule, a file mode)
 * is refused with a UserError instead of being committed differently from `git revert`.
 */
import { UserError } from "../errors.js";
import { BlobReader } from "./blob-reader.js";
import { ChangeSet } from "./changeset.js";
import { GitFailure, runGit } from "./safe-git.js";
import type { Revert, Workspace } from "./workspace.js";

export interface CommitObject {
  parents: string[];
  /** The first line of its message. */
  subject: string;
}

/** A commit's parents and subject, from the commit object (a shallow fetch keeps both). */
export async function readCommitObject(gitDir: string, sha: string): Promise<CommitObject> {
  const raw = (await runGit(gitDir, ["cat-file", "commit", sha])).toString("utf8");
  const split = raw.indexOf("\n\n");
  const header = split < 0 ? raw : raw.slice(0, split);
  const message = split < 0 ? "" : raw.slice(split + 2);
  const parents = header
    .split("\n")
    .filter((line) => line.startsWith("parent "))
    .map((line) => line.slice("parent ".length).trim());
  return { parents, subject: message.split("\n")[0]?.trim() ?? "" };
}

/** The one parent a revert goes back to; merges and root commits are refused. */
export function onlyParent(sha: string, commit: CommitObject): string {
  if (commit.parents.length === 1) return commit.parents[0]!;
  const what = commit.parents.length === 0 ? "the first commit of the repository" : `a merge of ${commit.parents.length} commits`;
  throw new UserError(`${sha.slice(0, 7)} is ${what}; undo reverts only commits with one parent.`);
}

/** The same throwaway commits for the same trees: no date, no user, nothing from the machine. */
const THROWAWAY_IDENTITY = {
  GIT_AUTHOR_NAME: "resolve-bot",
  GIT_AUTHOR_EMAIL: "resolve-bot@invalid",
  GIT_AUTHOR_DATE: "@0 +0000",
  GIT_COMMITTER_NAME: "resolve-bot",
  GIT_COMMITTER_EMAIL: "resolve-bot@invalid",
  GIT_COMMITTER_DATE: "@0 +0000",
};

async function commitTree(gitDir: string, tree: string, parents: string[]): Promise<string> {
  const args = ["commit-tree", tree, ...parents.flatMap((parent) => ["-p", parent]), "-m", "resolve-bot revert"];
  return (await runGit(gitDir, args, { env: THROWAWAY_IDENTITY })).toString("utf8").trim();
}

/** `merge-tree --write-tree`: the merged tree, or the paths that conflict (git exits with 1 then). */
async function mergeTree(gitDir: string, ours: string, theirs: string): Promise<{ tree: string } | { conflicts: string[] }> {
  const args = ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", ours, theirs];
  let output: Buffer;
  let conflicted = false;
  try {
    output = await runGit(gitDir, args);
  } catch (error) {
    if (!(error instanceof GitFailure) || error.code !== 1) throw error;
    output = error.stdout;
    conflicted = true;
  }
  const [tree = "", ...paths] = output.toString("utf8").split("\0");
  if (!conflicted) return { tree };
  return { conflicts: [...new Set(paths.filter((path) => path !== ""))].sort() };
}

const REGULAR = new Set(["100644", "100755"]);

interface TreeChange {
  status: string;
  oldMode: string;
  newMode: string;
  blob: string;
  path: string;
  from?: string;
}

/** `diff-tree -r -z -M` between two trees, one entry per changed path (renames found as git finds them). */
async function treeChanges(gitDir: string, from: string, to: string): Promise<TreeChange[]> {
  const fields = (await runGit(gitDir, ["diff-tree", "-r", "-z", "-M", from, to])).toString("utf8").split("\0");
  const changes: TreeChange[] = [];
  for (let index = 0; index < fields.length;) {
    const meta = fields[index++]!;
    if (meta === "") continue;
    // :<old mode> <new mode> <old blob> <new blob> <status>, then the path (two for a rename or copy).
    const [oldMode = "", newMode = "", , blob = "", status = ""] = meta.slice(1).split(" ");
    const kind = status.charAt(0);
    const first = fields[index++]!;
    if (kind === "R" || kind === "C") changes.push({ status: kind, oldMode, newMode, blob, from: first, path: fields[index++]! });
    else changes.push({ status: kind, oldMode, newMode, blob, path: first });
  }
  return changes;
}

/**
 * Refuses what a ChangeSet would commit differently from git: anything but a regular file, and a
 * file mode the commit would not keep (a new file is committed 100644; a changed or renamed one
 * keeps the mode it had).
 */
function checkCommittable(change: TreeChange, commit: string): void {
  const by = `revert ${commit.slice(0, 7)} by hand (\`git revert ${commit.slice(0, 7)}\`) instead`;
  const modes = change.status === "D" ? [change.oldMode] : change.status === "A" ? [change.newMode] : [change.oldMode, change.newMode];
  if (change.status === "T" || !modes.every((mode) => REGULAR.has(mode))) {
    throw new UserError(`Undo would change ${change.path}, which is not a regular file (a symbolic link or submodule); ${by}.`);
  }
  const kept = change.status === "A" ? "100644" : change.oldMode;
  if (change.status !== "D" && change.newMode !== kept) {
    throw new UserError(
      `Undo would change the file mode of ${change.path} (its executable bit), which resolve-bot does not commit; ${by}.`,
    );
  }
}

/** The change from the workspace's revision to `tree`, staged on the workspace. */
async function changeSetTo(gitDir: string, onto: Workspace, tree: string, commit: string): Promise<ChangeSet> {
  const changes = await treeChanges(gitDir, `${onto.revision}^{tree}`, tree);
  for (const change of changes) checkCommittable(change, commit);
  const staged = new ChangeSet(onto);
  const blobs = new BlobReader(gitDir);
  try {
    for (const change of changes) {
      if (change.status === "D") {
        await staged.delete(change.path);
        continue;
      }
      if (change.from !== undefined && change.status === "R") await staged.rename(change.from, change.path);
      await staged.write(change.path, await blobs.read(change.blob));
    }
  } finally {
    blobs.close();
  }
  return staged;
}

/**
 * `git revert <commit>` onto `onto`'s revision. `gitDir` must hold the commit, its parent and the
 * revision, with their trees and blobs.
 */
export async function revertOnto(gitDir: string, onto: Workspace, commit: string): Promise<Revert> {
  const object = await readCommitObject(gitDir, commit);
  const parent = onlyParent(commit, object);
  const base = await commitTree(gitDir, `${commit}^{tree}`, []);
  const ours = await commitTree(gitDir, `${onto.revision}^{tree}`, [base]);
  const theirs = await commitTree(gitDir, `${parent}^{tree}`, [base]);
  const merged = await mergeTree(gitDir, ours, theirs);
  if ("conflicts" in merged) return { commit, subject: object.subject, conflicts: merged.conflicts };
  return { commit, subject: object.subject, changes: await changeSetTo(gitDir, onto, merged.tree, commit) };
}
