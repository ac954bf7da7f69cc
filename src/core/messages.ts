/** Every fixed sentence the runtime says (resolve, the stack's limits, steering, undo), in one place. */
import type { PendingRecord } from "./store.js";
import { shortSha } from "./revision.js";

export const NOTHING_PENDING = "No pending action to resolve. Nothing to apply or discard.";
export const RESOLVE_USAGE = "/resolve apply [--only <path>…] <reason> | /resolve discard <reason> | /resolve undo <reason>";

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

/**
 * The words a front end's people type and read, for the sentences below: how they resolve and
 * undo, where a repository's settings live, and what turned strict steering on. Each front end
 * gives its own through the pipeline's ports; the default is a pull request comment's.
 */
export interface Phrasing {
  /** How to resolve the newest pending action, e.g. "`/resolve apply <reason>` or `/resolve discard <reason>`". */
  resolveCommands: string;
  /** How to undo the newest applied commit. */
  undoCommand: string;
  /** The settings file as a sentence names it, where its `limits.*` keys are changed. */
  configFile: string;
  /** What made steering strict, as the refusal opens: "This repository uses `steering: strict`". */
  strictBy: string;
  /** How a preview is applied, in a sentence's middle: "`/resolve apply`" (a tool's `{applyCommand}`). */
  applyCommand: string;
  /** Where trusted files (a repository's own rules) are read: "the default branch, never the pull request" (`{trustedFiles}`). */
  trustedFiles: string;
  /** The tree trusted files are read from, as a noun: "the default branch" (a tool message's `{trustedTree}`). */
  trustedTree: string;
  /** How the stack is listed: "`/pending`". */
  pendingCommand: string;
  /** How the help is shown: "`/help`", or for one command (named without its slash) "`/help move`". */
  helpCommand(command?: string): string;
}

export const COMMENT_PHRASING: Phrasing = {
  resolveCommands: RESOLVE_COMMANDS,
  undoCommand: "`/resolve undo <reason>`",
  configFile: "`.github/resolve-bot.yml`",
  strictBy: "This repository uses `steering: strict`",
  applyCommand: "`/resolve apply`",
  trustedFiles: "the default branch, never the pull request",
  trustedTree: "the default branch",
  pendingCommand: "`/pending`",
  helpCommand: (command) => (command === undefined ? "`/help`" : `\`/help ${command}\``),
};

/** A tool's text with the front end's words in its placeholders (`{applyCommand}`, `{trustedFiles}`, `{trustedTree}`). */
export function phrased(text: string, phrasing: Phrasing = COMMENT_PHRASING): string {
  return text.replace(
    /\{(applyCommand|trustedFiles|trustedTree)\}/g,
    (_match, key: "applyCommand" | "trustedFiles" | "trustedTree") => phrasing[key],
  );
}

/** An MCP client's words: the `resolve` tool's calls; its front end says where the settings are and what made steering strict. */
export function mcpPhrasing(where: Pick<Phrasing, "configFile" | "strictBy">): Phrasing {
  return {
    resolveCommands: 'a `resolve` call with action "apply" or "discard" and a reason',
    undoCommand: 'a `resolve` call with action "undo" and a reason',
    applyCommand: 'a `resolve` call with action "apply"',
    trustedFiles: "the checkout",
    trustedTree: "the checkout",
    pendingCommand: "a `pending` call",
    helpCommand: (command) =>
      command === undefined ? "the tool list (`tools/list`)" : `the description of \`${command.replace(/-/g, "_")}\` in the tool list`,
    ...where,
  };
}

/** The line every reply ends with while something is pending; undefined when empty. */
export function steeringLine(stack: PendingRecord[], phrasing: Phrasing = COMMENT_PHRASING): string | undefined {
  const top = stack[0];
  if (!top) return undefined;
  const more = stack.length > 1 ? ` (${stack.length} pending; the newest is resolved first)` : "";
  return `Pending: ${top.label}${more}. Resolve it with ${phrasing.resolveCommands}.`;
}

export function strictRefusal(top: PendingRecord, phrasing: Phrasing = COMMENT_PHRASING): string {
  return `${phrasing.strictBy}: resolve the pending action first (${top.label}) with ${phrasing.resolveCommands}.`;
}

export function tooManyCommands(count: number, max: number, phrasing: Phrasing = COMMENT_PHRASING): string {
  return `This comment holds ${count} commands; at most ${max} run per comment (\`limits.max_commands_per_comment\` in ${phrasing.configFile}). Nothing was run: split them over several comments.`;
}

export function stackFull(count: number, max: number, phrasing: Phrasing = COMMENT_PHRASING): string {
  return `This pull request already has ${count} pending actions, the most it may hold (${max}; \`limits.max_pending\` in ${phrasing.configFile}). Nothing was previewed: resolve some first with ${phrasing.resolveCommands}.`;
}

