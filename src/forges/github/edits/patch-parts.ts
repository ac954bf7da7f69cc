/**
 * Git-format patches taken apart and put back together, so a large patch can travel in
 * comment-sized parts that each apply with `git apply`, in order, and never end inside a fence.
 *
 * Hand-written because the libraries that parse unified diffs (jsdiff's parsePatch,
 * parse-diff) read them but neither splits a hunk into smaller hunks that still apply.
 */

/** One hunk, its lines with their prefix (' ', '-', '+'), a "\ No newline" marker kept with its line. */
export interface Hunk {
  /** 1-based position of the hunk's first line in the new file (git finds hunks near it). */
  newStart: number;
  /** 1-based position of its first line in the old file, as parsed (set on parsed hunks only). */
  oldStart?: number;
  units: string[][];
}

export interface FilePatch {
  /** The header lines as written (diff --git, modes, rename, ---/+++). */
  header: string[];
  oldPath: string;
  path: string;
  kind: "new" | "deleted" | "renamed" | "modified";
  /** A binary change: git-format text cannot carry it. */
  binary: boolean;
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses what `renderDiff` (and git) write. */
export function parsePatch(text: string): FilePatch[] {
  const files: FilePatch[] = [];
  for (const section of text.split(/^(?=diff --git )/m)) {
    if (!section.startsWith("diff --git ")) continue;
    const lines = section.replace(/\n$/, "").split("\n");
    const [, from = "", to = ""] = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0]!) ?? [];
    const file: FilePatch = { header: [], oldPath: from, path: to, kind: "modified", binary: false, hunks: [] };
    for (const line of lines) {
      const hunk = HUNK_HEADER.exec(line);
      if (hunk) {
        const position = (start: string, count: string | undefined) => (count === "0" ? Number(start) + 1 : Number(start));
        file.hunks.push({ newStart: position(hunk[3]!, hunk[4]), oldStart: position(hunk[1]!, hunk[2]), units: [] });
      } else if (file.hunks.length > 0) {
        const units = file.hunks.at(-1)!.units;
        if (line.startsWith("\\") && units.length > 0) units.at(-1)!.push(line);
        else units.push([line]);
      } else {
        file.header.push(line);
        if (line.startsWith("new file mode")) file.kind = "new";
        else if (line.startsWith("deleted file mode")) file.kind = "deleted";
        else if (line.startsWith("rename from")) file.kind = "renamed";
        else if (line.startsWith("Binary files")) file.binary = true;
      }
    }
    files.push(file);
  }
  return files;
}

export const isOld = (unit: string[]) => unit[0]!.startsWith(" ") || unit[0]!.startsWith("-");
export const isNew = (unit: string[]) => unit[0]!.startsWith(" ") || unit[0]!.startsWith("+");
const asContext = (unit: string[]) => [` ${unit[0]!.slice(1)}`, ...unit.slice(1)];

/** Git's range notation: an empty side names the line before it, and a count of 1 is left out. */
function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

export function formatHunk(hunk: Hunk): string {
  const oldCount = hunk.units.filter(isOld).length;
  const newCount = hunk.units.filter(isNew).length;
  // Positions are where the hunk sits once the hunks before it are applied, which is where git looks.
  return [`@@ -${range(hunk.newStart, oldCount)} +${range(hunk.newStart, newCount)} @@`, ...hunk.units.flat()].join("\n");
}

/**
 * Cuts a hunk into hunks of at most `budget` characters that apply one after the other: each
 * piece borrows, as context, the line the previous piece left before it and the line that still
 * follows it. Throws when one line alone does not fit.
 */
