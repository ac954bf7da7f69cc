/**
 * `/resolve apply --only <path>…`: commits the newest action's changes to some of its files and
 * leaves the rest pending as a new action, `<label> (rest)`.
 *
 * The rest is an action of the hidden tool `resolve_rest`, whose parameters name the original
 * tool call and the remaining files: it runs that tool again on the head it is previewed on, takes
 * the same push and keeps the remaining files' changes. So the rest is stored, replayed,
 * stale-checked and previewed again after a push like any action (replay.ts), with no plumbing of
 * its own. That is sound only for tools whose change to a file depends on that file alone
 * (`ToolDefinition.splitsByFile`: ast_edit, ast_fix, undo): run again on a head where some of its
 * files were committed, such a tool proposes the same change to the others. A rename or a move
 * (one file's edit follows from another's) and a custom tool that does not say so are refused.
 */
import { Type } from "@sinclair/typebox";
import { executeTool, frameWorkspace, stageChangeSet } from "./execution.js";
import { sourceToolName } from "./fingerprint.js";
import { fileList, restLabel } from "./messages.js";
import { errorResult, resultText, textResult } from "./result.js";
import { shortSha } from "./revision.js";
import type { PendingRecord } from "./store.js";
import type { AnyToolDefinition, ToolAPI } from "./tool.js";
import { ChangeSet } from "../workspace/changeset.js";

/** The hidden tool's name: records of a rest name it; no comment can call it. */
export const REST_TOOL = "resolve_rest";

const parameters = Type.Object({
  /** The tool call the rest is part of: re-run as it was previewed. */
  of: Type.Object({
    tool: Type.String(),
    params: Type.Record(Type.String(), Type.Unknown()),
    callId: Type.String(),
    index: Type.Integer({ minimum: 0 }),
  }),
  /** The original action's label (the rest reads `<label> (rest)`). */
  label: Type.String(),
  /** The files still to apply. */
  files: Type.Array(Type.String(), { minItems: 1 }),
});

export type RestParams = {
  of: { tool: string; params: Record<string, unknown>; callId: string; index: number };
  label: string;
  files: string[];
};

/** The rest of `record` once `files` are left: of a rest, the same original call (never a rest of a rest). */
export function restParams(record: PendingRecord, files: string[]): RestParams {
  if (record.tool === REST_TOOL) {
    const previous = record.params as RestParams;
    return { of: previous.of, label: previous.label, files };
  }
  return { of: { tool: record.tool, params: record.params, callId: record.callId, index: record.index }, label: record.label, files };
}

/** The changes of `changes` to `paths` only (a rename belongs to its new path), on the same files. */
export async function changesTo(changes: ChangeSet, paths: ReadonlySet<string>): Promise<ChangeSet> {
  const part = new ChangeSet(changes.base);
  for (const change of await changes.resolveChanges()) {
    if (!paths.has(change.path)) continue;
    if (change.kind === "delete") await part.delete(change.path);
    else if (change.kind === "rename") {
      await part.rename(change.from, change.path);
      await part.write(change.path, change.content);
    } else await part.write(change.path, change.content);
  }
  return part;
}

/** `resolve_rest`: the original tool run again on the head, its push kept to the remaining files. */
export function restTool(pi: ToolAPI, toolNamed: (name: string) => AnyToolDefinition | undefined): AnyToolDefinition {
  return {
    name: REST_TOOL,
    label: "Rest",
    description: "What is left of a pending action applied in part (`/resolve apply --only <path>…`).",
    parameters,
    splitsByFile: true,
    async execute(_toolCallId, { of, label, files }: RestParams) {
      const tool = toolNamed(of.tool);
      if (!tool) return errorResult(`the tool \`${of.tool}\` that made ${label} is no longer available.`);
      const workspace = frameWorkspace();
      const execution = await executeTool(tool, of.params, workspace, of.callId);
      if (execution.result.isError) return errorResult(resultText(execution.result));
      const action = execution.actions[of.index];
      if (!action?.changes) return errorResult(`\`${of.tool}\` no longer proposes ${label}.`);
      const changes = await changesTo(action.changes, new Set(files));
      if ((await changes.resolveChanges()).length === 0) {
        return errorResult(`${shortSha(workspace.revision)} already has the rest of ${label} (${fileList(files)}).`);
      }
      pi.pushPendingAction({
        label: restLabel(label),
        sourceToolName: sourceToolName(action),
        details: { rest: files },
        changes,
        apply: async () => {
          await stageChangeSet(pi.files, changes);
          return textResult(`Applied the rest of ${label} (${fileList(files)}).`);
        },
      });
      return textResult(
        `${restLabel(label)}\nWhat is left of ${label} to apply: ${fileList(files)}, previewed on ${shortSha(workspace.revision)}.`,
      );
    },
  };
}
