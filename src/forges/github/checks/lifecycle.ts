/**
 * What happens to a pull request's stack when GitHub, not a command, moves things: a run marked
 * stale, a new check suite, the Re-run button, the pull request closed or reopened. Plain inputs
 * (a store, a record, a run), so any front end or pipeline can call them.
 */
import { previewAgain, type RepreviewStep } from "../../../pipeline/preview-again.js";
import type { ToolRegistry } from "../../../core/registry.js";
import type { PendingRecord } from "../../../core/store.js";
import type { Workspace } from "../../../workspace/workspace.js";
import type { CheckRunStore } from "./store.js";
import { shortSha } from "../../../core/revision.js";

/**
 * Previews recovered actions again on a commit: the tool re-runs on that commit's files (opened
 * once per commit, on first use), exactly as after a push.
 */
export function repreviewerFor(
  registry: ToolRegistry,
  filesAt: (sha: string) => Promise<Workspace>,
): (record: PendingRecord, sha: string) => Promise<RepreviewStep> {
  const workspaces = new Map<string, Promise<Workspace>>();
  return async (record, sha) => {
    if (!workspaces.has(sha)) workspaces.set(sha, filesAt(sha));
    // No reason named: the same re-preview serves Re-run on the head, where nothing new arrived.
    return previewAgain(registry, record, await workspaces.get(sha)!, sha);
  };
}

/**
 * Reads the stack where it is (recovering stale runs and stacks left on earlier heads) and puts
 * the gate on the head: check_suite requested/rerequested, a stale run, Re-run on the gate, reopen.
 * Returns what to tell the pull request when a stack was moved from an earlier head (as after a
 * push, plain text), else undefined.
 */
export async function refreshStack(store: CheckRunStore): Promise<string | undefined> {
  await store.stack.load();
  await store.gate.update();
  if (store.stack.recovered.length === 0) return undefined;
  return `New commits reached resolve-bot without their push event, so the pending edits were brought to ${shortSha(store.stack.headSha)}:\n${store.stack.recovered.join("\n")}`;
}

/** Re-run on one of our checks: an action is previewed again on the head; the gate is refreshed. */
export async function rerunCheck(store: CheckRunStore, actionId: string | undefined): Promise<string | undefined> {
  if (actionId) await store.stack.repreviewAction(actionId);
  return refreshStack(store);
}
