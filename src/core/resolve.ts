/** `/resolve apply|discard`: pop the newest pending action, then apply or discard it. */
import { applyAction, rejectAction } from "./execution.js";
import {
  applied,
  appliedPart,
  applyFailed,
  cannotSplit,
  everyFileNamed,
  noFilesNamed,
  notAmongFiles,
  partLabel,
  restNotPending,
  restNotPendingAfter,
  restPending,
  discarded,
  NOTHING_PENDING,
  recordingFailed,
  renderResolution,
  onlyWithApply,
  RESOLVE_USAGE,
  undoCommitReason,
  unknownResolveOption,
} from "./messages.js";
import { UNDO_TOOL } from "./undo.js";
import { changesTo, REST_TOOL, restParams, type RestParams } from "./apply-part.js";
import { preview } from "./preview.js";
import { commandName } from "./usage.js";
import { normalizePath, safePath } from "../workspace/paths.js";
import { replay } from "./replay.js";
import { resultText } from "./result.js";
import { UserError } from "../errors.js";
import type { CommandContext } from "./context.js";
import type { ToolRegistry } from "./registry.js";
import type { PendingRecord } from "./store.js";
import type { CommandOutcome, ResolveAction, ResolveOutcome } from "./outcomes.js";

export type { ResolveAction, ResolveOutcome } from "./outcomes.js";

/** What `/resolve` may be asked: resolve the newest action, or preview undoing resolve-bot's newest commit (core/undo.ts). */
export type ResolveVerb = ResolveAction | "undo";

/** What `/resolve` was asked: the verb, the reason, and for `apply --only` the files to apply. */
export type ParsedResolve = { action: ResolveVerb; reason: string; only?: string[] };

/** A bare word after `--only` that reads as a path (a `/` or an extension); anything else starts the reason. */
function looksLikePath(word: string): boolean {
  return word.includes("/") || /\.\w/.test(word);
}

/** One word at the start of `text`: quoted (its quotes off) or bare; and the text after it. */
function nextWord(text: string): { word: string; quoted: boolean; rest: string } | undefined {
  const match = /^(?:"([^"]*)"|'([^']*)'|(\S+))(?:\s+|$)/.exec(text);
  if (!match) return undefined;
  const quoted = match[1] ?? match[2];
  return { word: quoted ?? match[3]!, quoted: quoted !== undefined, rest: text.slice(match[0].length) };
}

/**
 * Reads `/resolve apply <reason…>`: the rest of the line is the reason. Options come first:
 * `--only <path>…` (apply only) takes the words that read as paths (quoted, or with a `/` or an
 * extension) up to the reason; `--` ends the options, so a reason may begin with `--`; any other
 * word starting with `--` is refused (a mistyped `--only` must not apply everything).
 */
export function parseResolveArgs(args: string): ParsedResolve | { error: string } {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(args.trim());
  const action = match?.[1]?.toLowerCase();
  if (action !== "apply" && action !== "discard" && action !== "undo") {
    return { error: `\`/resolve\` needs an action, \`apply\`, \`discard\` or \`undo\`, and a reason. Usage: \`${RESOLVE_USAGE}\`` };
  }
  let rest = match![2]!;
  let only: string[] | undefined;
  for (let option = /^--\S*/.exec(rest); option !== null; option = /^--\S*/.exec(rest)) {
    const word = nextWord(rest)!;
    rest = word.rest;
    if (word.word === "--") break;
    const inline = /^--only=(.+)$/.exec(word.word);
    if (word.word !== "--only" && !inline) return { error: unknownResolveOption(action, option[0]) };
    if (action !== "apply") return { error: onlyWithApply(action) };
    only ??= [];
    if (inline) only.push(inline[1]!);
    for (
      let path = nextWord(rest);
      path && (path.quoted || (!path.word.startsWith("--") && looksLikePath(path.word)));
      path = nextWord(rest)
    ) {
      only.push(path.word);
      rest = path.rest;
    }
  }
  const reason = rest.trim();
  if (reason === "") return { error: `\`/resolve ${action}\` needs a reason. Usage: \`${RESOLVE_USAGE}\`` };
  return only === undefined ? { action, reason } : { action, reason, only };
}

