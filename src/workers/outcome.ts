/** What running a task in a worker came to, and what the pull request is told when it was stopped. */
import { timedOut } from "../core/execution.js";

export type StopReason = "time-limit" | "memory-limit" | "crashed" | "aborted";

export type WorkerOutcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      reason: StopReason;
      /** For the person who typed the command: what happened and what it changed. */
      message: string;
      /** For the app's log only (an internal error, an exit code); never shown on the pull request. */
      detail?: string;
    };

export interface StopFacts {
  /** What was running, as the reply names it: "`/move`", "This comment's commands". */
  what: string;
  /** The task had said it started writing (committing): it may have changed the branch. */
  writing: boolean;
  timeLimitMs: number;
  memoryMb: number;
}

/** The same sentence as the in-process time limit (core/execution), so replies read alike. */
export function stoppedMessage(reason: StopReason, facts: StopFacts): string {
  const { what } = facts;
  if (reason === "time-limit" && !facts.writing) return timedOut(what, facts.timeLimitMs);
  const stopped = {
    "time-limit": `${what} did not finish within ${facts.timeLimitMs / 1000} s and was stopped`,
    "memory-limit": `${what} needed more than ${facts.memoryMb} MB of memory and was stopped`,
    crashed: `${what} failed inside resolve-bot (the error is in the app's log)`,
    aborted: `${what} was cancelled before it finished`,
  }[reason];
  return `${stopped}; ${facts.writing ? WHILE_WRITING : "nothing was changed."}`;
}

const WHILE_WRITING =
  "it was stopped while committing, so its commit may have landed: the next command on this pull request finds out and says which.";
