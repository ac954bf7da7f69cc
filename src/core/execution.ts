/**
 * Execution frames: which workspace, stack and staging area a tool call is running against.
 * One ToolAPI object (`pi`) serves every call; it finds the current frame through
 * AsyncLocalStorage, so a tool that calls pi.pushPendingAction at load time, after its execute()
 * returned, or outside any execution gets the spec's exact error.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as TypeBox from "@sinclair/typebox";
import { type ToolResult } from "./result.js";
import { UserError } from "../errors.js";
import type { AnyToolDefinition, CustomToolPendingAction, StagedWriter, ToolAPI, WorkspaceReader } from "./tool.js";
import { ChangeSet } from "../workspace/changeset.js";
import type { Workspace } from "../workspace/workspace.js";

export const STORE_UNAVAILABLE = "Pending action store unavailable for custom tools in this runtime.";
export const WRITES_OUTSIDE_APPLY = "Files can only be written inside a pending action's apply(); a preview must not change anything.";
export const NO_WORKSPACE = "No workspace: tools can read files only while they execute or apply.";

/**
 * How long one tool call (execute, apply or reject) may take, from the server's environment
 * (never from a repository). A call that hangs is abandoned with a reply instead of holding its
 * pull request's queue forever. CPU-bound work on the event loop cannot be interrupted this way.
 */
export function toolTimeLimitMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS ?? 120);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 120_000;
}

export function timedOut(what: string, limitMs: number): string {
  return `${what} did not finish within ${limitMs / 1000} s and was stopped; nothing was changed.`;
}

/** Runs `call` with an abort signal that fires at the limit; a late result is ignored. */
async function withTimeLimit<T>(what: string, call: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
  const limitMs = toolTimeLimitMs();
  const controller = new AbortController();
  outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new UserError(timedOut(what, limitMs)));
    }, limitMs);
  });
  try {
    return await Promise.race([call(controller.signal), limit]);
  } finally {
    clearTimeout(timer);
  }
}

interface Frame {
  workspace: Workspace;
  /** Actions pushed by the running execute(); null once it has returned. */
  pushed: CustomToolPendingAction[] | null;
  /** The staging area while apply() runs. */
  staging?: ChangeSet;
}

const frames = new AsyncLocalStorage<Frame>();

function currentFrame(): Frame | undefined {
  return frames.getStore();
}

/**
 * The whole workspace of the running call, for the runtime's own tools (undo reads its `revert`);
 * tools written against the tool API see it through `pi.workspace` only.
 */
export function frameWorkspace(): Workspace {
  const frame = currentFrame();
  if (!frame) throw new Error(NO_WORKSPACE);
  return frame.workspace;
}

function stagingWriter(): StagedWriter {
  const staging = (): ChangeSet => {
    const frame = currentFrame();
    if (!frame?.staging) throw new UserError(WRITES_OUTSIDE_APPLY);
    return frame.staging;
  };
  return {
    write: (path, content) => staging().write(path, content),
    delete: (path) => staging().delete(path),
    rename: (from, to) => staging().rename(from, to),
    read: (path) => staging().read(path),
    exists: (path) => staging().exists(path),
  };
}

/** The `pi` object handed to every tool factory. */
export function createToolAPI(): ToolAPI {
  const files = stagingWriter();
  return {
    typebox: TypeBox,
    pushPendingAction(action: CustomToolPendingAction): void {
      const frame = currentFrame();
      if (!frame?.pushed) throw new Error(STORE_UNAVAILABLE);
      validatePendingAction(action);
      frame.pushed.push(action);
    },
    get workspace(): WorkspaceReader {
      const frame = currentFrame();
      if (!frame) throw new Error(NO_WORKSPACE);
      return frame.workspace;
    },
    get files(): StagedWriter {
      return files;
    },
    newChangeSet(): ChangeSet {
      const frame = currentFrame();
      if (!frame) throw new Error(NO_WORKSPACE);
      return new ChangeSet(frame.workspace);
    },
    async defaultBranch(): Promise<WorkspaceReader> {
      const frame = currentFrame();
      if (!frame) throw new Error(NO_WORKSPACE);
      if (frame.workspace.defaultBranch === undefined) throw new UserError("This front end gives tools no default branch to read.");
      return frame.workspace.defaultBranch();
    },
  };
}

