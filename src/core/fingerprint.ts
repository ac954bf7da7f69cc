/** What identifies a pending action across executions: label, source, details and change. */
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import type { ChangeFingerprint } from "../workspace/changeset.js";
import type { CustomToolPendingAction } from "./tool.js";
import type { PendingRecord } from "./store.js";
import { renderDiff } from "../workspace/diff.js";
import type { Workspace } from "../workspace/workspace.js";

export const DEFAULT_SOURCE_TOOL_NAME = "custom_tool";

export function sourceToolName(action: CustomToolPendingAction): string {
  return action.sourceToolName && action.sourceToolName.trim() !== "" ? action.sourceToolName : DEFAULT_SOURCE_TOOL_NAME;
}

export async function fingerprintAction(action: CustomToolPendingAction): Promise<ChangeFingerprint> {
  const change = action.changes ? await action.changes.fingerprint() : { digest: "", files: {} };
  // Key order must not matter: details are compared after a JSON round trip through storage.
  const canonical = stringify({
    label: action.label,
    source: sourceToolName(action),
    details: action.details ?? null,
    change: change.digest,
  });
  return {
    digest: createHash("sha256")
      .update(canonical ?? "")
      .digest("hex"),
    files: change.files,
  };
}

/** JSON-safe copy of details (what storage will give back on replay). */
export function jsonDetails(details: unknown): unknown {
  if (details === undefined) return undefined;
  const text = stringify(details);
  return text === undefined ? undefined : JSON.parse(text);
}

/** What a record says about an action as previewed on `workspace`, and the preview's diff. */
export async function describeAction(
  action: CustomToolPendingAction,
  workspace: Workspace,
): Promise<{ fields: Pick<PendingRecord, "label" | "sourceToolName" | "details" | "digest" | "files" | "headSha">; diff: string }> {
  const fingerprint = await fingerprintAction(action);
  return {
    fields: {
      label: action.label,
      sourceToolName: sourceToolName(action),
      details: jsonDetails(action.details),
      digest: fingerprint.digest,
      files: fingerprint.files,
      headSha: workspace.revision,
    },
    diff: action.changes ? await renderDiff(action.changes) : "",
  };
}
