/**
 * The comment the bot posts after running a comment's commands. Each command's part opens with a
 * status line (what happened, once), then the details: long lists and diffs folded in `<details>`,
 * a link to the action's check run (which holds the full diff), and the next command once at the end.
 */
import type { CommentOutcome, CommandOutcome } from "../../../core/runtime.js";
import { stackPlace, type Reply, type ReplyStatus } from "../../../pipeline/reply.js";
import type { PendingRecord } from "../../../core/store.js";
import { RESOLVE_COMMANDS } from "../../../core/messages.js";
import { proposedBy } from "../checks/output.js";
import { codeBlock, details, text, truncate, truncateMarkdown } from "./markdown.js";
import { shortSha } from "../../../core/revision.js";
import { plural } from "../../../core/text.js";

/** GitHub comments hold 65,536 characters; diffs beyond this budget are cut. */
const DIFF_BUDGET = 40_000;
const COMMENT_LIMIT = 65_000;
/** Lists longer than this many lines are folded; diffs get more room (they are what people review). */
const FOLD_LINES = 12;
const FOLD_DIFF_LINES = 40;

export interface ReplyLinks {
  commitUrl(sha: string): string;
  /** The check run that holds a pending action (its full diff and annotations), when known (links.ts). */
  checkRunUrl?(record: PendingRecord): string | undefined;
}

function fold(summary: string, body: string, lines: number, limit = FOLD_LINES): string {
  return lines > limit ? details(summary, body) : body;
}

function changedFiles(diff: string): number {
  return diff.split("\n").filter((line) => line.startsWith("diff --git ")).length;
}

function renderPushed(outcome: CommandOutcome, links: ReplyLinks, stack: PendingRecord[], diffBudget: number): string[] {
  const parts: string[] = [];
  const message = outcome.message.split("\n");
  // The tool's first line usually is the label, which the status line already says.
  const rest = (outcome.pushed ?? []).some(({ record }) => record.label === message[0]) ? message.slice(1) : message;
  const said = rest.join("\n").trim();
  for (const [index, { record, diff }] of (outcome.pushed ?? []).entries()) {
    const url = links.checkRunUrl?.(record);
    const run = url ? ` · [check run](${url})` : "";
    const by = record.proposedBy ? `${proposedBy(record.proposedBy, record.requestedBy)}, ` : "";
    parts.push(`**${text(record.label)}** — ${by}pending${stackPlace(record, stack)}, nothing written yet${run}`);
    if (index === 0 && record.proposedBy?.rationale) parts.push(`The agent's rationale: ${text(record.proposedBy.rationale)}`);
    if (index === 0 && said) {
      const count = said.split("\n").length;
      parts.push(fold(`Details (${count} lines)`, text(said), count));
    }
    if (diff) {
      const cut = truncate(diff, Math.max(2_000, diffBudget));
      const lines = cut.text.split("\n").length;
      const files = changedFiles(diff);
      parts.push(fold(`Diff: ${lines} lines in ${plural(files, "file")}`, codeBlock(cut.text, "diff"), lines, FOLD_DIFF_LINES));
    }
  }
  return parts;
}

/** One command's section; `stack` is the stack afterwards, newest first (where a pushed action stands). */
export function renderOutcome(outcome: CommandOutcome, links: ReplyLinks, stack: PendingRecord[] = [], diffBudget = DIFF_BUDGET): string {
  // An apply of part (`--only`): what it committed, then the rest it left pending, as a preview reads.
  if (outcome.kind === "resolve" && (outcome.pushed ?? []).length > 0) {
    return [
      renderOutcome({ ...outcome, pushed: [] }, links, stack, diffBudget),
      ...renderPushed({ ...outcome, message: "" }, links, stack, diffBudget),
    ].join("\n\n");
  }
  if ((outcome.pushed ?? []).length > 0) return renderPushed(outcome, links, stack, diffBudget).join("\n\n");
  // /help and /pending were asked for: shown whole.
  if (outcome.kind === "help" || outcome.kind === "pending") return text(outcome.message);
  const lines: string[] = [];
  const [status = "", ...rest] = outcome.message.split("\n");
  lines.push(text(status));
  if (rest.join("").trim() !== "") {
    const body = rest.join("\n").trim();
    const count = body.split("\n").length;
    lines.push(fold(`Details (${count} lines)`, text(body), count));
  }
  const resolved = outcome.resolved;
  if (resolved) {
    const facts: string[] = [];
    if (resolved.commit) facts.push(`Commit [${shortSha(resolved.commit)}](${links.commitUrl(resolved.commit)})`);
    if (!outcome.message.includes(resolved.reason)) facts.push(`Reason: ${text(resolved.reason)}`);
    if (facts.length > 0) lines.push(facts.join(" · "));
  }
  return lines.join("\n\n");
}

