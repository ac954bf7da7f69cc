/**
 * What the runtime says happened, as data: a leaf every other core module (and every front end)
 * may import, so the runtime's callers never import the runtime for its types.
 */
import type { PendingRecord } from "./store.js";

export interface PushedAction {
  record: PendingRecord;
  diff: string;
}

export interface PreviewOutcome {
  ok: boolean;
  /** The tool's reply text. */
  message: string;
  pushed: PushedAction[];
}

export type ResolveAction = "apply" | "discard";

export interface ResolveOutcome {
  ok: boolean;
  /** The reply, exactly as the spec words it. */
  message: string;
  /** Set when an action was resolved (popped). */
  resolved?: {
    record: PendingRecord;
    action: ResolveAction;
    reason: string;
    /** `Accept: … [Source]\nReason: …` (renderResolution). */
    rendered: string;
    commit?: string;
  };
  /** What an apply of part (`--only`) left pending: the rest, previewed again. */
  pushed?: PushedAction[];
}

export interface CommandOutcome {
  /** The command as typed, e.g. `/ast-edit`. */
  command: string;
  kind: "preview" | "resolve" | "help" | "pending" | "error";
  ok: boolean;
  /** The reply for this command (the steering line is added by the front end). */
  message: string;
  pushed?: PushedAction[];
  resolved?: ResolveOutcome["resolved"];
}

export interface CommentOutcome {
  outcomes: CommandOutcome[];
  /** Commands not run because an earlier one failed. */
  skipped: string[];
  /** The stack after the comment, newest first. */
  stack: PendingRecord[];
  /** The steering line (`Pending: … Resolve it with …`), when something is pending. */
  steering?: string;
}
