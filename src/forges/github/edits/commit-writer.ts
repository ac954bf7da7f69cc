/**
 * Turns an applied change set into ONE commit on the pull request branch through the Git Data
 * API: a tree on `base_tree` (inline content; blobs only for binary files; renames reuse the old
 * blob's sha, computed locally; deletions `sha: null`; chunked), a commit whose parent is the
 * head the preview was replayed on, and a compare-and-swap ref update (`force: false`).
 * Author and committer are left out so GitHub signs the commit as the app (Verified).
 * A fork's branch is written in the fork when its author allows edits by maintainers; when that
 * is off or GitHub refuses, the edit is offered to the author as a review (suggestions.ts).
 */
import { createHash } from "node:crypto";
import { appliedAction } from "../../../core/commit-message.js";
import { UserError } from "../../../errors.js";
import { TransientFailure } from "../../../pipeline/transient.js";
import type { ChangeSet, FileChange } from "../../../workspace/changeset.js";
import { renderDiff } from "../../../workspace/diff.js";
import { isBinary } from "../../../workspace/workspace.js";
import { refusedWith } from "../api/http-errors.js";
import { offerAsReview } from "./suggestions.js";
import type { GitHubClient, PullRequestInfo, RepoRef } from "../types.js";

/** Inline trees above a couple of hundred entries or megabytes fail on GitHub: chunk them. */
const TREE_CHUNK_ENTRIES = 150;
const TREE_CHUNK_BYTES = 2 * 1024 * 1024;

type TreeEntry = { path: string; mode: "100644" | "100755"; type: "blob"; sha?: string | null; content?: string };

/** Git's object id of a blob: what GitHub already stores for an unchanged file. */
export function gitBlobSha(content: Uint8Array): string {
  return createHash("sha1").update(`blob ${content.byteLength}\0`).update(content).digest("hex");
}

const WORKFLOWS = /^\.github\/workflows\//;

export interface CommitOptions {
  message: string;
  /** Whether the installation was granted the `workflows` permission. */
  canWriteWorkflows(): Promise<boolean>;
}

async function refuseWorkflowsWithoutPermission(net: FileChange[], options: CommitOptions): Promise<void> {
  const workflows = net
    .flatMap((change) => (change.kind === "rename" ? [change.from, change.path] : [change.path]))
    .filter((path) => WORKFLOWS.test(path))
    .sort();
  if (workflows.length > 0 && !(await options.canWriteWorkflows())) {
    throw new UserError(
      `this change touches ${workflows.join(", ")}, and the app does not have the \`workflows\` permission that GitHub requires for that. Nothing was written.`,
    );
  }
}

async function treeEntries(octokit: GitHubClient, repo: RepoRef, changes: ChangeSet, net: FileChange[]): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  for (const change of net) {
    if (change.kind === "delete") {
      entries.push({ path: change.path, mode: "100644", type: "blob", sha: null });
      continue;
    }
    const mode = await changes.base.modeOf(change.kind === "rename" ? change.from : change.path);
    if (change.kind === "rename") entries.push({ path: change.from, mode, type: "blob", sha: null });
    if (change.kind === "rename" && change.unchanged) {
      entries.push({ path: change.path, mode, type: "blob", sha: gitBlobSha(change.content) });
    } else if (isBinary(change.content)) {
      const { data } = await octokit.rest.git.createBlob({
        ...repo,
        content: Buffer.from(change.content).toString("base64"),
        encoding: "base64",
      });
      entries.push({ path: change.path, mode, type: "blob", sha: data.sha });
    } else {
      entries.push({ path: change.path, mode, type: "blob", content: Buffer.from(change.content).toString("utf8") });
    }
  }
  return entries;
}

