/**
 * The spec's example custom tool (§5), made real: it previews renaming a batch of files and
 * defers the renames to `/resolve apply`, which stages them through `pi.files`.
 *
 *   /batch-rename-preview src/a.js src/b.js --find .js --replace .mjs
 *
 * Load it with RESOLVE_BOT_TOOLS=dist/examples/batch-rename.js (after `npm run build`).
 */
import type { CustomToolFactory } from "resolve-bot";

const factory: CustomToolFactory = (pi) => {
  const { Type } = pi.typebox;

  /** from → to for every file whose name contains `find`. */
  function plan(files: string[], find: string, replace: string): Array<{ from: string; to: string }> {
    return files.map((from) => {
      const slash = from.lastIndexOf("/");
      const name = from.slice(slash + 1);
      if (!name.includes(find)) throw new Error(`${from}: the file name does not contain "${find}".`);
      return { from, to: `${from.slice(0, slash + 1)}${name.replace(find, replace)}` };
    });
  }

  return {
    name: "batch_rename_preview",
    label: "Batch Rename Preview",
    description: "Previews renames and defers commit to resolve",
    parameters: Type.Object({
      files: Type.Array(Type.String(), { minItems: 1, description: "files to rename" }),
      find: Type.String({ minLength: 1, description: "text to find in each file name" }),
      replace: Type.String({ description: "what to put in its place" }),
    }),
    positionals: ["files"],
    examples: ["/batch-rename-preview src/a.js src/b.js --find .js --replace .mjs"],

    async execute(_toolCallId, params: { files: string[]; find: string; replace: string }) {
      let renames: Array<{ from: string; to: string }>;
      try {
        renames = plan(params.files, params.find, params.replace);
      } catch (error) {
        return { content: [{ type: "text", text: (error as Error).message }], isError: true };
      }
      // The declared change is what the preview shows; apply must stage the same.
      const changes = pi.newChangeSet();
      try {
        for (const { from, to } of renames) await changes.rename(from, to);
      } catch (error) {
        return { content: [{ type: "text", text: (error as Error).message }], isError: true };
      }
      const previewSummary = `Prepared rename plan for ${params.files.length} files`;

      pi.pushPendingAction({
        label: `Batch rename: ${params.files.length} files`,
        sourceToolName: "batch_rename_preview",
        details: { renames },
        changes,
        apply: async (reason) => {
          for (const { from, to } of renames) await pi.files.rename(from, to);
          return { content: [{ type: "text", text: `Applied batch rename. Reason: ${reason}` }] };
        },
        reject: async (reason) => ({ content: [{ type: "text", text: `Discarded batch rename. Reason: ${reason}` }] }),
      });

      return {
        content: [{ type: "text", text: `${previewSummary}. Call resolve to apply or discard.` }],
        details: { renames },
      };
    },
  };
};

export default factory;