export function splitHunk(hunk: Hunk, budget: number): Hunk[] {
  if (formatHunk(hunk).length <= budget) return [hunk];
  const units = hunk.units;
  const size = (unit: string[]) => unit.join("\n").length + 1;
  // nextOld[i]: the first old-side unit at or after i (what still follows a piece ending before i).
  const nextOld: Array<string[] | undefined> = new Array<string[] | undefined>(units.length + 1);
  for (let index = units.length - 1; index >= 0; index--) nextOld[index] = isOld(units[index]!) ? units[index] : nextOld[index + 1];
  const room = budget - 64; // the @@ line: two ranges of at most 30 characters
  const pieces: Hunk[] = [];
  let start = 0;
  let newBefore = 0; // new-side lines of the hunk before `start`
  let lead: string[] | undefined; // the last new-side unit before `start`
  while (start < units.length) {
    let used = lead ? size(lead) : 0;
    let end = start;
    while (end < units.length) {
      const trail = nextOld[end + 1];
      if (used + size(units[end]!) + (trail ? size(trail) : 0) > room) break;
      used += size(units[end]!);
      end++;
    }
    if (end === start) throw new Error(`a line of the patch is longer than the ${budget} characters one part may hold`);
    const trail = nextOld[end];
    pieces.push({
      newStart: hunk.newStart + newBefore - (lead ? 1 : 0),
      units: [...(lead ? [asContext(lead)] : []), ...units.slice(start, end), ...(trail ? [asContext(trail)] : [])],
    });
    for (const unit of units.slice(start, end)) {
      if (!isNew(unit)) continue;
      newBefore++;
      lead = unit;
    }
    start = end;
  }
  return pieces;
}

/** The header of a file's part: the first part creates or renames, the last deletes, the rest modify. */
function partHeader(file: FilePatch, first: boolean, last: boolean): string[] {
  if (first && last) return file.header;
  if (first && file.kind !== "deleted") return file.header;
  const path = file.kind === "deleted" ? file.oldPath : file.path;
  if (last && file.kind === "deleted")
    return [`diff --git a/${path} b/${path}`, "deleted file mode 100644", `--- a/${path}`, "+++ /dev/null"];
  return [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`];
}

export function formatFile(file: FilePatch, hunks = file.hunks, first = true, last = true): string {
  return [...partHeader(file, first, last), ...hunks.map(formatHunk)].join("\n");
}

/** A whole patch, newline-terminated as git expects. */
export function formatPatch(files: Array<{ file: FilePatch; hunks?: Hunk[] }>): string {
  return files.length === 0 ? "" : `${files.map(({ file, hunks }) => formatFile(file, hunks)).join("\n")}\n`;
}

/**
 * Splits a patch into parts of at most `budget` characters. Applied in order with `git apply`,
 * the parts make exactly the whole patch; binary files are left out (see `binaryFiles`).
 */
export function splitPatch(text: string, budget: number): string[] {
  const blocks: Array<{ file: FilePatch; hunks: Hunk[]; first: boolean; last: boolean }> = [];
  for (const file of parsePatch(text)) {
    if (file.binary) continue;
    // Room for the longest header this file's parts can have.
    const room = budget - Math.max(file.header.join("\n").length, 2 * file.path.length + 80) - 2;
    const hunks = file.hunks.flatMap((hunk) => splitHunk(hunk, room));
    if (hunks.length === 0) blocks.push({ file, hunks: [], first: true, last: true });
    hunks.forEach((hunk, index) => blocks.push({ file, hunks: [hunk], first: index === 0, last: index === hunks.length - 1 }));
  }
  const parts: string[] = [];
  let current: typeof blocks = [];
  const render = (group: typeof blocks) => {
    // Consecutive blocks of one file share a header.
    const merged: typeof blocks = [];
    for (const block of group) {
      const previous = merged.at(-1);
      if (previous && previous.file === block.file)
        merged[merged.length - 1] = { ...previous, hunks: [...previous.hunks, ...block.hunks], last: block.last };
      else merged.push(block);
    }
    return `${merged.map((block) => formatFile(block.file, block.hunks, block.first, block.last)).join("\n")}\n`;
  };
  for (const block of blocks) {
    if (current.length > 0 && render([...current, block]).length > budget) {
      parts.push(render(current));
      current = [];
    }
    current.push(block);
  }
  if (current.length > 0) parts.push(render(current));
  return parts;
}

export function binaryFiles(text: string): string[] {
  return parsePatch(text)
    .filter((file) => file.binary)
    .map((file) => file.path);
}