export function renderReply(result: CommentOutcome, links: ReplyLinks): string {
  const several = result.outcomes.length + result.skipped.length > 1;
  const budget = DIFF_BUDGET / Math.max(1, result.outcomes.length);
  const sections = result.outcomes.map((outcome) => {
    const body = renderOutcome(outcome, links, result.stack, budget);
    return several ? `${outcome.ok ? "✅" : "❌"} \`${outcome.command}\`\n\n${body}` : body;
  });
  if (result.skipped.length > 0) {
    sections.push(`Not run, because an earlier command failed: ${result.skipped.map((command) => `\`${command}\``).join(", ")}.`);
  }
  // The top was pushed by this very reply: its label is already in the status line, so the end
  // says only the next command (the steering line's label and commands, each said once).
  const top = result.stack[0];
  const pushedHere = top !== undefined && result.outcomes.some((outcome) => outcome.pushed?.some(({ record }) => record.id === top.id));
  const steering = pushedHere && result.stack.length === 1 ? `Next: ${RESOLVE_COMMANDS}.` : result.steering;
  return withSteering(truncateMarkdown(sections.join("\n\n"), COMMENT_LIMIT, "lines of this reply").text, steering);
}

/** Ends a rendered reply with the steering line while something is pending (`Pending: … Resolve it with …`). */
export function withSteering(body: string, steering: string | undefined): string {
  return steering ? `${body}\n\n---\n${text(steering)}` : body;
}

/**
 * Where the error of a request that failed inside resolve-bot can be read, as the apology names it
 * (markdown): the server's log; the Action names its workflow run's (src/apps/action/inputs.ts).
 */
export const APP_LOG = "the app's log";

/** The only reply a bot failure gets: never the internal message (it may hold tokens, paths, URLs). */
export function internalError(errorLog = APP_LOG): string {
  return `Something went wrong inside resolve-bot; the error is in ${errorLog}. Nothing was committed unless a reply or a check run says so.`;
}

export const INTERNAL_ERROR = internalError();

/** Said on the pull request when a request is given up (retries exhausted, or an error not worth one). */
export function gaveUp(errorLog = APP_LOG): string {
  return `resolve-bot could not carry this out and gave up after several attempts; the error is in ${errorLog}. Nothing was committed unless a reply or a check run says so.`;
}

/** Line by line, so a stray backtick in one line cannot open a code span that shields the next. */
function textLines(message: string): string {
  return message
    .split("\n")
    .map((line) => text(line))
    .join("\n");
}

/** The comment for a request's reply (pipeline/reply.ts); `errorLog` as `internalError` takes it. */
export function renderGitHubReply(reply: Reply, links: ReplyLinks, errorLog = APP_LOG): string {
  if (reply.status === "bot-error") return internalError(errorLog);
  const preface = reply.preface === undefined ? "" : `${textLines(reply.preface)}\n\n`;
  if (reply.outcomes.length === 0 && reply.skipped.length === 0)
    return preface + withSteering(textLines(reply.notice ?? ""), reply.steering);
  return preface + renderReply(reply, links);
}

/**
 * Hidden at the end of each reply comment: the request it answers and how it ended. A request run
 * again after it had replied (it was cut short before the job was marked done) finds it and only
 * finishes (🚀/😕), instead of replying twice. Percent-encoded, so no id can close the comment.
 */
export function requestMarker(requestId: string, status: ReplyStatus): string {
  return `<!-- resolve-bot:request:${encodeURIComponent(requestId)}:${status} -->`;
}

const STATUSES: readonly ReplyStatus[] = ["ok", "user-error", "bot-error"];

/** The status a reply's marker records for `requestId`, if the body is that request's reply. */
export function repliedStatus(body: string, requestId: string): ReplyStatus | undefined {
  const prefix = `<!-- resolve-bot:request:${encodeURIComponent(requestId)}:`;
  const at = body.lastIndexOf(prefix);
  if (at === -1) return undefined;
  const status = body.slice(at + prefix.length).split(" ")[0] as ReplyStatus;
  return STATUSES.includes(status) ? status : undefined;
}

/**
 * Hidden in a reply to an edited comment: the keys of the commands it ran (request.ts's
 * `edit.keys`), so a later edit of that comment never runs them again.
 */
export function ranMarker(commentId: number, keys: readonly string[]): string {
  return `<!-- resolve-bot:ran:${commentId}:${keys.map(encodeURIComponent).join(",")} -->`;
}

/** The command keys a reply's `ranMarker` records for `commentId` (none when it has none). */
export function ranKeys(body: string, commentId: number): string[] {
  const match = new RegExp(`<!-- resolve-bot:ran:${commentId}:([^ ]*) -->`).exec(body);
  return match?.[1] ? match[1].split(",").map(decodeURIComponent) : [];
}
