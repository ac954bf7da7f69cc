/**
 * What must hold before a request runs anything, and the refusals that say so. Refusals are
 * replies (the person who asked can act on them), in the runtime's markdown-ish text.
 */
import type { PermissionRefusal, PullRequestView } from "./ports.js";
import type { Origin } from "./request.js";

export function configProblems(file: string, errors: string[]): string {
  return `\`${file}\` has problems, so nothing was run:\n${errors.map((error) => `- ${error}`).join("\n")}`;
}

export function permissionRefusal(refusal: PermissionRefusal, actor: string): string {
  return `Sorry, \`/${refusal.command.replace(/_/g, "-")}\` needs ${refusal.needed} permission on this repository, and ${actor} has ${refusal.actual}. Nothing was changed.`;
}

/** Commands that read the stack still answer on a closed pull request; nothing else runs there. */
const READ_ONLY_COMMANDS = new Set(["help", "pending"]);

export function closedRefusal(pr: PullRequestView, commands: string[]): string | undefined {
  if (pr.state !== "closed" || commands.every((command) => READ_ONLY_COMMANDS.has(command))) return undefined;
  const how = pr.merged
    ? "was merged: a commit on its branch would never reach the base branch"
    : "is closed: reopen it to preview or resolve edits";
  return `This pull request ${how}. Nothing was run.`;
}

/**
 * Commands on lines of a file are scoped to those lines of the pull request's head: a comment
 * whose lines left the diff (outdated), or on the base side, has no such lines to scope them to.
 * What a command that needs them is told (the others run as in the conversation: session.ts).
 */
export function lineRefusal(origin: Extract<Origin, { kind: "line-comment" }>): string {
  if (origin.lines === undefined)
    return `This comment is on a line of ${origin.path} that is no longer part of the pull request's diff (it is outdated), so a command on its lines was not run. Comment on the current diff, or in the conversation.`;
  return `This comment is on the old (base) side of ${origin.path}; commands on a line act on the pull request's version of the file, so this one was not run. Comment on the new side of the diff, or in the conversation.`;
}
