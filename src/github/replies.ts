/** The comment the bot posts after running a comment's commands. */
import type { CommentOutcome, CommandOutcome } from "../core/runtime.js";
import { codeBlock, text, truncate } from "./markdown.js";

/** GitHub comments hold 65,536 characters; diffs beyond this budget are cut. */
const DIFF_BUDGET = 40_000;
const COMMENT_LIMIT = 65_000;

export function renderOutcome(outcome: CommandOutcome, commitUrl: (sha: string) => string, diffBudget = DIFF_BUDGET): string {
  const lines: string[] = [];
  if (outcome.message) lines.push(text(outcome.message));
  for (const { record, diff } of outcome.pushed ?? []) {
    lines.push(`**Pending #${record.seq}: ${text(record.label)}**`);
    if (diff) lines.push(codeBlock(truncate(diff, Math.max(2_000, diffBudget)).text, "diff"));
  }
  const resolved = outcome.resolved;
  if (resolved) {
    lines.push(text(resolved.rendered));
    if (resolved.commit) lines.push(`Commit: [${resolved.commit.slice(0, 7)}](${commitUrl(resolved.commit)})`);
  }
  return lines.join("\n\n");
}

export function renderReply(result: CommentOutcome, commitUrl: (sha: string) => string): string {
  const several = result.outcomes.length + result.skipped.length > 1;
  const budget = DIFF_BUDGET / Math.max(1, result.outcomes.length);
  const sections = result.outcomes.map((outcome) => {
    const body = renderOutcome(outcome, commitUrl, budget);
    return several ? `**${outcome.command}** ${outcome.ok ? "✅" : "❌"}\n\n${body}` : body;
  });
  if (result.skipped.length > 0) {
    sections.push(`Not run, because an earlier command failed: ${result.skipped.map((command) => `\`${command}\``).join(", ")}.`);
  }
  return withSteering(truncate(sections.join("\n\n"), COMMENT_LIMIT, "lines of this reply").text, result.steering);
}

/** Ends a rendered reply with the steering line while something is pending (spec §7). */
export function withSteering(body: string, steering: string | undefined): string {
  return steering ? `${body}\n\n---\n${text(steering)}` : body;
}
