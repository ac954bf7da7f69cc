/** The commit message of an applied action: label, blank line, reason, trailers. */
import type { PendingRecord } from "./store.js";

/**
 * The trailers of an apply's commit, written here and read back from the branch: `Resolve-Action`
 * names the pending action it applied (recovery finishes the stack from it), `Resolve-Request` the
 * request step that made it (a re-run of that request does not apply twice).
 */
const ACTION_TRAILER = "Resolve-Action";
const REQUEST_TRAILER = "Resolve-Request";

export const DEFAULT_COMMIT_TEMPLATE = "{label}\n\n{reason}";

export interface CommitMessageInput {
  record: Pick<PendingRecord, "id" | "label" | "tool">;
  reason: string;
  /** `{label}`, `{reason}`, `{tool}` and `{id}` are filled in. */
  template?: string;
  /** Extra trailers, e.g. `Co-authored-by: name <email>`. */
  trailers?: string[];
}

export function commitMessage({ record, reason, template = DEFAULT_COMMIT_TEMPLATE, trailers = [] }: CommitMessageInput): string {
  const values: Record<string, string> = { label: record.label, reason, tool: record.tool, id: record.id };
  const body = template.replace(/\{(label|reason|tool|id)\}/g, (_, key: string) => values[key]!).trimEnd();
  return [body, "", `${ACTION_TRAILER}: ${record.id}`, ...trailers].join("\n") + "\n";
}

/** The `Resolve-Request` trailer an apply's commit carries: the request step that made it. */
export function requestTrailer(step: string): string {
  return `${REQUEST_TRAILER}: ${step}`;
}

function trailer(message: string, name: string): string | undefined {
  return new RegExp(`^${name}: (\\S+)$`, "m").exec(message)?.[1];
}

/** The pending action a commit applied (its `Resolve-Action` trailer); undefined for anyone else's commit. */
export function appliedAction(message: string): string | undefined {
  return trailer(message, ACTION_TRAILER);
}

/** The request step that made a commit (its `Resolve-Request` trailer). */
export function appliedByStep(message: string): string | undefined {
  return trailer(message, REQUEST_TRAILER);
}
