/**
 * Ingress: a GitHub webhook event becomes a Request (an intent plus its origin), or nothing. Only
 * what the bot acts on passes: slash commands (not from bots) in pull request comments, in review
 * comments on lines of the diff and in submitted review bodies, the gate check's Apply/Discard buttons, pushes, opened/reopened/closed pull requests, check suites
 * and our own check runs re-requested or gone stale. Reading the event is all it does: no API calls.
 */
import type { Context } from "probot";
import { addedCommands, parseCommands } from "../../core/commands.js";
import { REQUEST_VERSION, type Intent, type Origin, type Request, type RequestActor } from "../../pipeline/request.js";
import { actionIdOf, externalIdPullRequest, GATE_CHECK_NAME, isOurRunName } from "./checks/run-ids.js";

/** The webhook events ingress reads (Probot `app.on` names). */
export const INGRESS_EVENTS = [
  "issue_comment.created",
  "issue_comment.edited",
  "pull_request_review_comment.created",
  "pull_request_review.submitted",
  "check_run.requested_action",
  "check_run.rerequested",
  "check_run.completed",
  "check_suite.requested",
  "check_suite.rerequested",
  "pull_request.synchronize",
  "pull_request.opened",
  "pull_request.reopened",
  "pull_request.closed",
] as const;

export type IngressEvent = (typeof INGRESS_EVENTS)[number];

/** What ingress needs of a Probot context: the delivery id and the payload. */
export interface Delivery<E extends IngressEvent = IngressEvent> {
  id: string;
  name: string;
  payload: Context<E>["payload"];
}

interface Common {
  repository: { owner: { login: string }; name: string };
  installation?: { id: number } | null;
  sender: { login: string; id: number };
}

const NO_ORIGIN: Origin = { kind: "none" };

function request(delivery: Delivery, pullRequest: number, intent: Intent, origin: Origin, actor?: RequestActor): Request {
  const payload = delivery.payload as Common;
  const installationId = payload.installation?.id;
  return {
    version: REQUEST_VERSION,
    forge: { id: "github", ...(installationId === undefined ? {} : { installationId }) },
    repository: { owner: payload.repository.owner.login, repo: payload.repository.name },
    pullRequest,
    actor: actor ?? { login: payload.sender.login, id: payload.sender.id },
    id: delivery.id,
    intent,
    origin,
  };
}

/**
 * A check run's pull request: our runs name it in their external id (checks/run-ids.ts),
 * since GitHub lists no pull requests on runs of fork heads; others through GitHub's list.
 */
function runPullRequest(run: { external_id: string | null; pull_requests: Array<{ number: number }> }): number | undefined {
  const number = externalIdPullRequest(run.external_id) ?? run.pull_requests[0]?.number;
  return number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
}

function fromComment(delivery: Delivery<"issue_comment.created">): Request | undefined {
  const { payload } = delivery;
  if (!payload.issue.pull_request) return undefined;
  if (payload.comment.user?.type === "Bot" || payload.sender.type === "Bot") return undefined;
  const commands = parseCommands(payload.comment.body ?? "");
  if (commands.length === 0 || !payload.comment.user) return undefined;
  const actor = { login: payload.comment.user.login, id: payload.comment.user.id };
  return request(delivery, payload.issue.number, { kind: "commands", commands }, { kind: "comment", commentId: payload.comment.id }, actor);
}

/**
 * A review comment on lines of the diff (or a reply in its thread, which carries the thread's
 * lines): its commands are scoped to those lines. GitHub sends `line: null` once the lines left
 * the diff (outdated); `side` LEFT numbers the base's lines.
 */
function fromReviewComment(delivery: Delivery<"pull_request_review_comment.created">): Request | undefined {
  const { payload } = delivery;
  const comment = payload.comment;
  const user = comment.user;
  if (!user || user.type === "Bot" || payload.sender.type === "Bot") return undefined;
  const commands = parseCommands(comment.body);
  if (commands.length === 0) return undefined;
  const line = comment.line ?? null;
  const side = comment.side === "LEFT" ? "base" : "head";
  // A range whose first line is on the other side cannot be scoped to one version: its last line only.
  const start = comment.start_line !== null && (comment.start_side ?? comment.side) === comment.side ? comment.start_line : line;
  const origin: Origin = {
    kind: "line-comment",
    commentId: comment.id,
    threadId: comment.in_reply_to_id ?? comment.id,
    path: comment.path,
    ...(line === null ? {} : { lines: { start: start ?? line, end: line } }),
    side,
  };
  return request(delivery, payload.pull_request.number, { kind: "commands", commands }, origin, { login: user.login, id: user.id });
}

