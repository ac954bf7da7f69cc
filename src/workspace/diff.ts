/** Unified diffs of a change set, in git's format so `git apply` takes them as they are. */
import { structuredPatch } from "diff";
import type { ChangeSet, FileChange } from "./changeset.js";
import { isBinary } from "./workspace.js";

const decoder = new TextDecoder();

function fileDiff(path: string, from: string, before: Uint8Array | undefined, after: Uint8Array | undefined): string {
  const header = [`diff --git a/${from} b/${path}`];
  if (from !== path) header.push(`rename from ${from}`, `rename to ${path}`);
  if (!before) header.push("new file mode 100644");
  if (!after) header.push("deleted file mode 100644");
  const oldText = before ? decoder.decode(before) : "";
  const newText = after ? decoder.decode(after) : "";
  if (from !== path && before && after && oldText === newText) return header.join("\n");
  if ((before && isBinary(before)) || (after && isBinary(after))) {
    header.push(`Binary files ${before ? `a/${from}` : "/dev/null"} and ${after ? `b/${path}` : "/dev/null"} differ`);
    return header.join("\n");
  }
  const patch = structuredPatch(from, path, oldText, newText, "", "", { context: 3 });
  header.push(`--- ${before ? `a/${from}` : "/dev/null"}`, `+++ ${after ? `b/${path}` : "/dev/null"}`);
  for (const hunk of patch.hunks) {
    // As git writes ranges: an empty side starts one line earlier, and a count of 1 is left out.
    const range = (start: number, lines: number) => (lines === 1 ? `${start}` : `${lines === 0 ? start - 1 : start},${lines}`);
    header.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
  }
  return header.join("\n");
}

async function changeDiff(changes: ChangeSet, change: FileChange): Promise<string> {
  switch (change.kind) {
    case "write": {
      const before = change.created ? undefined : await changes.baseBytes(change.path);
      return fileDiff(change.path, change.path, before, change.content);
    }
    case "delete":
      return fileDiff(change.path, change.path, await changes.baseBytes(change.path), undefined);
    case "rename":
      return fileDiff(change.path, change.from, await changes.baseBytes(change.from), change.content);
  }
}

/** The whole change set as one unified diff (empty string when nothing changes). */
export async function renderDiff(changes: ChangeSet): Promise<string> {
  const parts: string[] = [];
  for (const change of await changes.resolveChanges()) parts.push(await changeDiff(changes, change));
  return parts.length === 0 ? "" : `${parts.join("\n")}\n`;
}

export interface DiffHunk {
  path: string;
  /** First line of the hunk in the file as it is now (1-based), and how many lines it spans. */
  oldStart: number;
  oldLines: number;
  text: string;
}

/** The hunks of a rendered diff that change existing lines: where annotations can point. */
export function diffHunks(diff: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let path: string | undefined;
  let current: DiffHunk | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) {
      current = undefined;
      path = undefined;
    } else if (line.startsWith("--- ")) {
      path = line === "--- /dev/null" ? undefined : line.slice(6);
    } else if (line.startsWith("@@ ") && path) {
      const match = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
      current = { path, oldStart: Number(match?.[1] ?? 1), oldLines: Number(match?.[2] ?? 1), text: line };
      hunks.push(current);
    } else if (current && /^[ +\-\\]/.test(line)) {
      current.text += `\n${line}`;
    }
  }
  return hunks;
}