function chunks(entries: TreeEntry[]): TreeEntry[][] {
  const out: TreeEntry[][] = [];
  let current: TreeEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entry.content?.length ?? 0;
    if (current.length > 0 && (current.length >= TREE_CHUNK_ENTRIES || bytes + size > TREE_CHUNK_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Commits the change onto `pr.headSha`; returns the new commit's sha, or undefined if nothing changes. */
export async function commitChangeSet(
  octokit: GitHubClient,
  pr: PullRequestInfo,
  changes: ChangeSet,
  options: CommitOptions,
): Promise<string | undefined> {
  const net = await changes.resolveChanges();
  if (net.length === 0) return undefined;
  await refuseWorkflowsWithoutPermission(net, options);
  if (!pr.isFork) return writeCommit(octokit, { owner: pr.owner, repo: pr.repo }, pr, changes, net, options);
  const offer = async (why: string) => {
    const offered = await offerAsReview(octokit, pr, await renderDiff(changes), why);
    return new UserError(`this pull request comes from the fork ${pr.headRepo}, and ${why}. The edit stays pending; ${offered}`);
  };
  if (!pr.maintainerCanModify) throw await offer("its author does not allow edits by maintainers");
  const [owner = "", repo = ""] = pr.headRepo.split("/");
  try {
    return await writeCommit(octokit, { owner, repo }, pr, changes, net, options);
  } catch (error) {
    // 403/404: the installation may not write to the fork (GitHub does not promise apps what maintainers may do).
    const refused = refusedWith(error, 403, 404);
    if (!refused) throw error;
    throw await offer(`GitHub refused the push to it (${refused.message || `status ${refused.status}`})`);
  }
}

/** Trees, commit and the compare-and-swap ref update in `repo` (the base, or the fork of a fork PR). */
async function writeCommit(
  octokit: GitHubClient,
  repo: RepoRef,
  pr: PullRequestInfo,
  changes: ChangeSet,
  net: FileChange[],
  options: CommitOptions,
): Promise<string> {
  const { data: head } = await octokit.rest.git.getCommit({ ...repo, commit_sha: pr.headSha });
  let tree = head.tree.sha;
  for (const chunk of chunks(await treeEntries(octokit, repo, changes, net))) {
    const { data } = await octokit.rest.git.createTree({ ...repo, base_tree: tree, tree: chunk });
    tree = data.sha;
  }
  const { data: commit } = await octokit.rest.git.createCommit({ ...repo, message: options.message, tree, parents: [pr.headSha] });
  try {
    await octokit.rest.git.updateRef({ ...repo, ref: `heads/${pr.headRef}`, sha: commit.sha, force: false });
  } catch (error) {
    if (pr.isFork && refusedWith(error, 403, 404)) throw error; // the fork refused us: offered as a review
    const refusal = refusedRefUpdate(error, pr.headRef);
    if (refusal && branchMoved(error) && (await movedByOurApplies(octokit, repo, pr.headRef, pr.headSha))) {
      // Another request (a workflow run of the Action, another instance) applied first: run this
      // one again from the top, as if it had been queued after it — it then pops the newest edit
      // still pending, on the new head. A person's push is told as the refusal below.
      throw new TransientFailure(`another resolve-bot request applied an edit to ${pr.headRef} first`, undefined, { cause: error });
    }
    if (refusal) throw new UserError(refusal);
    // A 5xx may come after the ref moved (GitHub answered late or a proxy failed): what counts is the branch.
    if (await branchPointsAt(octokit, repo, pr.headRef, commit.sha)) return commit.sha;
    throw error;
  }
  return commit.sha;
}

async function branchPointsAt(octokit: GitHubClient, repo: { owner: string; repo: string }, branch: string, sha: string): Promise<boolean> {
  try {
    const { data } = await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` });
    return data.object.sha === sha;
  } catch {
    return false;
  }
}

/** How far back a lost race is looked for: more applies than this in between is not a race. */
const RACE_DEPTH = 20;

/**
 * Whether `branch` moved on from `from` by resolve-bot's own applies alone (each new commit a
 * `Resolve-Action:` commit with one parent): the ref update was lost to another request's apply.
 */
async function movedByOurApplies(octokit: GitHubClient, repo: RepoRef, branch: string, from: string): Promise<boolean> {
  try {
    const { data: ref } = await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` });
    let sha = ref.object.sha;
    for (let depth = 0; depth < RACE_DEPTH && sha !== from; depth++) {
      const { data: commit } = await octokit.rest.git.getCommit({ ...repo, commit_sha: sha });
      if (appliedAction(commit.message) === undefined || commit.parents.length !== 1) return false;
      sha = commit.parents[0]!.sha;
    }
    return sha === from && ref.object.sha !== from;
  } catch {
    return false; // unreadable: the refusal as it is
  }
}

function branchMoved(error: unknown): boolean {
  const refused = refusedWith(error, 422, 409);
  return refused !== undefined && (refused.status === 409 || /not a fast[- ]forward/i.test(refused.message));
}

/**
 * GitHub refuses a ref update for different reasons, and each needs other advice: only a real race
 * is worth retrying. Returns undefined for failures that are not refusals (5xx, network, a rate limit).
 */
export function refusedRefUpdate(error: unknown, branch: string): string | undefined {
  const refused = refusedWith(error, 422, 409, 403);
  if (!refused) return undefined;
  const { status, message } = refused;
  if (/reference does not exist/i.test(message)) {
    return `the branch ${branch} no longer exists (it was deleted); nothing was committed. The edit stays pending; restore the branch to apply it.`;
  }
  if (branchMoved(error)) {
    return (
      `the branch ${branch} moved while the edit was being applied (a new push); nothing was committed. ` +
      "The edit is still pending: run `/resolve apply <reason>` again to replay it on the new head."
    );
  }
  return `GitHub refused the push to ${branch}: ${message.trim() || `status ${status}`}. Nothing was committed; the edit stays pending.`;
}
