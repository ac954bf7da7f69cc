/** The commit message of an applied action: label, blank line, reason, trailers. */
import type { PendingRecord } from "./store.js";

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
  return [body, "", `Resolve-Action: ${record.id}`, ...trailers].join("\n") + "\n";
}
