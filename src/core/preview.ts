/** Preview: run a tool without writing anything and push what it proposes onto the stack. */
import { randomUUID } from "node:crypto";
import { executeTool } from "./execution.js";
import { describeAction } from "./fingerprint.js";
import { phrased, stackWouldOverflow } from "./messages.js";
import { resultText } from "./result.js";
import { UserError } from "../errors.js";
import type { CommandContext } from "./context.js";
import type { AnyToolDefinition } from "./tool.js";
import type { PreviewOutcome, PushedAction } from "./outcomes.js";

export type { PreviewOutcome, PushedAction } from "./outcomes.js";

/** `room`: how many more actions the stack may take; a preview that proposes more pushes none. */
export async function preview(
  tool: AnyToolDefinition,
  params: Record<string, unknown>,
  ctx: CommandContext,
  room = Infinity,
): Promise<PreviewOutcome> {
  const workspace = await ctx.workspace();
  const callId = randomUUID();
  let execution;
  try {
    execution = await executeTool(tool, params, workspace, callId);
  } catch (error) {
    // A tool's refusal may name front-end words (`{trustedTree}`…): filled with the asker's.
    if (error instanceof UserError) return { ok: false, message: phrased(error.message, ctx.phrasing), pushed: [] };
    throw error;
  }
  const message = resultText(execution.result);
  if (execution.result.isError) return { ok: false, message: phrased(message, ctx.phrasing), pushed: [] };

  if (execution.actions.length > room) {
    return { ok: false, message: stackWouldOverflow(execution.actions.length, room, ctx.phrasing), pushed: [] };
  }
  // Everything is computed before the first push, so a failure pushes nothing.
  const described = [];
  for (const action of execution.actions) described.push(await describeAction(action, workspace));
  const pushed: PushedAction[] = [];
  for (const [index, { fields, diff }] of described.entries()) {
    const record = await ctx.store.push(
      {
        ...fields,
        id: randomUUID(),
        tool: tool.name,
        params,
        callId,
        index,
        requestedBy: ctx.actor,
        ...(ctx.proposedBy ? { proposedBy: ctx.proposedBy } : {}),
        createdAt: new Date().toISOString(),
        ...(ctx.step !== undefined ? { requestStep: ctx.step } : {}),
      },
      { summary: message, diff },
    );
    pushed.push({ record, diff });
  }
  return { ok: true, message, pushed };
}
