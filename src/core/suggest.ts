/**
 * `--as-suggestion`: a preview tool runs as usual, but what it proposes is handed to the front end
 * to offer as suggested changes (GitHub: a review whose comments commit in one click, plus a patch
 * for what is outside the pull request's diff). Nothing is pushed on the stack.
 */
import { randomUUID } from "node:crypto";
import { UserError } from "../errors.js";
import { renderDiff } from "../workspace/diff.js";
import type { CommandContext } from "./context.js";
import { executeTool } from "./execution.js";
import { resultText } from "./result.js";
import type { AnyToolDefinition } from "./tool.js";

export const NO_SUGGESTIONS_HERE = "`--as-suggestion` needs a pull request to suggest changes on; run the command without it.";

export async function suggestOnly(
  tool: AnyToolDefinition,
  params: Record<string, unknown>,
  ctx: CommandContext,
): Promise<{ ok: boolean; message: string }> {
  if (!ctx.suggest) return { ok: false, message: NO_SUGGESTIONS_HERE };
  const workspace = await ctx.workspace();
  let execution;
  try {
    execution = await executeTool(tool, params, workspace, randomUUID());
  } catch (error) {
    if (error instanceof UserError) return { ok: false, message: error.message };
    throw error;
  }
  const message = resultText(execution.result);
  if (execution.result.isError) return { ok: false, message };
  const lines: string[] = [];
  for (const action of execution.actions) {
    const diff = action.changes ? await renderDiff(action.changes) : "";
    if (diff.trim() === "") {
      lines.push(`${action.label}: no file changes to suggest.`);
      continue;
    }
    lines.push(`${action.label}: nothing was pushed; ${await ctx.suggest(action.label, diff)}`);
  }
  if (lines.length === 0) return { ok: true, message };
  return { ok: true, message: [...lines, message].join("\n") };
}
