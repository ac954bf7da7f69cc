/**
 * When the bot cannot push to a fork, the edit is offered to its author instead: a pull request
 * review whose comments are GitHub suggested changes (```suggestion blocks, committed in one
 * click), one per changed run of lines that lies within the pull request's diff, on exactly those
 * lines; the rest as a patch for `git apply`, split across comments when it does not fit one
 * (never cut inside a fence).
 */
import { refusedWith } from "../api/http-errors.js";
import { binaryFiles, formatPatch, isNew, isOld, parsePatch, splitPatch, type FilePatch, type Hunk } from "./patch-parts.js";
import type { GitHubClient, PullRequestInfo } from "../types.js";
import { plural } from "../../../core/text.js";

/** GitHub's limit on issue, review and review comment bodies. */
export const COMMENT_LIMIT = 65_536;

export interface SuggestionComment {
  path: string;
  line: number;
  start_line?: number;
  side: "RIGHT";
  start_side?: "RIGHT";
  body: string;
}

export interface SuggestionPlan {
  comments: SuggestionComment[];
  /** The hunks that could not be suggestions, as a patch ("" when none). */
  rest: string;
}

/** The head-side line ranges of each hunk of a pull request file's patch: where comments may go. */
export function diffLineRanges(patch: string | undefined): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const match of (patch ?? "").matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (count > 0) ranges.push([start, start + count - 1]);
  }
  return ranges;
}

