/**
 * A pending action previewed again on a newer head, worded in one place for every path that does
 * it: a push (run-request), and on GitHub a stack recovered from an earlier head or the Re-run
 * button (github/lifecycle). It gives what the action's new preview shows and its reply line.
 */
import type { ToolRegistry } from "../core/registry.js";
import { repreview } from "../core/replay.js";
import type { PendingRecord } from "../core/store.js";
import type { Workspace } from "../workspace/workspace.js";
import type { Repreviewed } from "./ports.js";
import { shortSha } from "../core/revision.js";

/** What became of the action, with its line for a reply: `- <label>: <what happened>.` */
export type RepreviewStep = Repreviewed & { line: string };

/**
 * Runs the action's tool again on `workspace`, the files of `sha`. `why` names what moved the
 * head ("new commits" after a push); a Re-run on the same head has nothing to name.
 */
export async function previewAgain(
  registry: ToolRegistry,
  record: PendingRecord,
  workspace: Workspace,
  sha: string,
  why?: string,
): Promise<RepreviewStep> {
  const next = await repreview(registry, record, workspace);
  if ("gone" in next)
    return { closed: `nothing left to change: ${next.gone}`, line: `- ${record.label}: closed, nothing left to change (${next.gone}).` };
  const what = next.changed ? "the preview changed" : "the preview is unchanged";
  const after = why ? ` after ${why}` : "";
  const note = `Previewed again on ${shortSha(sha)}${after} (was ${shortSha(record.headSha)}): ${what}.`;
  return { record: next.record, preview: { summary: next.message, diff: next.diff }, note, line: `- ${next.record.label}: ${what}.` };
}
