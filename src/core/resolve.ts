/** `/resolve apply|discard`: pop the newest pending action, then apply or discard it. */
import { applyAction, rejectAction } from "./execution.js";
import {
  applied,
  applyFailed,
  discarded,
  NOTHING_PENDING,
  recordingFailed,
  renderResolution,
  RESOLVE_USAGE,
  undoCommitReason,
} from "./messages.js";
import { UNDO_TOOL } from "./undo.js";
import { replay } from "./replay.js";
import { resultText } from "./result.js";
import { UserError } from "../errors.js";
import type { CommandContext } from "./context.js";
import type { ToolRegistry } from "./registry.js";
import type { PendingRecord } from "./store.js";
import type { ResolveAction, ResolveOutcome } from "./outcomes.js";

export type { ResolveAction, ResolveOutcome } from "./outcomes.js";

/** What `/resolve` may be asked: resolve the newest action, or preview undoing resolve-bot's newest commit (core/undo.ts). */
export type ResolveVerb = ResolveAction | "undo";

/** Reads `/resolve apply <reason…>`: the rest of the line is the reason. */
export function parseResolveArgs(args: string): { action: ResolveVerb; reason: string } | { error: string } {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(args.trim());
  const action = match?.[1]?.toLowerCase();
  if (action !== "apply" && action !== "discard" && action !== "undo") {
    return { error: `\`/resolve\` needs an action, \`apply\`, \`discard\` or \`undo\`, and a reason. Usage: \`${RESOLVE_USAGE}\`` };
  }
  const reason = match![2]!.trim();
  if (reason === "") return { error: `\`/resolve ${action}\` needs a reason. Usage: \`${RESOLVE_USAGE}\`` };
  return { action, reason };
}

/** The request step the resolution is recorded with, when the context names one. */
function stepOf(ctx: CommandContext): { requestStep?: string } {
  return ctx.step !== undefined ? { requestStep: ctx.step } : {};
}

export async function resolve(registry: ToolRegistry, action: ResolveAction, reason: string, ctx: CommandContext): Promise<ResolveOutcome> {
  if (reason.trim() === "") return { ok: false, message: `\`/resolve ${action}\` needs a reason. Usage: \`${RESOLVE_USAGE}\`` };
  const record = await ctx.store.peek();
  if (!record) return { ok: false, message: NOTHING_PENDING };
  return action === "apply" ? applyTop(registry, record, reason, ctx) : discardTop(registry, record, reason, ctx);
}

async function applyTop(registry: ToolRegistry, record: PendingRecord, reason: string, ctx: CommandContext): Promise<ResolveOutcome> {
  let message: string;
  let commit: string | undefined;
  try {
    const workspace = await ctx.workspace();
    const live = await replay(registry, record, workspace);
    const application = await applyAction(live, reason, workspace);
    if (application.result.isError) throw new UserError(resultText(application.result) || "apply() reported an error.");
    message = resultText(application.result) || applied(record.label);
    ctx.progress?.writing();
    // An undo's commit keeps why it was asked for (`/resolve undo <reason>`) beside why it was applied.
    const undoReason = record.tool === UNDO_TOOL && typeof record.params.reason === "string" ? record.params.reason : undefined;
    const committed = undoReason === undefined ? reason : undoCommitReason(undoReason, reason);
    commit = await ctx.commit(application.changes, { record, reason: committed, actor: ctx.actor, message, ...stepOf(ctx) });
  } catch (error) {
    // A cause the reviewer can act on (stale preview, refused push, the tool's own UserError):
    // nothing was committed, so the action stays on the stack for another try.
    if (error instanceof UserError) return { ok: false, message: applyFailed(error.message) };
    // Anything else is not the reviewer's to fix and never reads "Apply failed": the forge failing
    // for now goes back to the job queue (nothing was committed, and the journal makes the next
    // attempt safe); a bug is logged and answered with an apology. The action stays pending.
    throw error;
  }
  const rendered = renderResolution("apply", record.label, reason);
  const resolved = { record, action: "apply" as const, reason, rendered, ...(commit !== undefined ? { commit } : {}) };
  let popped: PendingRecord | null;
  try {
    popped = await ctx.store.pop({ id: record.id, action: "apply", reason, actor: ctx.actor, message, commit, ...stepOf(ctx) });
  } catch (error) {
    if (!commit) throw error;
    // The branch moved: that is the truth to tell, whatever failed next. The store finishes the
    // record from the commit's trailer later (the next command, or the push of this commit).
    ctx.report?.(error, `marking ${record.label} applied failed after commit ${commit}`);
    return { ok: true, message: `${message}\n\n${recordingFailed(commit)}`, resolved };
  }
  if (!popped) {
    // Someone resolved the stack meanwhile: the commit is real all the same.
    ctx.report?.(new Error("the top of the stack changed during an apply"), `${record.label} committed as ${commit ?? "nothing"}`);
    return { ok: true, message: commit ? `${message}\n\n${recordingFailed(commit)}` : message, resolved };
  }
  return { ok: true, message, resolved };
}

async function discardTop(registry: ToolRegistry, record: PendingRecord, reason: string, ctx: CommandContext): Promise<ResolveOutcome> {
  let message = discarded(record.label, reason);
  try {
    // Replay only to run the tool's cleanup; discard works even when replay is impossible.
    const workspace = await ctx.workspace();
    const live = await replay(registry, record, workspace);
    const rejected = await rejectAction(live, reason, workspace);
    if (rejected && resultText(rejected) !== "") message = resultText(rejected);
  } catch (error) {
    // Tool gone, files changed, cleanup failed: the default message stands (reject() is reached
    // only through a replay). A failure that is not the reviewer's (a bug in reject(), the forge down) is still worth a log line.
    if (!(error instanceof UserError))
      ctx.report?.(error, `discarding ${record.label}: replay or cleanup failed; the default message stands`);
  }
  const popped = await ctx.store.pop({ id: record.id, action: "discard", reason, actor: ctx.actor, message, ...stepOf(ctx) });
  if (!popped)
    return { ok: false, message: `The pending stack changed while ${record.label} was being discarded; nothing was discarded. Try again.` };
  return {
    ok: true,
    message,
    resolved: { record, action: "discard", reason, rendered: renderResolution("discard", record.label, reason) },
  };
}
