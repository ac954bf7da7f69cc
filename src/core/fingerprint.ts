/** What identifies a pending action across executions: label, source, details and change. */
import { createHash } from "node:crypto";
import stringify from "safe-stable-stringify";
import type { ChangeFingerprint } from "../workspace/changeset.js";
import type { CustomToolPendingAction } from "./tool.js";

export const DEFAULT_SOURCE_TOOL_NAME = "custom_tool";

export function sourceToolName(action: CustomToolPendingAction): string {
  return action.sourceToolName && action.sourceToolName.trim() !== "" ? action.sourceToolName : DEFAULT_SOURCE_TOOL_NAME;
}

export async function fingerprintAction(action: CustomToolPendingAction): Promise<ChangeFingerprint> {
  const change = action.changes ? await action.changes.fingerprint() : { digest: "", files: {} };
  // Key order must not matter: details are compared after a JSON round trip through storage.
  const canonical = stringify({ label: action.label, source: sourceToolName(action), details: action.details ?? null, change: change.digest });
  return { digest: createHash("sha256").update(canonical ?? "").digest("hex"), files: change.files };
}

/** JSON-safe copy of details (what storage will give back on replay). */
export function jsonDetails(details: unknown): unknown {
  if (details === undefined) return undefined;
  const text = stringify(details);
  return text === undefined ? undefined : JSON.parse(text);
}
