/**
 * Review comments on lines of a pull request's diff: the list, a reply in a comment's thread
 * (GitHub takes replies to a thread's first comment only), the app editing its own, and reactions
 * on a review comment.
 * People's comments are made by the control API (`webhooks.reviewComment`), as on GitHub they come
 * from the web page.
 */
import { HttpError, notFound, unprocessable, type ApiRequest, type Router } from "../router.js";
import { isoNow, type LineComment } from "../state.js";
import { intParam, objectBody, paginate, type RouteContext } from "./context.js";
import { registerReactionRoutes } from "./repos.js";

const MAX_BODY = 65536;

export function registerReviewCommentRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes } = ctx;

  const json = (c: LineComment) =>
    shapes.lineComment(c, {
      authorAssociation: ctx.authorAssociation(c.repo, c.user),
      reactions: state.reactions.filter((r) => r.commentId === c.id),
      rest: true,
    });

  const commentOr404 = (req: ApiRequest): LineComment => {
    const repo = ctx.repo(req);
    const id = intParam(req.params.comment_id);
    const found = state.lineComments.find((c) => c.repo === repo && c.id === id);
    if (!found) throw notFound();
    return found;
  };

  router.add("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/comments", "installation", (req) => {
    const repo = ctx.repo(req);
    const number = intParam(req.params.pull_number);
    if (!state.pull(repo, number)) throw notFound();
    const since = req.query.since ? Date.parse(req.query.since) : undefined;
    const list = state.lineComments.filter(
      (c) => c.repo === repo && c.number === number && (since === undefined || Date.parse(c.updatedAt) >= since),
    );
    const { page, headers } = paginate(list, req, shapes.api);
    return { status: 200, body: page.map(json), headers };
  });

  router.add("GET", "/repos/{owner}/{repo}/pulls/comments/{comment_id}", "installation", (req) => ({
    status: 200,
    body: json(commentOr404(req)),
  }));

  router.add("POST", "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies", "installation", (req) => {
    const repo = ctx.repo(req);
    const number = intParam(req.params.pull_number);
    const pr = state.pull(repo, number);
    const top = state.lineComments.find((c) => c.repo === repo && c.number === number && c.id === intParam(req.params.comment_id));
    if (!pr || !top) throw notFound();
    if (!state.installedOn(repo)) throw new HttpError(403, "Resource not accessible by integration");
    if (top.inReplyTo !== null) throw unprocessable("Validation Failed", { errors: ["Replies to replies are not supported"] });
    const body = objectBody(req).body;
    if (typeof body !== "string" || body.length === 0) {
      throw unprocessable("Validation Failed", {
        errors: [{ resource: "PullRequestReviewComment", code: "missing_field", field: "body" }],
      });
    }
    if (body.length > MAX_BODY) throw unprocessable("Validation Failed", { errors: ["Body is too long (maximum is 65536 characters)"] });
    const now = isoNow();
    const reply: LineComment = {
      ...top,
      id: state.nextId("review_comment", 70_000_000),
      user: ctx.appOf(req).bot,
      body,
      inReplyTo: top.id,
      reviewId: state.nextId("review", 80_000_000),
      createdAt: now,
      updatedAt: now,
    };
    state.lineComments.push(reply);
    return { status: 201, body: json(reply), headers: { location: `${shapes.api}/repos/${repo.fullName}/pulls/comments/${reply.id}` } };
  });

  router.add("PATCH", "/repos/{owner}/{repo}/pulls/comments/{comment_id}", "installation", (req) => {
    const c = commentOr404(req);
    const body = objectBody(req).body;
    if (typeof body !== "string" || body.length === 0) {
      throw unprocessable("Validation Failed", {
        errors: [{ resource: "PullRequestReviewComment", code: "missing_field", field: "body" }],
      });
    }
    if (body.length > MAX_BODY) throw unprocessable("Validation Failed", { errors: ["Body is too long (maximum is 65536 characters)"] });
    if (c.user !== ctx.appOf(req).bot) throw new HttpError(403, "Resource not accessible by integration");
    c.body = body;
    c.updatedAt = isoNow();
    return { status: 200, body: json(c) };
  });

  registerReactionRoutes(router, ctx, "/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", (req) => commentOr404(req).id);
}
