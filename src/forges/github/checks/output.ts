/**
 * What check runs say: titles, summaries and texts of action runs and of the gate. Rendering only:
 * stack.ts keeps the stack (persistence), gate.ts decides what the gate shows.
 * User text goes through `text()` or a code fence.
 */
import { RESOLVE_COMMANDS, renderResolution } from "../../../core/messages.js";
import type { PendingRecord, PreviewPresentation, Proposal, Resolution } from "../../../core/store.js";
import { codeBlock, text, truncate } from "../replies/markdown.js";
import { shortSha } from "../../../core/revision.js";
import { plural } from "../../../core/text.js";

/** GitHub's limit on output.summary and output.text. */
export const OUTPUT_LIMIT = 65_535;

/** GitHub's limit on titles is 255 characters. */
export function limitTitle(value: string): string {
  return value.length <= 255 ? value : `${value.slice(0, 254)}…`;
}

export function annotationTitle(record: PendingRecord): string {
  return limitTitle(`resolve-bot: ${record.label}`);
}

export function annotationMessage(hunk: string): string {
  return truncate(hunk, 60_000).text;
}

/** The summary of a pending action's run (the durable record is appended by the store). */
export function actionSummary(record: PendingRecord, preview: PreviewPresentation, note: string, hunks: number, annotated: number): string {
  // A tool's summary usually opens with the label, which the first line already says in bold.
  const [first = "", ...rest] = preview.summary.split("\n");
  const summaryBody = first === record.label ? rest.join("\n").trim() : preview.summary;
  const parts = [
    note,
    `**${text(record.label)}** — ${previewedFor(record)} (action #${record.seq} of this pull request).`,
    record.proposedBy?.rationale ? `The agent's rationale: ${text(record.proposedBy.rationale)}` : "",
    summaryBody ? truncate(text(summaryBody), 8_000).text : "",
    hunks > annotated ? `The first ${annotated} of ${hunks} changed hunks are annotated; the full diff is below.` : "",
    `Resolve the newest pending action with ${RESOLVE_COMMANDS} in a pull request comment.`,
  ].filter(Boolean);
  return parts.join("\n\n");
}

/** Where and for whom: "previewed on abc1234 for alice", or an agent's (MCP) "proposed by an agent (its name) for @alice, previewed on abc1234". */
function previewedFor(record: PendingRecord): string {
  const on = `previewed on ${shortSha(record.headSha)}`;
  if (!record.proposedBy) return `${on} for ${text(record.requestedBy)}`;
  return `${proposedBy(record.proposedBy, record.requestedBy)}, ${on}`;
}

/** "proposed by an agent (claude-code) for @alice" (the @ defused: nobody is pinged). */
export function proposedBy(proposal: Proposal, person: string): string {
  return `proposed by an agent (${text(proposal.agent)}) for ${text(`@${person}`)}`;
}

/** The run's text: the whole diff in one fence, cut below GitHub's limit. */
export function diffText(diff: string): string {
  if (!diff) return "This action declares no file changes.";
  const fenceRoom = 40;
  return codeBlock(truncate(diff, OUTPUT_LIMIT - fenceRoom).text, "diff");
}

export function completedTitle(verb: string, record: PendingRecord): string {
  return limitTitle(`${verb}: ${record.label}`);
}

/** Who resolved it, the commit, and the decision as resolve renders it (`Accept: … [Source]`, then the reason). */
export function resolutionSummary(record: PendingRecord, resolution: Resolution, commitUrl: (sha: string) => string): string {
  const outcome =
    resolution.action === "apply"
      ? resolution.commit
        ? `Applied in [${shortSha(resolution.commit)}](${commitUrl(resolution.commit)}) by ${text(resolution.actor)}.`
        : `Applied by ${text(resolution.actor)}.`
      : `Discarded by ${text(resolution.actor)}.`;
  return `${outcome}\n\n${text(renderResolution(resolution.action, record.label, resolution.reason)).replace("\n", "  \n")}`;
}

export function carriedNote(fromSha: string, why: string): string {
  return `Carried over from ${shortSha(fromSha)} after ${text(why)}.`;
}

export function movedSummary(sha: string, why: string): string {
  return `Moved to ${shortSha(sha)} after ${text(why)}; it is still pending there.`;
}

/** An apply whose commit landed but whose run was never completed (the bot died, GitHub failed). */
export function interruptedApplySummary(sha: string, commitUrl: (sha: string) => string): string {
  return `Applied in [${shortSha(sha)}](${commitUrl(sha)}); recorded after an interrupted apply.`;
}

export function supersededSummary(sha: string): string {
  return `Superseded by ${shortSha(sha)}: previewed again there.`;
}

export function closedSummary(sha: string, why: string): string {
  return `Closed on ${shortSha(sha)}: ${text(why)}.`;
}

/** The gate: action_required with the stack listed while anything is pending, success when empty. */
export function gateOutput(stack: PendingRecord[]): { conclusion: "action_required" | "success"; title: string; summary: string } {
  const top = stack[0];
  if (!top) return { conclusion: "success", title: "No pending edits", summary: "Nothing is pending on this pull request." };
  return {
    conclusion: "action_required",
    title: limitTitle(`Pending: ${top.label}`),
    summary: [
      `${pendingEdits(stack.length)} on this pull request, newest first:`,
      "",
      ...stack.map((record, index) => `${index + 1}. ${text(record.label)}`),
      "",
      `The buttons act on the newest. In a comment: ${RESOLVE_COMMANDS}.`,
    ].join("\n"),
  };
}

/** A dormant action re-created on the head (GitHub marked its run stale, or the PR was reopened). */
export function restoredNote(sha: string): string {
  return `Restored on ${shortSha(sha)}: its previous run was completed without a resolution (GitHub marks runs stale after 14 days; closing the pull request closes them). It is still pending.`;
}

function pendingEdits(count: number): string {
  return plural(count, "pending edit");
}

/** Why the pending actions of a closed or merged pull request were completed without being applied. */
export function prClosedSummary(merged: boolean, count: number): string {
  const notApplied = count === 1 ? "it was not applied" : "they were not applied";
  if (merged) return count > 0 ? `PR merged with ${pendingEdits(count)}; ${notApplied}.` : "PR merged; nothing was pending.";
  return count > 0
    ? `PR closed with ${pendingEdits(count)}; ${notApplied}. Reopening the pull request restores them.`
    : "PR closed; nothing was pending.";
}

/** The gate of a closed pull request: neutral, so it blocks nothing and claims nothing. */
export function closedGateOutput(summary: string): { conclusion: "neutral"; title: string; summary: string } {
  return { conclusion: "neutral", title: limitTitle(summary), summary };
}

/** The gate while the repository's configuration cannot be read: failing, with the problems named. */
export function brokenConfigGateOutput(configFile: string, errors: string[]): { conclusion: "failure"; title: string; summary: string } {
  return {
    conclusion: "failure",
    title: `${configFile} has problems`,
    summary: [
      `resolve-bot cannot check this pull request until \`${configFile}\` on the default branch is fixed:`,
      "",
      ...errors.map((error) => `- ${text(error)}`),
    ].join("\n"),
  };
}