function fenced(language: string, lines: string[]): string {
  const longest = Math.max(2, ...lines.flatMap((line) => [...line.matchAll(/`+/g)].map((match) => match[0].length)));
  const fence = "`".repeat(longest + 1);
  return lines.length === 0 ? `${fence}${language}\n${fence}` : `${fence}${language}\n${lines.join("\n")}\n${fence}`;
}

/** How many unchanged lines a patch piece borrows on each side of its changes, as git writes them. */
const CONTEXT = 3;

const isChange = (unit: string[]) => unit[0]!.startsWith("+") || unit[0]!.startsWith("-");
const text = (unit: string[]) => unit[0]!.slice(1);

/** A maximal run of changed units of a hunk: units[from..to). */
interface Run {
  from: number;
  to: number;
}

function changedRuns(units: string[][]): Run[] {
  const runs: Run[] = [];
  for (let index = 0; index < units.length; index++) {
    if (!isChange(units[index]!)) continue;
    const from = index;
    while (index < units.length && isChange(units[index]!)) index++;
    runs.push({ from, to: index });
  }
  return runs;
}

/**
 * One changed run as a suggestion on exactly its head lines (a pure insertion takes a neighbouring
 * unchanged line into its range and body, whichever side is in the diff), or undefined when GitHub
 * could not take it as one. `oldLine[i]` is the head's line number of old-side unit i; lines up to
 * `taken` belong to an earlier suggestion (two insertions around one line cannot both anchor on it).
 */
function suggestion(
  path: string,
  units: string[][],
  run: Run,
  oldLine: number[],
  ranges: Array<[number, number]>,
  taken: number,
): SuggestionComment | undefined {
  const changed = units.slice(run.from, run.to);
  // A missing final newline cannot be suggested.
  if (changed.some((unit) => unit.length > 1)) return undefined;
  const added = changed.filter((unit) => unit[0]!.startsWith("+")).map(text);
  const removed = changed.map((unit, offset) => (unit[0]!.startsWith("-") ? run.from + offset : -1)).filter((at) => at >= 0);
  const candidates: Array<{ start: number; end: number; lines: string[] }> = [];
  if (removed.length > 0) {
    candidates.push({ start: oldLine[removed[0]!]!, end: oldLine[removed.at(-1)!]!, lines: added });
  } else {
    const before = units[run.from - 1];
    const after = units[run.to];
    if (before && !isChange(before) && before.length === 1)
      candidates.push({ start: oldLine[run.from - 1]!, end: oldLine[run.from - 1]!, lines: [text(before), ...added] });
    if (after && !isChange(after) && after.length === 1)
      candidates.push({ start: oldLine[run.to]!, end: oldLine[run.to]!, lines: [...added, text(after)] });
  }
  const inDiff = candidates.find(({ start, end }) => start > taken && ranges.some(([from, to]) => start >= from && end <= to));
  if (!inDiff) return undefined;
  const body = fenced("suggestion", inDiff.lines);
  if (body.length > COMMENT_LIMIT) return undefined;
  const { start, end } = inDiff;
  return { path, line: end, ...(start < end ? { start_line: start, start_side: "RIGHT" as const } : {}), side: "RIGHT", body };
}

/**
 * The runs of a hunk that are not suggestions, as hunks that apply with `git apply` whether or not
 * the suggestions were committed first: runs with no suggestion between them share a hunk, and the
 * context each borrows never reaches into a suggested run. `shift` counts the lines the file's
 * earlier pieces add.
 */
function restPieces(hunk: Hunk, runs: Run[], suggested: boolean[], oldLine: number[], shift: { lines: number }): Hunk[] {
  const units = hunk.units;
  const pieces: Hunk[] = [];
  for (let first = 0; first < runs.length; first++) {
    if (suggested[first]) continue;
    let last = first;
    while (last + 1 < runs.length && !suggested[last + 1]) last++;
    let from = runs[first]!.from;
    const floor = first > 0 ? runs[first - 1]!.to : 0;
    while (from > floor && runs[first]!.from - from < CONTEXT) from--;
    let to = runs[last]!.to;
    const ceiling = last + 1 < runs.length ? runs[last + 1]!.from : units.length;
    while (to < ceiling && to - runs[last]!.to < CONTEXT) to++;
    const piece = units.slice(from, to);
    // Where the piece starts in the head, moved by what the earlier pieces add: where git looks for it.
    pieces.push({ newStart: oldLine[from]! + shift.lines, units: piece });
    shift.lines += piece.filter(isNew).length - piece.filter(isOld).length;
    first = last;
  }
  return pieces;
}

/** Splits a patch (against the pull request's head) into suggestions and the rest. */
export function planSuggestions(patch: string, prFiles: Array<{ filename: string; patch?: string }>): SuggestionPlan {
  const comments: SuggestionComment[] = [];
  const rest: Array<{ file: FilePatch; hunks: Hunk[] }> = [];
  for (const file of parsePatch(patch)) {
    if (file.binary) continue;
    const prFile = file.kind === "modified" ? prFiles.find((candidate) => candidate.filename === file.path) : undefined;
    if (!prFile) {
      rest.push({ file, hunks: file.hunks });
      continue;
    }
    const ranges = diffLineRanges(prFile.patch);
    const left: Hunk[] = [];
    const shift = { lines: 0 };
    let taken = 0;
    for (const hunk of file.hunks) {
      let line = hunk.oldStart ?? hunk.newStart;
      const oldLine = hunk.units.map((unit) => (isOld(unit) ? line++ : line));
      const runs = changedRuns(hunk.units);
      const offered = runs.map((run) => {
        const comment = suggestion(file.path, hunk.units, run, oldLine, ranges, taken);
        if (comment) comments.push(comment);
        taken = comment?.line ?? taken;
        return comment;
      });
      left.push(...restPieces(hunk, runs, offered.map(Boolean), oldLine, shift));
    }
    if (left.length > 0 || file.hunks.length === 0) rest.push({ file, hunks: left });
  }
  return { comments, rest: formatPatch(rest) };
}

/**
 * The rest as comment bodies: one fenced patch per comment, each small enough and whole; undefined
 * when a single line is longer than a comment can hold (it is never cut).
 */
export function patchComments(patch: string, heading: (part: number, parts: number) => string): string[] | undefined {
  // Headings, fences and the language tag fit in 2,000 characters unless the patch holds long backtick runs.
  for (let budget = COMMENT_LIMIT - 2_000; budget > 1_000; budget = Math.floor(budget / 2)) {
    let parts: string[];
    try {
      parts = splitPatch(patch, budget);
    } catch {
      return undefined;
    }
    const bodies = parts.map(
      (part, index) => `${heading(index + 1, parts.length)}\n\n${fenced("diff", part.replace(/\n$/, "").split("\n"))}`,
    );
    if (bodies.every((body) => body.length <= COMMENT_LIMIT)) return bodies;
  }
  return undefined;
}

const TOO_LONG = "the rest cannot travel as a patch: one of its lines is longer than a comment may hold (65,536 characters)";

/**
 * Posts the review (and, when the rest is too large for it, the patch parts as comments) and
 * returns what the reply says about it, after "the edit stays pending;".
 */
export async function offerAsReview(octokit: GitHubClient, pr: PullRequestInfo, patch: string, why: string): Promise<string> {
  return offerSuggestions(octokit, pr, patch, `resolve-bot could not commit this edit to the fork ${pr.headRepo}: ${why}.`);
}

/**
 * Posts `patch` as a review: suggested changes for its changed runs of lines within the pull request's diff,
 * the rest as a patch; `intro` opens the review. Says where it went, as the end of a sentence.
 */
export async function offerSuggestions(octokit: GitHubClient, pr: PullRequestInfo, patch: string, intro: string): Promise<string> {
  const repo = { owner: pr.owner, repo: pr.repo };
  const prFiles = (await octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: pr.number, per_page: 100 })) as Array<{
    filename: string;
    patch?: string;
  }>;
  let plan = planSuggestions(patch, prFiles);
  const restParts = (rest: string): string[] | undefined =>
    rest
      ? patchComments(rest, (part, parts) =>
          parts === 1
            ? "The rest, as a patch for `git apply`:"
            : `Patch part ${part} of ${parts}: apply the parts in order with \`git apply\`.`,
        )
      : [];
  const reviewBody = (comments: number, parts: string[] | undefined) =>
    [
      intro,
      comments > 0 ? `${plural(comments, "suggested change")} below can be committed from this review in one click.` : "",
      parts === undefined
        ? `Sorry, ${TOO_LONG}.`
        : parts.length === 1
          ? parts[0]!
          : parts.length > 1
            ? `The rest is a patch too large for one comment: it follows in ${plural(parts.length, "comment")}, to apply in order with \`git apply\`.`
            : "",
    ]
      .filter(Boolean)
      .join("\n\n");
  let parts = restParts(plan.rest);
  let review;
  try {
    review = await octokit.rest.pulls.createReview({
      ...repo,
      pull_number: pr.number,
      commit_id: pr.headSha,
      event: "COMMENT",
      body: reviewBody(plan.comments.length, parts),
      comments: plan.comments,
    });
  } catch (error) {
    // GitHub decides which lines are in the diff; if it disagrees, everything goes in the patch.
    if (!refusedWith(error, 422) || plan.comments.length === 0) throw error;
    plan = { comments: [], rest: patch };
    parts = restParts(patch);
    review = await octokit.rest.pulls.createReview({
      ...repo,
      pull_number: pr.number,
      commit_id: pr.headSha,
      event: "COMMENT",
      body: reviewBody(0, parts),
    });
  }
  if (parts && parts.length > 1)
    for (const body of parts) await octokit.rest.issues.createComment({ ...repo, issue_number: pr.number, body });
  const where = [
    plan.comments.length > 0 ? `${plural(plan.comments.length, "suggested change")} the author can commit in one click` : "",
    parts?.length === 1
      ? "a patch for `git apply`"
      : parts && parts.length > 1
        ? `a patch for \`git apply\` in ${plural(parts.length, "comment")} after it`
        : "",
  ].filter(Boolean);
  const binary = binaryFiles(patch);
  return [
    where.length > 0
      ? `it is offered in [a review](${review.data.html_url}) as ${where.join(", and the rest as ")}.`
      : `see [the review](${review.data.html_url}).`,
    parts === undefined ? ` Sorry, ${TOO_LONG}.` : "",
    binary.length > 0 ? ` Binary changes (${binary.join(", ")}) cannot travel as a patch.` : "",
  ].join("");
}