/**
 * The arguments of a `/resolve` command that `parseResolveArgs` reads back as given: what a front
 * end that takes the parts separately (the CLI, MCP) hands the runtime as a command.
 */
export function resolveCommandArgs(action: ResolveVerb, reason: string, only?: readonly string[]): string {
  const paths = (only ?? []).map((path) => {
    if (!path.includes('"')) return ` --only "${path}"`;
    if (!path.includes("'")) return ` --only '${path}'`;
    throw new UserError(`The path ${path} holds both kinds of quotes; \`--only\` cannot name it.`);
  });
  // After `--` the reason is read as written, even when it begins with `--` or with a path.
  return `${action}${paths.join("")} -- ${reason}`;
}

/** The request step the resolution is recorded with, when the context names one. */
function stepOf(ctx: CommandContext): { requestStep?: string } {
  return ctx.step !== undefined ? { requestStep: ctx.step } : {};
}

export interface ResolveOptions {
  /** Apply only the changes to these files (`--only`); the rest stays pending as `<label> (rest)`. */
  only?: readonly string[];
}

export async function resolve(
  registry: ToolRegistry,
  action: ResolveAction,
  reason: string,
  ctx: CommandContext,
  { only }: ResolveOptions = {},
): Promise<ResolveOutcome> {
  if (reason.trim() === "") return { ok: false, message: `\`/resolve ${action}\` needs a reason. Usage: \`${RESOLVE_USAGE}\`` };
  if (only !== undefined && action !== "apply") return { ok: false, message: onlyWithApply(action) };
  const record = await ctx.store.peek();
  if (!record) return { ok: false, message: NOTHING_PENDING };
  if (only !== undefined) return applyPart(registry, record, only, reason, ctx);
  return action === "apply" ? applyTop(registry, record, reason, ctx) : discardTop(registry, record, reason, ctx);
}

/** The files `--only` selects of the record's, or the refusal that lists them (nothing is changed). */
function selectFiles(registry: ToolRegistry, record: PendingRecord, only: readonly string[], ctx: CommandContext): string[] | string {
  const files = Object.keys(record.files).sort();
  if (registry.get(record.tool)?.splitsByFile !== true || files.length === 0) {
    const tool = record.tool === UNDO_TOOL ? "/resolve undo" : commandName(record.tool);
    return cannotSplit(record.label, tool, files, ctx.phrasing);
  }
  if (only.length === 0) return noFilesNamed(record.label, files);
  const selected = new Set<string>();
  const unknown: string[] = [];
  for (const path of only) {
    let normal: string;
    try {
      // As the front end reads typed paths (the CLI: from the current directory).
      normal = normalizePath(ctx.readPath ? ctx.readPath(path) : path);
    } catch {
      normal = path; // not a path of the repository, so not one of the action's files either
    }
    if (files.includes(normal)) selected.add(normal);
    else if (!unknown.includes(path)) unknown.push(path);
  }
  if (unknown.length > 0) return notAmongFiles(record.label, unknown, files);
  if (selected.size === files.length) return everyFileNamed(record.label, files);
  return [...selected].sort();
}

/**
 * `--only`: commits the action's changes to the selected files (its declared change, replayed and
 * stale-checked as a whole apply's is), then previews what is left on the new head as
 * `<label> (rest)`, pushed where the action was.
 */
async function applyPart(
  registry: ToolRegistry,
  record: PendingRecord,
  only: readonly string[],
  reason: string,
  ctx: CommandContext,
): Promise<ResolveOutcome> {
  const selected = selectFiles(registry, record, only, ctx);
  if (typeof selected === "string") return { ok: false, message: selected };
  const rest = Object.keys(record.files)
    .filter((path) => !selected.includes(path))
    .sort();
  const restTool = registry.get(REST_TOOL);
  let message = appliedPart(record.label, selected, rest);
  let commit: string | undefined;
  try {
    if (!restTool) throw new UserError("this runtime cannot keep the rest of an action pending.");
    const workspace = await ctx.workspace();
    const live = await replay(registry, record, workspace);
    if (!live.changes) throw new UserError(`${record.label} no longer declares its changes.`);
    const part = await changesTo(live.changes, new Set(selected));
    commit = await commitApply(part, record, reason, message, ctx, { ...record, label: partLabel(record.label, selected) });
  } catch (error) {
    if (error instanceof UserError) return { ok: false, message: applyFailed(error.message) };
    throw error;
  }
  const resolved = {
    record,
    action: "apply" as const,
    reason,
    rendered: renderResolution("apply", record.label, reason),
    ...(commit !== undefined ? { commit } : {}),
  };
  const popped = await recordApply(record, reason, message, commit, ctx);
  if (popped !== true) return { ok: true, message: popped, resolved };
  // Where the action was, on the head the part made: one push, in the room the pop left.
  const again = await preview(restTool, restParams(record, rest), ctx, 1);
  if (!again.ok) message = restNotPending(record.label, selected, rest, again.message);
  return { ok: true, message, resolved, pushed: again.pushed };
}

