/**
 * What must hold before a request runs anything, and the refusals that say so. Refusals are
 * replies (the person who asked can act on them), in the runtime's markdown-ish text.
 */
import type { PermissionRefusal, PullRequestView } from "./ports.js";

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
