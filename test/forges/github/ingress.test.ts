/**
 * Ingress: GitHub's own example payloads (@octokit/webhooks-examples) in, a plain Request or
 * nothing out — exactly the events the bot acts on.
 */
import { webhookExample } from "../../e2e/emulator/webhooks.js";
import { toRequest, type Delivery } from "../../../src/forges/github/ingress.js";
import { REQUEST_VERSION, requestKey } from "../../../src/pipeline/request.js";

type Json = Record<string, any>;

function delivery(name: string, action: string, edit: (payload: Json) => void = () => undefined): Delivery {
  const payload = webhookExample(name, action) as Json;
  payload.installation = { id: 77 };
  edit(payload);
  return { id: `delivery-${name}-${action}`, name, payload } as Delivery;
}

function prComment(body: string, edit: (payload: Json) => void = () => undefined): Delivery {
  return delivery("issue_comment", "created", (payload) => {
    payload.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
    payload.issue.number = 12;
    payload.comment.body = body;
    payload.comment.id = 901;
    payload.comment.user = { ...payload.comment.user, login: "alice", id: 5, type: "User" };
    edit(payload);
  });
}

describe("comments", () => {
  test("a PR comment with commands becomes a comment request by the comment's author", () => {
    const request = toRequest(prComment("Please:\n/ast-edit --pat a --out b\n/pending"));
    expect(request).toEqual({
      version: REQUEST_VERSION,
      forge: { id: "github", installationId: 77 },
      repository: { owner: "Codertocat", repo: "Hello-World" },
      pullRequest: 12,
      actor: { login: "alice", id: 5 },
      id: "delivery-issue_comment-created",
      intent: {
        kind: "commands",
        commands: [
          { name: "ast_edit", typed: "ast-edit", args: "--pat a --out b", line: 2 },
          { name: "pending", typed: "pending", args: "", line: 3 },
        ],
      },
      origin: { kind: "comment", commentId: 901 },
    });
    // Plain data: what a durable queue stores is what a worker gets back.
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
    expect(requestKey(request!)).toBe("Codertocat/Hello-World#12");
  });

  test("issues, bots and comments without commands are ignored", () => {
    expect(toRequest(prComment("/pending", (payload) => delete payload.issue.pull_request))).toBeUndefined();
    expect(toRequest(prComment("/pending", (payload) => (payload.comment.user.type = "Bot")))).toBeUndefined();
    expect(toRequest(prComment("/pending", (payload) => (payload.sender.type = "Bot")))).toBeUndefined();
    expect(toRequest(prComment("Looks good to me, see `/pending` later"))).toBeUndefined();
    expect(toRequest(prComment("```\n/ast-edit --pat a --out b\n```"))).toBeUndefined();
  });

  test("an edit's request holds only the commands it added, keyed by text and occurrence; deleted comments are nothing", () => {
    const edited = (from: string, body: string) =>
      toRequest(
        delivery("issue_comment", "edited", (payload) => {
          payload.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
          payload.comment.body = body;
          payload.comment.id = 902;
          payload.changes = { body: { from } };
        }),
      );
    const request = edited("/pending\nplease", "/help\n/pending\nplease\n/pending");
    expect(request?.intent).toEqual({
      kind: "commands",
      commands: [
        { name: "help", typed: "help", args: "", line: 1 },
        { name: "pending", typed: "pending", args: "", line: 4 },
      ],
    });
    expect(request?.origin).toEqual({ kind: "comment", commentId: 902, edit: { keys: [expect.any(String), expect.any(String)] } });
    // Moving a command to another line, or editing only prose, adds nothing.
    expect(edited("/pending\nplease", "please\n/pending")).toBeUndefined();
    const deleted = delivery("issue_comment", "deleted", (payload) => {
      payload.issue.pull_request = { url: "https://api.github.com/repos/Codertocat/Hello-World/pulls/1" };
      payload.comment.body = "/pending";
    });
    expect(toRequest(deleted)).toBeUndefined();
  });
});

function gateRun(action: string, edit: (payload: Json) => void = () => undefined): Delivery {
  return delivery("check_run", action, (payload) => {
    payload.check_run.name = "resolve-bot";
    payload.check_run.id = 4242;
    payload.check_run.external_id = "pr:9";
    payload.sender = { ...payload.sender, login: "bob", id: 6 };
    edit(payload);
  });
}