/** A submitted review's body: its commands run in order, like a comment's, answered in the conversation. */
function fromReview(delivery: Delivery<"pull_request_review.submitted">): Request | undefined {
  const { payload } = delivery;
  const review = payload.review;
  if (!review.user || review.user.type === "Bot" || payload.sender.type === "Bot") return undefined;
  const commands = parseCommands(review.body ?? "");
  if (commands.length === 0) return undefined;
  const actor = { login: review.user.login, id: review.user.id };
  return request(delivery, payload.pull_request.number, { kind: "commands", commands }, { kind: "review", reviewId: review.id }, actor);
}

/**
 * An edited comment: only the commands the edit added (by text and occurrence, so moving a line
 * adds nothing), each with a short key; whether edits run at all is the repository's setting,
 * read when the request runs.
 */
function fromEditedComment(delivery: Delivery<"issue_comment.edited">): Request | undefined {
  const { payload } = delivery;
  if (!payload.issue.pull_request || !payload.comment.user) return undefined;
  if (payload.comment.user.type === "Bot" || payload.sender.type === "Bot") return undefined;
  const before = payload.changes.body?.from;
  if (before === undefined) return undefined;
  const added = addedCommands(before, payload.comment.body ?? "");
  if (added.length === 0) return undefined;
  const keys = added.map(({ key }) => key);
  const actor = { login: payload.comment.user.login, id: payload.comment.user.id };
  const origin: Origin = { kind: "comment", commentId: payload.comment.id, edit: { keys } };
  return request(delivery, payload.issue.number, { kind: "commands", commands: added.map(({ command }) => command) }, origin, actor);
}

function fromRequestedAction(delivery: Delivery<"check_run.requested_action">): Request | undefined {
  const { payload } = delivery;
  const run = payload.check_run;
  if (run.name !== GATE_CHECK_NAME) return undefined;
  const action = payload.requested_action?.identifier;
  if (action !== "apply" && action !== "discard") return undefined;
  const number = runPullRequest(run);
  return number === undefined
    ? undefined
    : request(delivery, number, { kind: "resolve-newest", action }, { kind: "button", checkRunId: run.id });
}

function fromRerequested(delivery: Delivery<"check_run.rerequested">): Request | undefined {
  const run = delivery.payload.check_run;
  const number = runPullRequest(run);
  if (!isOurRunName(run.name) || number === undefined) return undefined;
  const actionId = actionIdOf(run);
  return request(delivery, number, { kind: "re-preview", ...(actionId ? { actionId } : {}) }, NO_ORIGIN);
}

function fromCompleted(delivery: Delivery<"check_run.completed">): Request | undefined {
  const run = delivery.payload.check_run;
  // Our own runs complete all the time (apply, discard, moves): only GitHub's "stale" is news.
  if (run.conclusion !== "stale" || !isOurRunName(run.name)) return undefined;
  const number = runPullRequest(run);
  return number === undefined ? undefined : request(delivery, number, { kind: "refresh" }, NO_ORIGIN);
}

function fromCheckSuite(delivery: Delivery<"check_suite.requested" | "check_suite.rerequested">): Request | undefined {
  const suite = delivery.payload.check_suite;
  const number = suite.pull_requests[0]?.number;
  return number === undefined ? undefined : request(delivery, number, { kind: "refresh" }, NO_ORIGIN);
}

function fromPullRequest(
  delivery: Delivery<"pull_request.synchronize" | "pull_request.opened" | "pull_request.reopened" | "pull_request.closed">,
): Request | undefined {
  const { payload } = delivery;
  const number = payload.pull_request.number;
  switch (payload.action) {
    case "synchronize":
      return request(delivery, number, { kind: "head-moved", before: payload.before, after: payload.after }, NO_ORIGIN);
    case "closed":
      return request(delivery, number, { kind: "closed", merged: payload.pull_request.merged === true }, NO_ORIGIN);
    default:
      return request(delivery, number, { kind: "opened" }, NO_ORIGIN);
  }
}

/** The request an event asks for, or undefined when the bot has nothing to do with it. */
export function toRequest(delivery: Delivery): Request | undefined {
  const action = (delivery.payload as { action?: string }).action;
  switch (`${delivery.name}.${action}` as IngressEvent) {
    case "issue_comment.created":
      return fromComment(delivery);
    case "issue_comment.edited":
      return fromEditedComment(delivery);
    case "pull_request_review_comment.created":
      return fromReviewComment(delivery);
    case "pull_request_review.submitted":
      return fromReview(delivery);
    case "check_run.requested_action":
      return fromRequestedAction(delivery);
    case "check_run.rerequested":
      return fromRerequested(delivery);
    case "check_run.completed":
      return fromCompleted(delivery);
    case "check_suite.requested":
    case "check_suite.rerequested":
      return fromCheckSuite(delivery);
    case "pull_request.synchronize":
    case "pull_request.opened":
    case "pull_request.reopened":
    case "pull_request.closed":
      return fromPullRequest(delivery);
    default:
      return undefined;
  }
}