/** Commits an apply's changes; `committedAs` is the record the commit names (a part's own label). */
function commitApply(
  changes: Parameters<CommandContext["commit"]>[0],
  record: PendingRecord,
  reason: string,
  message: string,
  ctx: CommandContext,
  committedAs: PendingRecord = record,
): Promise<string | undefined> {
  ctx.progress?.writing();
  return ctx.commit(changes, { record: committedAs, reason: committedReason(record, reason), actor: ctx.actor, message, ...stepOf(ctx) });
}

/** An undo's commit keeps why it was asked for (`/resolve undo <reason>`) beside why it was applied. */
function committedReason(record: PendingRecord, reason: string): string {
  // The rest of an undo is still that undo.
  const { tool, params } = record.tool === REST_TOOL ? (record.params as RestParams).of : record;
  const undoReason = tool === UNDO_TOOL && typeof params.reason === "string" ? params.reason : undefined;
  return undoReason === undefined ? reason : undoCommitReason(undoReason, reason);
}

/**
 * Pops the applied action; true when it was the top, else the reply that tells the truth: the
 * commit is real, and the store finishes the record from the commit's trailer later.
 */
async function recordApply(
  record: PendingRecord,
  reason: string,
  message: string,
  commit: string | undefined,
  ctx: CommandContext,
): Promise<true | string> {
  let popped: PendingRecord | null;
  try {
    popped = await ctx.store.pop({ id: record.id, action: "apply", reason, actor: ctx.actor, message, commit, ...stepOf(ctx) });
  } catch (error) {
    if (!commit) throw error;
    // The branch moved: that is the truth to tell, whatever failed next.
    ctx.report?.(error, `marking ${record.label} applied failed after commit ${commit}`);
    return `${message}\n\n${recordingFailed(commit)}`;
  }
  if (!popped) {
    // Someone resolved the stack meanwhile: the commit is real all the same.
    ctx.report?.(new Error("the top of the stack changed during an apply"), `${record.label} committed as ${commit ?? "nothing"}`);
    return commit ? `${message}\n\n${recordingFailed(commit)}` : message;
  }
  return true;
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
    commit = await commitApply(application.changes, record, reason, message, ctx);
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
  const popped = await recordApply(record, reason, message, commit, ctx);
  return { ok: true, message: popped === true ? message : popped, resolved };
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

/**
 * A request run again after an interruption whose apply of part was already committed (the
 * journal's `done`): says where the rest is, or pushes it when the cut came between the commit and
 * its push, so the rest is never lost.
 */
export async function finishPart(registry: ToolRegistry, args: string, done: CommandOutcome, ctx: CommandContext): Promise<CommandOutcome> {
  const parsed = parseResolveArgs(args);
  const resolved = done.resolved;
  const restTool = registry.get(REST_TOOL);
  if ("error" in parsed || parsed.only === undefined || resolved?.commit === undefined || !restTool) return done;
  const selected = new Set(parsed.only.map((path) => safePath(ctx.readPath ? ctx.readPath(path) : path) ?? path));
  const rest = Object.keys(resolved.record.files)
    .filter((path) => !selected.has(path))
    .sort();
  const label = resolved.record.label;
  if ((done.pushed ?? []).length > 0) return { ...done, message: `${done.message} ${restPending(label, rest)}` };
  const again = await preview(restTool, restParams(resolved.record, rest), ctx, 1);
  const said = again.ok ? restPending(label, rest) : restNotPendingAfter(rest, again.message);
  return { ...done, message: `${done.message} ${said}`, pushed: again.pushed };
}