describe("check runs", () => {
  test("the gate's Apply and Discard buttons resolve the newest action of the PR in the gate's external id", () => {
    const apply = toRequest(gateRun("requested_action", (payload) => (payload.requested_action = { identifier: "apply" })));
    expect(apply).toMatchObject({
      pullRequest: 9,
      actor: { login: "bob", id: 6 },
      intent: { kind: "resolve-newest", action: "apply" },
      origin: { kind: "button", checkRunId: 4242 },
    });
    const discard = toRequest(gateRun("requested_action", (payload) => (payload.requested_action = { identifier: "discard" })));
    expect(discard?.intent).toEqual({ kind: "resolve-newest", action: "discard" });
  });

  test("buttons of other runs, unknown identifiers and runs without a pull request are ignored", () => {
    const other = gateRun("requested_action", (payload) => {
      payload.check_run.name = "ci";
      payload.requested_action = { identifier: "apply" };
    });
    expect(toRequest(other)).toBeUndefined();
    expect(toRequest(gateRun("requested_action", (payload) => (payload.requested_action = { identifier: "merge" })))).toBeUndefined();
    const orphan = gateRun("requested_action", (payload) => {
      payload.check_run.external_id = null;
      payload.check_run.pull_requests = [];
      payload.requested_action = { identifier: "apply" };
    });
    expect(toRequest(orphan)).toBeUndefined();
  });

  test("an action run's PR comes from GitHub's list; re-requested and stale runs of ours are requests", () => {
    const rerun = gateRun("rerequested", (payload) => {
      payload.check_run.name = "resolve-bot: AST Edit: 2 replacements";
      payload.check_run.external_id = "0b9c-record-id";
      payload.check_run.pull_requests = [{ number: 2 }];
    });
    expect(toRequest(rerun)).toMatchObject({ pullRequest: 2, intent: { kind: "re-preview" }, origin: { kind: "none" } });
    expect(toRequest(gateRun("completed", (payload) => (payload.check_run.conclusion = "stale")))?.intent).toEqual({ kind: "refresh" });
    // Our own runs complete on every apply and discard: that is no news.
    expect(toRequest(gateRun("completed", (payload) => (payload.check_run.conclusion = "success")))).toBeUndefined();
    expect(toRequest(gateRun("rerequested", (payload) => (payload.check_run.name = "ci")))).toBeUndefined();
  });

  test("a check suite with a pull request is a refresh; one without is ignored", () => {
    const suite = delivery("check_suite", "requested", (payload) => {
      payload.check_suite.pull_requests = [{ number: 3 }];
      payload.check_suite.head_sha = "c".repeat(40);
    });
    expect(toRequest(suite)).toMatchObject({ pullRequest: 3, intent: { kind: "refresh" }, origin: { kind: "none" } });
    expect(toRequest(delivery("check_suite", "requested", (payload) => (payload.check_suite.pull_requests = [])))).toBeUndefined();
  });
});

describe("pull requests", () => {
  test("synchronize moves the head from before to after", () => {
    let number = 0;
    const push = delivery("pull_request", "synchronize", (payload) => {
      number = payload.pull_request.number as number;
      payload.before = "a".repeat(40);
      payload.after = "b".repeat(40);
    });
    expect(toRequest(push)).toMatchObject({
      pullRequest: number,
      intent: { kind: "head-moved", before: "a".repeat(40), after: "b".repeat(40) },
      origin: { kind: "none" },
    });
  });

  test("opened, reopened and closed (merged or not)", () => {
    expect(toRequest(delivery("pull_request", "opened"))?.intent).toEqual({ kind: "opened" });
    expect(toRequest(delivery("pull_request", "reopened"))?.intent).toEqual({ kind: "opened" });
    const merged = delivery("pull_request", "closed", (payload) => (payload.pull_request.merged = true));
    expect(toRequest(merged)?.intent).toEqual({ kind: "closed", merged: true });
    const closed = delivery("pull_request", "closed", (payload) => (payload.pull_request.merged = false));
    expect(toRequest(closed)?.intent).toEqual({ kind: "closed", merged: false });
    expect(toRequest(delivery("pull_request", "labeled"))).toBeUndefined();
  });
});

describe("review comments and reviews", () => {
  function reviewComment(body: string, edit: (comment: Json) => void = () => undefined): Delivery {
    return delivery("pull_request_review_comment", "created", (payload) => {
      payload.pull_request.number = 5;
      Object.assign(payload.comment, { id: 31, body, path: "src/a.ts", line: 8, start_line: 6, side: "RIGHT", start_side: "RIGHT" });
      payload.comment.user = { ...payload.comment.user, login: "alice", id: 5, type: "User" };
      delete payload.comment.in_reply_to_id;
      edit(payload.comment);
    });
  }

  test("a command on lines of the diff carries the file, the lines and the side; a reply names its thread", () => {
    expect(toRequest(reviewComment("/move src/b.ts"))).toMatchObject({
      pullRequest: 5,
      actor: { login: "alice", id: 5 },
      intent: { kind: "commands", commands: [{ name: "move", args: "src/b.ts" }] },
      origin: { kind: "line-comment", commentId: 31, threadId: 31, path: "src/a.ts", lines: { start: 6, end: 8 }, side: "head" },
    });
    const reply = toRequest(reviewComment("/pending", (comment) => (comment.in_reply_to_id = 30)));
    expect(reply?.origin).toMatchObject({ commentId: 31, threadId: 30 });
    const single = toRequest(reviewComment("/pending", (comment) => (comment.start_line = null)));
    expect(single?.origin).toMatchObject({ lines: { start: 8, end: 8 } });
  });

  test("an outdated comment has no lines; a base-side one says so; bots and comments without commands are ignored", () => {
    const outdated = toRequest(reviewComment("/pending", (comment) => Object.assign(comment, { line: null, start_line: null })));
    expect(outdated?.origin).toEqual({ kind: "line-comment", commentId: 31, threadId: 31, path: "src/a.ts", side: "head" });
    expect(toRequest(reviewComment("/pending", (comment) => (comment.side = "LEFT")))?.origin).toMatchObject({ side: "base" });
    expect(toRequest(reviewComment("/pending", (comment) => (comment.user.type = "Bot")))).toBeUndefined();
    expect(toRequest(reviewComment("nice line"))).toBeUndefined();
  });

  test("a submitted review's body is a commands request answered in the conversation", () => {
    const review = delivery("pull_request_review", "submitted", (payload) => {
      payload.pull_request.number = 6;
      Object.assign(payload.review, { id: 77, body: "LGTM but\n/pending" });
      payload.review.user = { ...payload.review.user, login: "bob", id: 6, type: "User" };
    });
    expect(toRequest(review)).toMatchObject({
      pullRequest: 6,
      actor: { login: "bob", id: 6 },
      intent: { kind: "commands", commands: [{ name: "pending" }] },
      origin: { kind: "review", reviewId: 77 },
    });
    const empty = delivery("pull_request_review", "submitted", (payload) => (payload.review.body = null));
    expect(toRequest(empty)).toBeUndefined();
  });
});
