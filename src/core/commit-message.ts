/** The commit message of an applied action: label, blank line, reason, trailers. */
import type { PendingRecord } from "./store.js";

export interface CommitMessageInput {
  record: Pick<PendingRecord, "id" | "label">;
  reason: string;
  /** Extra trailers, e.g. `Co-authored-by: name <email>`. */
  trailers?: string[];
}

export function commitMessage({ record, reason, trailers = [] }: CommitMessageInput): string {
  return [record.label, "", reason, "", `Resolve-Action: ${record.id}`, ...trailers].join("\n") + "\n";
}
