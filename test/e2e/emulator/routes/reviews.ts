/**
 * A pull request's files (its three-dot diff, as GitHub lists it) and reviews with line
 * comments, which GitHub only accepts on lines that are part of that diff.
 */
import { HttpError, notFound, unprocessable, type ApiRequest, type Router } from "../router.js";
import { isoNow, type PullRequest, type Review, type ReviewComment } from "../state.js";
import { intParam, objectBody, paginate, type RouteContext } from "./context.js";

const MAX_BODY = 65536;
const NOT_IN_DIFF = "Pull request review thread line must be part of the diff";

export interface PullFile {
  filename: string;
  previousFilename?: string;
  status: "added" | "removed" | "modified" | "renamed";
  sha: string;
  additions: number;
  deletions: number;
  patch?: string;
}

/** Splits `git diff --full-index` output into GitHub's per-file entries. */
function parseDiff(text: string): PullFile[] {
  const files: PullFile[] = [];
  for (const section of text.split(/^(?=diff --git )/m).filter((part) => part.startsWith("diff --git "))) {
    const lines = section.replace(/\n$/, "").split("\n");
    const hunkAt = lines.findIndex((line) => line.startsWith("@@"));
    const header = hunkAt === -1 ? lines : lines.slice(0, hunkAt);
    const patchLines = hunkAt === -1 ? [] : lines.slice(hunkAt);
    const value = (prefix: string) => header.find((line) => line.startsWith(prefix))?.slice(prefix.length);
    const [, from = "", to = ""] = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0]!) ?? [];
    const status =
      value("new file mode") !== undefined
        ? "added"
        : value("deleted file mode") !== undefined
          ? "removed"
          : value("rename from ")
            ? "renamed"
            : "modified";
    const index = /^index [0-9a-f]+\.\.([0-9a-f]+)/.exec(header.find((line) => line.startsWith("index ")) ?? "")?.[1];
    files.push({
      filename: value("rename to ") ?? to,
      ...(status === "renamed" ? { previousFilename: value("rename from ") ?? from } : {}),
      status,
      sha: index ?? "0".repeat(40),
      additions: patchLines.filter((line) => line.startsWith("+")).length,
      deletions: patchLines.filter((line) => line.startsWith("-")).length,
      ...(patchLines.length ? { patch: patchLines.join("\n") } : {}),
    });
  }
  return files;
}

/** The head-side (RIGHT) line ranges of each hunk: where review comments may go. */
export function rightRanges(patch: string | undefined): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const match of (patch ?? "").matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (count > 0) ranges.push([start, start + count - 1]);
  }
  return ranges;
}

/** A pull request's files: its three-dot diff, per file. */
export async function pullRequestFiles(ctx: RouteContext, pr: PullRequest): Promise<PullFile[]> {
  const { headSha, baseSha } = await ctx.pullShas(pr);
  const out = await ctx.git.run(pr.repo.gitDir, ["diff", "--no-color", "--no-ext-diff", "--full-index", "-M", `${baseSha}...${headSha}`]);
  return parseDiff(out.stdout.toString("utf8"));
}

/** The base-side (LEFT) line ranges of each hunk. */
export function leftRanges(patch: string | undefined): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const match of (patch ?? "").matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (count > 0) ranges.push([start, start + count - 1]);
  }
  return ranges;
}

