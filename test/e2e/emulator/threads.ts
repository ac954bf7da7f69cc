/**
 * Where a review thread is on a pull request whose head moved, as GitHub works it out: lines no
 * commit since touched move with the text around them; once a commit changed or removed any of
 * them, or they left the diff, the thread is outdated (`line`/`start_line` null; `original_line`
 * keeps where it was written) and stays so. Base-side (LEFT) threads number the base's lines and
 * do not move with the head.
 */
import type { RouteContext } from "./routes/context.js";
import { pullRequestFiles, rightRanges } from "./routes/reviews.js";
import type { LineComment, PullRequest } from "./state.js";

/** The hunks of `git diff -U0` of one file: `old` lines [start, start + count) became `added` lines. */
function zeroContextHunks(diff: string): Array<{ oldStart: number; oldCount: number; newCount: number }> {
  return [...diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/gm)].map((match) => ({
    oldStart: Number(match[1]),
    oldCount: match[2] === undefined ? 1 : Number(match[2]),
    newCount: match[3] === undefined ? 1 : Number(match[3]),
  }));
}

/** Line `line` of the old version in the new one, or undefined when a hunk changed or removed it. */
function follow(line: number, hunks: ReturnType<typeof zeroContextHunks>): number | undefined {
  let shift = 0;
  for (const hunk of hunks) {
    // A pure insertion (-a,0) goes after old line a; a change spans its old lines.
    const last = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart + hunk.oldCount - 1;
    if (hunk.oldCount > 0 && line >= hunk.oldStart && line <= last) return undefined;
    if (last < line) shift += hunk.newCount - hunk.oldCount;
  }
  return line + shift;
}

/** Moves the thread that starts at `top` (all its comments) to the pull request's current head. */
export async function followThread(ctx: RouteContext, pr: PullRequest, top: LineComment): Promise<void> {
  if (top.side !== "RIGHT" || top.line === null) return;
  const { headSha } = await ctx.pullShas(pr);
  if (headSha === "" || headSha === top.commitId) return;
  const diff = await ctx.git.run(pr.repo.gitDir, ["diff", "--no-color", "--no-ext-diff", "-U0", top.commitId, headSha, "--", top.path]);
  const hunks = zeroContextHunks(diff.stdout.toString("utf8"));
  const line = follow(top.line, hunks);
  const startLine = top.startLine === null ? null : follow(top.startLine, hunks);
  const patch = (await pullRequestFiles(ctx, pr)).find((file) => file.filename === top.path)?.patch;
  const kept =
    line !== undefined && startLine !== undefined && rightRanges(patch).some(([from, to]) => (startLine ?? line) >= from && line <= to);
  const moved = kept ? { line, startLine, commitId: headSha } : { line: null, startLine: null };
  for (const comment of ctx.state.lineComments) {
    if (comment.id === top.id || comment.inReplyTo === top.id) Object.assign(comment, moved);
  }
}
