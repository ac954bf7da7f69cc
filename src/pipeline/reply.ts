/**
 * The neutral reply model: what a request did, which each forge renders (GitHub: forges/github/replies/render.ts,
 * a comment; local: forges/local/terminal.ts, stdout and stderr). Messages are the runtime's markdown-ish
 * text (code spans, bold); renderers escape or strip them.
 */
import type { CommandOutcome } from "../core/runtime.js";
import type { PendingRecord } from "../core/store.js";

/**
 * ok: everything asked for ran. user-error: a command failed or a requirement refused it (the
 * reply says why, in words for whoever asked). bot-error: the bot failed; the renderer apologises
 * and the cause is only in the log.
 */
export type ReplyStatus = "ok" | "user-error" | "bot-error";

export interface Reply {
  status: ReplyStatus;
  /** What each command did, in order (a comment's commands, or the button's resolve). */
  outcomes: CommandOutcome[];
  /** Commands not run because an earlier one failed, as typed. */
  skipped: string[];
  /** Said before everything else: which lines of an edited comment were run. */
  preface?: string;
  /** An edited comment's command keys this reply answers with an outcome: the forge records them, so no edit runs them again. */
  ran?: string[];
  /** A message that is no command's: a refusal before anything ran, or what a push did. */
  notice?: string;
  /** The stack afterwards, newest first. */
  stack: PendingRecord[];
  /** The steering line (`Pending: … Resolve it with …`) while something is pending. */
  steering?: string;
  /** How long the request took (ms): given only when it said early that it was working (pipeline/cost.ts). */
  took?: number;
}

/**
 * Where a pushed action stands on the stack afterwards, numbered as /pending numbers it (newest
 * first: the first is resolved next): ` (1 of 2, newest first)`. Nothing when it is alone (or no
 * longer pending). Not the record's `seq`, which counts every action ever pushed on the pull request.
 */
export function stackPlace(record: PendingRecord, stack: PendingRecord[]): string {
  const index = stack.findIndex((entry) => entry.id === record.id);
  return index < 0 || stack.length === 1 ? "" : ` (${index + 1} of ${stack.length}, newest first)`;
}