function validatePendingAction(action: CustomToolPendingAction): void {
  if (!action || typeof action.label !== "string" || action.label.trim() === "") {
    throw new Error("A pending action needs a non-empty label.");
  }
  if (typeof action.apply !== "function") throw new Error(`Pending action "${action.label}" has no apply().`);
  if (action.reject !== undefined && typeof action.reject !== "function") {
    throw new Error(`Pending action "${action.label}" has a reject that is not a function.`);
  }
}

export interface Execution {
  result: ToolResult;
  actions: CustomToolPendingAction[];
}

/** Runs a tool's execute() in a capture frame and returns what it pushed, in push order. */
export async function executeTool(
  tool: AnyToolDefinition,
  params: unknown,
  workspace: Workspace,
  toolCallId: string,
  signal?: AbortSignal,
): Promise<Execution> {
  const frame: Frame = { workspace, pushed: [] };
  try {
    const result = await withTimeLimit(
      `\`${tool.name}\``,
      (limited) => frames.run(frame, () => tool.execute(toolCallId, params, limited)),
      signal,
    );
    return { result: normaliseResult(result), actions: frame.pushed ?? [] };
  } finally {
    frame.pushed = null;
  }
}

export interface Application {
  result: ToolResult;
  changes: ChangeSet;
}

/**
 * Runs an action's apply() with a fresh staging area. If the action declared its change, the
 * staged change must equal it, otherwise this throws a stale-preview error and nothing is used.
 */
export async function applyAction(action: CustomToolPendingAction, reason: string, workspace: Workspace): Promise<Application> {
  const frame: Frame = { workspace, pushed: null, staging: new ChangeSet(workspace) };
  try {
    const result = await withTimeLimit(`apply() of ${action.label}`, () => frames.run(frame, () => action.apply(reason)));
    const changes = frame.staging!;
    if (action.changes) {
      const [declared, staged] = await Promise.all([action.changes.fingerprint(), changes.fingerprint()]);
      if (declared.digest !== staged.digest) {
        throw new UserError(`preview is stale: apply would change ${describeDifference(declared.files, staged.files)}.`);
      }
    }
    return { result: normaliseResult(result), changes };
  } finally {
    frame.staging = undefined;
  }
}

export async function rejectAction(action: CustomToolPendingAction, reason: string, workspace: Workspace): Promise<ToolResult | undefined> {
  if (!action.reject) return undefined;
  const frame: Frame = { workspace, pushed: null };
  const result = await withTimeLimit(`reject() of ${action.label}`, () => frames.run(frame, () => action.reject!(reason)));
  return result === undefined ? undefined : normaliseResult(result);
}

/** Names the paths whose fingerprints differ between two change sets, for stale messages. */
export function describeDifference(expected: Record<string, string>, actual: Record<string, string>): string {
  const paths = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const differing = [...paths].filter((path) => expected[path] !== actual[path]).sort();
  if (differing.length === 0) return "the same files differently";
  const shown = differing.slice(0, 5).join(", ");
  return differing.length > 5 ? `${shown} and ${differing.length - 5} more` : shown;
}

function normaliseResult(result: ToolResult | undefined): ToolResult {
  if (!result || !Array.isArray(result.content)) return { content: [] };
  return result;
}

/** Stages every change of `changes` through the writer: the usual apply() of a built-in tool. */
export async function stageChangeSet(files: StagedWriter, changes: ChangeSet): Promise<void> {
  for (const change of changes.changes()) {
    if (change.kind === "delete") await files.delete(change.path);
    else if (change.kind === "rename") {
      await files.rename(change.from, change.path);
      await files.write(change.path, change.content);
    } else await files.write(change.path, change.content);
  }
}
