/** Every fixed sentence the runtime says (resolve, the stack's limits, steering, undo), in one place. */
import type { PendingRecord } from "./store.js";
import { shortSha } from "./revision.js";

export const NOTHING_PENDING = "No pending action to resolve. Nothing to apply or discard.";
export const RESOLVE_USAGE = "/resolve apply <reason> | /resolve discard <reason> | /resolve undo <reason>";

export const applied = (label: string): string => `Applied: ${label}.`;
export const discarded = (label: string, reason: string): string => `Discarded: ${label}. Reason: ${reason}`;
export const applyFailed = (cause: string): string => `Apply failed: ${cause}`;

/** `AST Edit: 2 replacements in 1 file` → `Accept: 2 replacements in 1 file [AST Edit]`: how a resolved action is named. */
export function renderResolvedLabel(action: "apply" | "discard", label: string): string {
  const verb = action === "apply" ? "Accept" : "Discard";
  const split = label.indexOf(": ");
  if (split < 0) return `${verb}: ${label}`;
  return `${verb}: ${label.slice(split + 2)} [${label.slice(0, split)}]`;
}

export function renderResolution(action: "apply" | "discard", label: string, reason: string): string {
  return `${renderResolvedLabel(action, label)}\nReason: ${reason}`;
}

/** The exact commands that resolve the top of the stack, in a pull request comment. */
export const RESOLVE_COMMANDS = "`/resolve apply <reason>` or `/resolve discard <reason>`";
/** The same commands on the local command line. */
export const LOCAL_RESOLVE_COMMANDS = '`resolve-bot resolve apply "<reason>"` or `resolve-bot resolve discard "<reason>"`';
/** The undo command, in a pull request comment and on the local command line. */
export const UNDO_COMMAND = "`/resolve undo <reason>`";
export const LOCAL_UNDO_COMMAND = '`resolve-bot resolve undo "<reason>"`';

/**
 * The line every reply ends with while something is pending; undefined when empty.
 * `commands` is how the front end says the resolve commands.
 */
export function steeringLine(stack: PendingRecord[], commands = RESOLVE_COMMANDS): string | undefined {
  const top = stack[0];
  if (!top) return undefined;
  const more = stack.length > 1 ? ` (${stack.length} pending; the newest is resolved first)` : "";
  return `Pending: ${top.label}${more}. Resolve it with ${commands}.`;
}

export function strictRefusal(top: PendingRecord, commands = RESOLVE_COMMANDS): string {
  return `This repository uses \`steering: strict\`: resolve the pending action first (${top.label}) with ${commands}.`;
}

export function tooManyCommands(count: number, max: number): string {
  return `This comment holds ${count} commands; at most ${max} run per comment (\`limits.max_commands_per_comment\` in \`.github/resolve-bot.yml\`). Nothing was run: split them over several comments.`;
}

export function stackFull(count: number, max: number, commands = RESOLVE_COMMANDS): string {
  return `This pull request already has ${count} pending actions, the most it may hold (${max}; \`limits.max_pending\` in \`.github/resolve-bot.yml\`). Nothing was previewed: resolve some first with ${commands}.`;
}

export function stackWouldOverflow(proposed: number, room: number): string {
  return `This preview proposes ${proposed} pending actions, but the stack has room for ${room} more (\`limits.max_pending\` in \`.github/resolve-bot.yml\`). Nothing was pushed.`;
}

/** After a commit landed but the store could not record it (e.g. the forge kept failing). */
export function recordingFailed(commit: string): string {
  return `The edit is committed (${shortSha(commit)}), but marking it applied on the pull request failed; the next command finishes that from the commit itself, so it is never applied twice.`;
}

/** `/resolve undo` where resolve-bot has committed nothing. */
export const NOTHING_TO_UNDO = "Nothing to undo: resolve-bot has applied no commit on this pull request.";

/** `/resolve undo` where the front end cannot read or revert commits. */
export const UNDO_UNAVAILABLE = "Undo is not available here: this front end cannot read or revert commits.";

/** The label of an undo's pending action: `Undo: <the commit's subject> (<short sha>)`. */
export function undoLabel(subject: string, commit: string): string {
  return `Undo: ${subject} (${shortSha(commit)})`;
}

/** How an undo names the commit it reverts: `1a2b3c4 (AST Edit: 2 replacements in 1 file)`. */
export function undoneCommit(subject: string, commit: string): string {
  return `${shortSha(commit)} (${subject})`;
}

/** The revert conflicts with later commits: nothing is pushed, and the files are named. */
export function undoConflicts(named: string, commit: string, files: string[]): string {
  const shown = files.length > 10 ? `${files.slice(0, 10).join(", ")} and ${files.length - 10} more` : files.join(", ");
  return `Undo of ${named} does not apply cleanly: later commits changed the same lines in ${shown}. Nothing was pushed; to undo it anyway, revert it by hand (\`git revert ${shortSha(commit)}\`) and resolve the conflicts.`;
}

/** The head already has none of the commit's changes (someone reverted it). */
export function nothingLeftToUndo(named: string, head: string): string {
  return `Nothing to undo: ${shortSha(head)} already has none of the changes of ${named}.`;
}
