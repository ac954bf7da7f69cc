/**
 * Replay (spec §6): a pending action is stored as a record, not a closure. To resolve it, the
 * tool is executed again with the same parameters on the current files, the record's push is
 * picked out, and its digest must equal the record's, or the preview is stale.
 */
import type { Workspace } from "../workspace/workspace.js";
import { describeDifference, executeTool } from "./execution.js";
import { fingerprintAction } from "./fingerprint.js";
import { resultText, UserError } from "./result.js";
import type { ToolRegistry } from "./registry.js";
import type { PendingRecord } from "./store.js";
import type { CustomToolPendingAction } from "./tool.js";

const RERUN_HINT = "Discard it and run the command again for a fresh preview.";

function stale(record: PendingRecord, workspace: Workspace, what: string): UserError {
  const moved = record.headSha !== workspace.revision ? ` (previewed on ${short(record.headSha)}, now ${short(workspace.revision)})` : "";
  return new UserError(`preview is stale: ${what}${moved}. ${RERUN_HINT}`);
}

function short(revision: string): string {
  return /^[0-9a-f]{40}$/.test(revision) ? revision.slice(0, 7) : revision;
}

/** Re-creates the live action of a record, or throws a UserError saying why it cannot. */
export async function replay(registry: ToolRegistry, record: PendingRecord, workspace: Workspace): Promise<CustomToolPendingAction> {
  const tool = registry.get(record.tool);
  if (!tool) throw new UserError(`the tool \`${record.tool}\` that made this preview is no longer available.`);
  const execution = await executeTool(tool, record.params, workspace, record.callId);
  if (execution.result.isError) throw stale(record, workspace, `the tool now reports: ${resultText(execution.result)}`);
  const action = execution.actions[record.index];
  if (!action) throw stale(record, workspace, "the tool no longer proposes this change");
  const fingerprint = await fingerprintAction(action);
  if (fingerprint.digest !== record.digest) {
    const changedFiles = describeDifference(record.files, fingerprint.files);
    const what =
      action.label !== record.label
        ? `it now reads "${action.label}"`
        : changedFiles === "the same files differently"
          ? "the tool's details changed"
          : `${changedFiles} changed since the preview`;
    throw stale(record, workspace, what);
  }
  return action;
}