export function stackWouldOverflow(proposed: number, room: number, phrasing: Phrasing = COMMENT_PHRASING): string {
  return `This preview proposes ${proposed} pending actions, but the stack has room for ${room} more (\`limits.max_pending\` in ${phrasing.configFile}). Nothing was pushed.`;
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
  // Undoing an undo brings the edit back: "Redo: <edit> (<sha>)", not "Undo: Undo: <edit> (…) (…)".
  const undone = /^Undo: (.*) \([0-9a-f]{7,64}\)$/.exec(subject);
  return undone ? `Redo: ${undone[1]} (${shortSha(commit)})` : `Undo: ${subject} (${shortSha(commit)})`;
}

/** What an undo's commit gives as its reason: why it was asked for, and why it was applied. */
export function undoCommitReason(undoReason: string, applyReason: string): string {
  return undoReason.trim() === "" || undoReason === applyReason ? applyReason : `${applyReason}\n\nUndo asked for: ${undoReason}`;
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

/* `/resolve apply --only <path>…`: part of the newest action (core/apply-part.ts). */

/** How a list of files reads in a sentence: `a.ts, b.ts` (the first ten, then how many more). */
export function fileList(files: readonly string[]): string {
  return files.length > 10 ? `${files.slice(0, 10).join(", ")} and ${files.length - 10} more` : files.join(", ");
}

/** The label of what is left pending: `<label> (rest)`, never `(rest) (rest)`. */
export function restLabel(label: string): string {
  return label.endsWith(" (rest)") ? label : `${label} (rest)`;
}

/** The label a part's commit carries: `<label> (part: a.ts)`. */
export function partLabel(label: string, files: readonly string[]): string {
  const base = label.endsWith(" (rest)") ? label.slice(0, -" (rest)".length) : label;
  return `${base} (part: ${files.length > 3 ? `${files.length} files` : files.join(", ")})`;
}

/** What an apply of part left pending. */
export function restPending(label: string, rest: readonly string[]): string {
  return `The rest (${fileList(rest)}) is pending as ${restLabel(label)}.`;
}

/** The reply of an apply of part: what was committed, and what is pending again. */
export function appliedPart(label: string, files: readonly string[], rest: readonly string[]): string {
  return `Applied ${label} to ${fileList(files)} only. ${restPending(label, rest)}`;
}

/** The part was committed but the rest could not be previewed again: said, never hidden. */
export function restNotPending(label: string, files: readonly string[], rest: readonly string[], why: string): string {
  return `Applied ${label} to ${fileList(files)} only. ${restNotPendingAfter(rest, why)}`;
}

/** The rest of a part applied before an interruption, which cannot be previewed again now. */
export function restNotPendingAfter(rest: readonly string[], why: string): string {
  return `The rest (${fileList(rest)}) could not be previewed again, so nothing of it is pending: ${why}`;
}

export const NOTHING_APPLIED = "Nothing was applied.";

/** `--only` on an action that cannot be split. */
export function cannotSplit(label: string, tool: string, files: readonly string[], phrasing: Phrasing = COMMENT_PHRASING): string {
  const what = files.length > 0 ? `its changes to ${fileList(files)} go together` : "it changes no files resolve-bot can tell apart";
  return `${label} cannot be applied in part: \`${tool}\` does not split by file (${what}). Apply or discard it whole with ${phrasing.resolveCommands}. ${NOTHING_APPLIED}`;
}

/** `--only` naming files the action does not change, none, or all of them. */
export function notAmongFiles(label: string, unknown: readonly string[], files: readonly string[]): string {
  const named = unknown.length === 1 ? `${unknown[0]}, which` : `${fileList(unknown)}, which`;
  return `\`--only\` names ${named} ${label} does not change. Its files: ${fileList(files)}. ${NOTHING_APPLIED}`;
}

export function noFilesNamed(label: string, files: readonly string[]): string {
  return `\`--only\` names no file: name the files to apply before the reason (the rest stays pending). The files of ${label}: ${fileList(files)}. ${NOTHING_APPLIED}`;
}

export function everyFileNamed(label: string, files: readonly string[]): string {
  return `\`--only\` names every file of ${label} (${fileList(files)}), so nothing would be left pending: apply it whole, without \`--only\`. ${NOTHING_APPLIED}`;
}

/** `/resolve discard --only …` or `/resolve undo --only …`. */
export function onlyWithApply(action: string): string {
  const whole = action === "undo" ? "reverts a whole commit" : "acts on the whole newest action";
  return `\`--only\` goes with \`/resolve apply\` alone: \`/resolve ${action}\` ${whole}.`;
}

/** An option `/resolve` does not know (`/resolve apply --force it`): refused, since a mistyped `--only` must not apply everything. */
export function unknownResolveOption(action: string, option: string): string {
  const takes = action === "apply" ? " (it takes `--only <path>…`)" : "";
  return `\`/resolve ${action}\` has no option \`${option}\`${takes}. To begin the reason with \`--\`, put \`--\` before it: \`/resolve ${action} -- ${option} …\`.`;
}
