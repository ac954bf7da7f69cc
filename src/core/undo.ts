/**
 * `/resolve undo <reason>`: previews reverting the newest commit resolve-bot applied, as a new
 * pending action. The preview is made by a hidden tool whose parameters name that commit, so the
 * action is stored as a record and replayed like any other (replay.ts): its apply reverts the commit
 * again on the head it is applied to, and is stale when that revert differs from the preview.
 * The revert itself is the front end's: `Workspace.revert` (git's, onto the workspace's revision).
 */
import { Type } from "@sinclair/typebox";
import type { CommandContext } from "./context.js";
import { frameWorkspace, stageChangeSet } from "./execution.js";
import { nothingLeftToUndo, NOTHING_TO_UNDO, undoConflicts, undoLabel, undoneCommit, UNDO_UNAVAILABLE } from "./messages.js";
import { preview, type PreviewOutcome } from "./preview.js";
import { errorResult, textResult } from "./result.js";
import { shortSha } from "./revision.js";
import type { AnyToolDefinition, ToolAPI } from "./tool.js";

/** The hidden tool's name: records of undo actions name it; no comment can call it as `/undo`. */
export const UNDO_TOOL = "undo";

const parameters = Type.Object({
  /** The full SHA of the commit to revert. */
  commit: Type.String({ pattern: "^[0-9a-f]{40}$|^[0-9a-f]{64}$" }),
  /** Why, as given to `/resolve undo`: shown with the preview. */
  reason: Type.String(),
});

export function undoTool(pi: ToolAPI): AnyToolDefinition {
  return {
    name: UNDO_TOOL,
    label: "Undo",
    description: "Reverts the newest commit resolve-bot applied (`/resolve undo <reason>`).",
    parameters,
    // git merges a revert file by file: a file already reverted on the head merges to no change.
    splitsByFile: true,
    async execute(_toolCallId, { commit, reason }: { commit: string; reason: string }) {
      const workspace = frameWorkspace();
      if (!workspace.revert) return errorResult(UNDO_UNAVAILABLE);
      const revert = await workspace.revert(commit);
      const named = undoneCommit(revert.subject, commit);
      if ("conflicts" in revert) return errorResult(undoConflicts(named, commit, revert.conflicts));
      const { changes } = revert;
      if ((await changes.resolveChanges()).length === 0) return errorResult(nothingLeftToUndo(named, workspace.revision));
      const label = undoLabel(revert.subject, commit);
      pi.pushPendingAction({
        label,
        sourceToolName: UNDO_TOOL,
        details: { commit },
        changes,
        apply: async () => {
          await stageChangeSet(pi.files, changes);
          return textResult(`Reverted ${named}.`);
        },
      });
      return textResult(
        `${label}\nReverts ${shortSha(commit)} as \`git revert\` would, onto the head (${shortSha(workspace.revision)}). Reason: ${reason}`,
      );
    },
  };
}

/** Previews the undo of the newest applied commit; `room`: how many more actions the stack may take. */
export async function previewUndo(tool: AnyToolDefinition, reason: string, ctx: CommandContext, room: number): Promise<PreviewOutcome> {
  if (!ctx.appliedCommits) return { ok: false, message: UNDO_UNAVAILABLE, pushed: [] };
  const [newest] = await ctx.appliedCommits();
  if (!newest) return { ok: false, message: NOTHING_TO_UNDO, pushed: [] };
  return preview(tool, { commit: newest.sha, reason }, ctx, room);
}