export function registerReviewRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes } = ctx;

  const pullOr404 = (req: ApiRequest): PullRequest => {
    const pr = state.pull(ctx.repo(req), intParam(req.params.pull_number));
    if (!pr) throw notFound();
    return pr;
  };

  const pullFiles = (pr: PullRequest) => pullRequestFiles(ctx, pr);

  router.add("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/files", "installation", async (req) => {
    const pr = pullOr404(req);
    const { headSha } = await ctx.pullShas(pr);
    const { page, headers } = paginate(await pullFiles(pr), req, shapes.api);
    const body = page.map((file) => ({
      sha: file.sha,
      filename: file.filename,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions,
      changes: file.additions + file.deletions,
      blob_url: `${shapes.web}/${pr.repo.fullName}/blob/${headSha}/${file.filename}`,
      raw_url: `${shapes.web}/${pr.repo.fullName}/raw/${headSha}/${file.filename}`,
      contents_url: `${shapes.api}/repos/${pr.repo.fullName}/contents/${file.filename}?ref=${headSha}`,
      ...(file.patch !== undefined ? { patch: file.patch } : {}),
      ...(file.previousFilename ? { previous_filename: file.previousFilename } : {}),
    }));
    return { status: 200, body, headers };
  });

  router.add("POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", "installation", async (req) => {
    const pr = pullOr404(req);
    if (!state.installedOn(pr.repo)) throw new HttpError(403, "Resource not accessible by integration");
    const input = objectBody(req);
    const body = typeof input.body === "string" ? input.body : "";
    const event = input.event ?? "PENDING";
    if (!["COMMENT", "APPROVE", "REQUEST_CHANGES", "PENDING"].includes(event as string)) throw unprocessable("Invalid event");
    if (body.length > MAX_BODY) throw unprocessable("Validation Failed", { errors: ["Body is too long (maximum is 65536 characters)"] });
    if ((event === "COMMENT" || event === "REQUEST_CHANGES") && !body && !Array.isArray(input.comments)) {
      throw unprocessable("Unprocessable Entity", { errors: ["Review body can't be blank"] });
    }
    const files = await pullFiles(pr);
    const comments: ReviewComment[] = [];
    for (const raw of Array.isArray(input.comments) ? input.comments : []) {
      const comment = (raw ?? {}) as Record<string, unknown>;
      const path = comment.path;
      const line = comment.line;
      const startLine = comment.start_line ?? line;
      if (typeof path !== "string" || !Number.isInteger(line) || !Number.isInteger(startLine) || typeof comment.body !== "string") {
        throw unprocessable("Unprocessable Entity", { errors: ['"path", "line" and "body" are required for each comment'] });
      }
      if (comment.body.length > MAX_BODY)
        throw unprocessable("Validation Failed", { errors: ["Body is too long (maximum is 65536 characters)"] });
      if (comment.side !== undefined && comment.side !== "RIGHT") throw unprocessable("Unprocessable Entity", { errors: [NOT_IN_DIFF] });
      const ranges = rightRanges(files.find((file) => file.filename === path)?.patch);
      const inside = ranges.some(
        ([from, to]) => (startLine as number) >= from && (line as number) <= to && (startLine as number) <= (line as number),
      );
      if (!inside) throw unprocessable("Unprocessable Entity", { errors: [NOT_IN_DIFF] });
      comments.push({
        id: state.nextId("review_comment", 70_000_000),
        path,
        line: line as number,
        startLine: startLine === line ? null : (startLine as number),
        body: comment.body,
      });
    }
    const { headSha } = await ctx.pullShas(pr);
    const commitId = typeof input.commit_id === "string" ? input.commit_id : headSha;
    const review: Review = {
      id: state.nextId("review", 80_000_000),
      repo: pr.repo,
      number: pr.number,
      user: ctx.appOf(req).bot,
      body,
      state:
        event === "APPROVE"
          ? "APPROVED"
          : event === "REQUEST_CHANGES"
            ? "CHANGES_REQUESTED"
            : event === "COMMENT"
              ? "COMMENTED"
              : "PENDING",
      commitId,
      submittedAt: isoNow(),
      comments,
    };
    state.reviews.push(review);
    const html = `${shapes.web}/${pr.repo.fullName}/pull/${pr.number}#pullrequestreview-${review.id}`;
    const pullUrl = `${shapes.api}/repos/${pr.repo.fullName}/pulls/${pr.number}`;
    return {
      status: 200,
      body: {
        id: review.id,
        node_id: Buffer.from(`0:PullRequestReview${review.id}`).toString("base64"),
        user: shapes.user(review.user),
        body: review.body,
        state: review.state,
        html_url: html,
        pull_request_url: pullUrl,
        _links: { html: { href: html }, pull_request: { href: pullUrl } },
        submitted_at: review.submittedAt,
        commit_id: review.commitId,
        author_association: "NONE",
      },
    };
  });
}
