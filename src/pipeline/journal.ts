/**
 * A request that runs again (its worker was killed, its lease lost) must not do twice what its
 * cut-short run did. Each command's writes name its request step (`<request>#<index>`: the pushed
 * record, the resolution, the commit's trailer), and the forge reads them back into a journal
 * (ports.journal). Here a journal answers, per command, what was already carried out: that command
 * is reported as it happened and not run again; the rest run normally.
 */
import type { SlashCommand } from "../core/commands.js";
import { renderResolution } from "../core/messages.js";
import { parseResolveArgs } from "../core/resolve.js";
import type { CommandOutcome } from "../core/runtime.js";
import type { RequestJournal } from "./ports.js";
import { shortSha } from "../core/revision.js";

const INTERRUPTED = "(resolve-bot was interrupted before it could reply). Nothing more was done.";

/** An apply whose commit is on the branch. */
export function alreadyCommitted(commit: string): string {
  return `This was already carried out: commit ${shortSha(commit)} on the branch is this request's apply ${INTERRUPTED}`;
}

/** An apply of part whose commit is on the branch (what became of the rest follows). */
export function alreadyCommittedPart(commit: string): string {
  return `This was already carried out: commit ${shortSha(commit)} on the branch is this request's apply of part (resolve-bot was interrupted before it could reply).`;
}

/** An apply that committed nothing, or a discard, whose check run says it was resolved. */
export function alreadyResolved(label: string, action: "apply" | "discard"): string {
  return `This was already carried out: ${label} was ${action === "apply" ? "applied" : "discarded"} ${INTERRUPTED}`;
}

/** A preview whose actions were pushed: the tool is not run again. */
export const ALREADY_PREVIEWED = `This was already carried out: the preview was pushed ${INTERRUPTED}`;

/** What the command at `step` already did, according to the journal; undefined when it is still to do. */
export function carriedOut(journal: RequestJournal, step: string, command: SlashCommand): CommandOutcome | undefined {
  const typed = `/${command.typed}`;
  if (command.name === "help" || command.name === "pending") return undefined; // they write nothing
  const parsed = command.name === "resolve" ? parseResolveArgs(command.args) : undefined;
  // A preview, `/resolve undo` included: what it wrote is the actions it pushed.
  if (parsed === undefined || ("action" in parsed && parsed.action === "undo")) {
    const pushed = journal.pushed.get(step);
    if (!pushed || pushed.length === 0) return undefined;
    return {
      command: typed,
      kind: "preview",
      ok: true,
      message: ALREADY_PREVIEWED,
      pushed: pushed.map((record) => ({ record, diff: "" })),
    };
  }
  const done = journal.resolved.get(step);
  if (!done || "error" in parsed) return undefined;
  const { commit, record } = done;
  // An apply of part (`--only`) pushed its rest too: core/resolve's `finishPart` says it, or pushes it if the cut came before.
  const part = parsed.only !== undefined && commit !== undefined;
  const message = part
    ? alreadyCommittedPart(commit)
    : commit !== undefined
      ? alreadyCommitted(commit)
      : alreadyResolved(record?.label ?? "the newest pending action", done.action);
  const pushed = part ? (journal.pushed.get(step) ?? []).map((pushedRecord) => ({ record: pushedRecord, diff: "" })) : undefined;
  const resolved = record && {
    record,
    action: done.action,
    reason: parsed.reason,
    rendered: renderResolution(done.action, record.label, parsed.reason),
    ...(commit !== undefined ? { commit } : {}),
  };
  return { command: typed, kind: "resolve", ok: true, message, ...(resolved ? { resolved } : {}), ...(pushed ? { pushed } : {}) };
}
