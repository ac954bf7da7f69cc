/** Small tools written against the public tool API, for runtime tests. */
import type { CustomToolFactory } from "../../src/core/tool.js";
import { stageChangeSet } from "../../src/core/execution.js";
import { MemoryPendingActionStore } from "../../src/core/store.js";
import type { CommandContext } from "../../src/core/context.js";
import { ToolRegistry } from "../../src/core/registry.js";
import { undoTool } from "../../src/core/undo.js";
import { UserError } from "../../src/errors.js";
import type { ChangeSet } from "../../src/workspace/changeset.js";
import { MemoryWorkspace, type Workspace } from "../../src/workspace/workspace.js";

/** `/append <file> <text>`: appends a line to a file; declares its change. */
export const appendTool: CustomToolFactory = (pi) => ({
  name: "append",
  label: "Append",
  description: "Appends a line to a file",
  parameters: pi.typebox.Type.Object({
    file: pi.typebox.Type.String({ description: "file to change" }),
    text: pi.typebox.Type.String(),
  }),
  positionals: ["file", "text"],
  // Written on lines of a file, `/append <text>` appends to that file.
  atLines: (given, anchor) => (given.text === undefined && given.file !== undefined ? { file: anchor.path, text: given.file } : given),
  async execute(_id, params: { file: string; text: string }) {
    const before = await pi.workspace.readText(params.file);
    const changes = pi.newChangeSet();
    await changes.write(params.file, `${before}${params.text}\n`);
    pi.pushPendingAction({
      label: `Append: 1 line to ${params.file}`,
      sourceToolName: "append",
      details: { file: params.file },
      changes,
      apply: async () => {
        await stageChangeSet(pi.files, changes);
        return { content: [] };
      },
    });
    return { content: [{ type: "text", text: `Will append to ${params.file}` }] };
  },
});

/** The spec's example, verbatim in behaviour: no file changes, custom apply/reject texts. */
export const noteTool: CustomToolFactory = (pi) => ({
  name: "note",
  label: "Note",
  description: "Pushes a pending action with no file change",
  parameters: pi.typebox.Type.Object({
    name: pi.typebox.Type.String(),
    withReject: pi.typebox.Type.Optional(pi.typebox.Type.Boolean()),
    count: pi.typebox.Type.Optional(pi.typebox.Type.Integer({ minimum: 1 })),
    plainSource: pi.typebox.Type.Optional(pi.typebox.Type.Boolean()),
  }),
  positionals: ["name"],
  async execute(_id, params: { name: string; withReject?: boolean; count?: number; plainSource?: boolean }) {
    for (let index = 0; index < (params.count ?? 1); index++) {
      const suffix = (params.count ?? 1) > 1 ? ` ${index + 1}` : "";
      pi.pushPendingAction({
        label: `Note: ${params.name}${suffix}`,
        ...(params.plainSource ? {} : { sourceToolName: "note" }),
        apply: async (reason) => ({ content: [{ type: "text", text: `Noted ${params.name}${suffix}. Reason: ${reason}` }] }),
        ...(params.withReject
          ? {
              reject: async (reason: string) => ({
                content: [{ type: "text" as const, text: `Dropped ${params.name}${suffix}. Reason: ${reason}` }],
              }),
            }
          : {}),
      });
    }
    return { content: [{ type: "text", text: `Prepared ${params.count ?? 1} note(s)` }] };
  },
});

/**
 * `/faulty <how>`: a custom tool whose apply() fails — `user`: with a UserError written for the
 * reviewer; `bug`: with a TypeError, as a custom tool with a bug does.
 */
export const faultyTool: CustomToolFactory = (pi) => ({
  name: "faulty",
  label: "Faulty",
  description: "Pushes an action whose apply fails",
  parameters: pi.typebox.Type.Object({ how: pi.typebox.Type.Union([pi.typebox.Type.Literal("user"), pi.typebox.Type.Literal("bug")]) }),
  positionals: ["how"],
  async execute(_id, params: { how: "user" | "bug" }) {
    pi.pushPendingAction({
      label: `Faulty: fails as ${params.how}`,
      apply: async () => {
        if (params.how === "user") throw new UserError("the lock file is held by another job; try again later.");
        const missing = undefined as unknown as { sha: string };
        return { content: [{ type: "text", text: missing.sha }] };
      },
    });
    return { content: [{ type: "text", text: "Will fail" }] };
  },
});

export interface Harness {
  registry: ToolRegistry;
  store: MemoryPendingActionStore;
  context: CommandContext;
  commits: Array<{ changes: ChangeSet; message: string; files: Record<string, string> }>;
  setWorkspace(files: Record<string, string>, revision?: string): void;
}

/** A registry with the given tools, an in-memory stack and workspace, and a recording committer. */
export async function harness(factories: CustomToolFactory[], files: Record<string, string> = {}): Promise<Harness> {
  const registry = new ToolRegistry();
  registry.registerHidden(undoTool(registry.api));
  for (const factory of factories) await registry.registerFactory(factory);
  const store = new MemoryPendingActionStore();
  let workspace: Workspace = new MemoryWorkspace(files, "rev1");
  const commits: Harness["commits"] = [];
  const context: CommandContext = {
    store,
    actor: "alice",
    steering: "stack",
    workspace: async () => workspace,
    async commit(changes, request) {
      const net = await changes.resolveChanges();
      if (net.length === 0) return undefined;
      const written: Record<string, string> = {};
      for (const change of net)
        written[change.path] = change.kind === "delete" ? "<deleted>" : Buffer.from(change.content).toString("utf8");
      commits.push({ changes, message: request.message, files: written });
      return `commit${commits.length}`;
    },
  };
  return {
    registry,
    store,
    context,
    commits,
    setWorkspace(next, revision = "rev2") {
      workspace = new MemoryWorkspace(next, revision);
    },
  };
}

/** A promise the test settles: when a gated tool may finish, when it has started. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * `/slow`: lists the files (`started` opens), then runs until the test opens `finish`, for tests
 * of what a long command says while it runs; `/slow fail`: then refuses with a UserError.
 */
export function slowTool(finish: Gate, started: Gate = gate()): CustomToolFactory {
  return (pi) => ({
    name: "slow",
    label: "Slow",
    description: "Runs until the test lets it finish",
    parameters: pi.typebox.Type.Object({ how: pi.typebox.Type.Optional(pi.typebox.Type.String()) }),
    positionals: ["how"],
    async execute(_id, params: { how?: string }) {
      const files = await pi.workspace.list();
      started.open();
      await finish.promise;
      if (params.how === "fail") throw new UserError("the slow tool refuses.");
      return { content: [{ type: "text", text: `Looked at ${files.length} files` }] };
    },
  });
}
