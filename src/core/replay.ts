/**
 * Replay: a pending action is stored as a record, not a closure. To resolve it, the
 * tool is executed again with the same parameters on the current files, the record's push is
 * picked out, and its digest must equal the record's, or the preview is stale.
 */
import type { Workspace } from "../workspace/workspace.js";
import { describeDifference, executeTool } from "./execution.js";
import { describeAction, fingerprintAction } from "./fingerprint.js";
import { resultText } from "./result.js";
import { UserError } from "../errors.js";
import type { ToolRegistry } from "./registry.js";
import type { PendingRecord } from "./store.js";
import type { CustomToolPendingAction } from "./tool.js";
import { shortSha } from "./revision.js";

const RERUN_HINT = "Discard it and run the command again for a fresh preview.";

function stale(record: PendingRecord, workspace: Workspace, what: string): UserError {
  const moved =
    record.headSha !== workspace.revision ? ` (previewed on ${shortSha(record.headSha)}, now ${shortSha(workspace.revision)})` : "";
  return new UserError(`preview is stale: ${what}${moved}. ${RERUN_HINT}`);
}

/** Executes the record's tool again and picks its push; `gone` says why there is none. */
async function rerun(
  registry: ToolRegistry,
  record: PendingRecord,
  workspace: Workspace,
): Promise<{ action: CustomToolPendingAction; message: string } | { gone: string }> {
  const tool = registry.get(record.tool);
  if (!tool) throw new UserError(`the tool \`${record.tool}\` that made this preview is no longer available.`);
  const execution = await executeTool(tool, record.params, workspace, record.callId);
  const message = resultText(execution.result);
  if (execution.result.isError) return { gone: `the tool now reports: ${message}` };
  const action = execution.actions[record.index];
  if (!action)
    return { gone: message ? `the tool no longer proposes this change; it says: ${message}` : "the tool no longer proposes this change" };
  return { action, message };
}

/** Re-creates the live action of a record, or throws a UserError saying why it cannot. */
export async function replay(registry: ToolRegistry, record: PendingRecord, workspace: Workspace): Promise<CustomToolPendingAction> {
  const rerunResult = await rerun(registry, record, workspace);
  if ("gone" in rerunResult) throw stale(record, workspace, rerunResult.gone);
  const { action } = rerunResult;
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

export type Repreview = { record: PendingRecord; diff: string; message: string; changed: boolean } | { gone: string };

/**
 * A fresh preview of a pending action on new files (after new commits were pushed): the same
 * tool, parameters and push index; the record keeps its id and place on the stack.
 */
export async function repreview(registry: ToolRegistry, record: PendingRecord, workspace: Workspace): Promise<Repreview> {
  let rerunResult;
  try {
    rerunResult = await rerun(registry, record, workspace);
  } catch (error) {
    if (error instanceof UserError) return { gone: error.message };
    throw error;
  }
  if ("gone" in rerunResult) return rerunResult;
  const { fields, diff } = await describeAction(rerunResult.action, workspace);
  return { record: { ...record, ...fields }, diff, message: rerunResult.message, changed: fields.digest !== record.digest };
}
