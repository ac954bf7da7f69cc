/**
 * Undo on a local checkout: the commits resolve-bot applied are those of HEAD's history whose
 * message carries its `Resolve-Action:` trailer, and a revert is git's (workspace/git-revert.ts)
 * onto HEAD, in the checkout's own repository. The work tree is the workspace, so a revert that
 * would write over changes not yet committed is refused instead.
 */
import { appliedAction } from "../../core/commit-message.js";
import type { AppliedCommit } from "../../core/context.js";
import { UserError } from "../../errors.js";
import { revertOnto } from "../../workspace/git-revert.js";
import type { Revert, Workspace } from "../../workspace/workspace.js";
import { git } from "./git.js";

/** How far back the history is read: an undo is of a recent edit, and a checkout's history may be long. */
export const HISTORY_DEPTH = 1000;

/** resolve-bot's commits among the newest HISTORY_DEPTH of HEAD, newest first; none in an empty repository. */
export async function appliedCommits(root: string): Promise<AppliedCommit[]> {
  let log: string;
  try {
    // -z ends each commit with NUL, which no message holds: `<sha>\n<message>`.
    log = await git(root, ["log", "-z", `-n${HISTORY_DEPTH}`, "--format=%H%n%B", "HEAD", "--"]);
  } catch {
    return []; // no commit yet
  }
  const applied: AppliedCommit[] = [];
  for (const entry of log.split("\0")) {
    const split = entry.indexOf("\n");
    if (split < 0) continue;
    const message = entry.slice(split + 1);
    if (appliedAction(message) !== undefined) applied.push({ sha: entry.slice(0, split), subject: message.split("\n")[0]!.trim() });
  }
  return applied;
}

/** `git revert <commit>` onto HEAD (the workspace's revision), refused where the work tree differs from HEAD. */
export async function revertInCheckout(root: string, gitDir: string, onto: Workspace, commit: string): Promise<Revert> {
  const revert = await revertOnto(gitDir, onto, commit);
  if ("conflicts" in revert) return revert;
  const paths = revert.changes.changes().flatMap((change) => (change.kind === "rename" ? [change.from, change.path] : [change.path]));
  if (paths.length === 0) return revert;
  const status = await git(root, ["status", "--porcelain", "-z", "--untracked-files=all", "--", ...paths]);
  const dirty = status
    .split("\0")
    .filter((entry) => /^.. /.test(entry))
    .map((entry) => entry.slice(3));
  if (dirty.length > 0) {
    throw new UserError(`Undo would write over changes that are not committed in ${dirty.sort().join(", ")}: commit or stash them first.`);
  }
  return revert;
}
