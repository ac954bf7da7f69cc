/**
 * `/move <from> <to> [<from> <to> …]`: moves or renames files and directories and updates every
 * import that refers to them. The planning (language service, import verification) is in
 * move-plan.ts.
 */
import type { CustomToolFactory, ToolAPI } from "../core/tool.js";
import { stageChangeSet } from "../core/execution.js";
import { textResult } from "../core/result.js";
import { plural } from "../core/text.js";
import { preferenceParameters, type PreferenceParams } from "./ts-preference-params.js";

export function moveLabel(files: number, imports: number): string {
  return `Move: ${plural(files, "file")} (${plural(imports, "import")} updated)`;
}

const factory: CustomToolFactory = (pi: ToolAPI) => {
  const { Type } = pi.typebox;
  return {
    name: "move",
    label: "Move",
    description:
      "Moves or renames files and directories and updates every import, export, require() and dynamic import() that refers to them.",
    parameters: Type.Object({
      paths: Type.Array(Type.String(), {
        minItems: 2,
        description: "Pairs of paths, each <from> followed by the <to> it moves to: files or directories",
      }),
      ...preferenceParameters(Type),
    }),
    positionals: ["paths"],
    positionalUsage: "<from> <to> [<from> <to>…]",
    pathParameters: { paths: "path" },
    // On a line of the diff, `/move <to>` moves the file the comment is on.
    atLines: (given, anchor) =>
      Array.isArray(given.paths) && given.paths.length === 1 ? { ...given, paths: [anchor.path, given.paths[0] as unknown] } : given,
    examples: ["/move src/util.ts src/lib/util.ts", "/move src/helpers src/lib/helpers src/a.ts src/b.ts"],
    async execute(_toolCallId, params: { paths: string[] } & PreferenceParams) {
      // The TypeScript engine loads on first use, so commands that never move files start fast.
      const { planMove } = await import("./move-plan.js");
      const { readPreferences } = await import("./ts-preferences.js");
      const plan = await planMove(pi.workspace, params.paths, { preferences: await readPreferences(pi.workspace, params) });
      const changes = pi.newChangeSet();
      for (const move of plan.moves) await changes.rename(move.from, move.to);
      for (const [file, text] of plan.contents) await changes.write(file, text);
      const files = plan.moves.length;
      const imports = plan.importsUpdated;
      const updatedFiles = [...plan.contents.keys()];
      const details = {
        pairs: plan.pairs,
        moved: plan.moves,
        updated: updatedFiles,
        importsUpdated: imports,
        fixed: plan.fixes,
        notUpdated: plan.mentions,
      };
      pi.pushPendingAction({
        label: moveLabel(files, imports),
        sourceToolName: "move",
        details,
        changes,
        async apply() {
          await stageChangeSet(pi.files, changes);
          return textResult(`Moved ${plural(files, "file")} and updated ${plural(imports, "import")}.`);
        },
      });
      const lines = [
        `Move preview: ${plural(files, "file")} to move, ${plural(imports, "import")} to update in ${plural(updatedFiles.length, "file")}.`,
      ];
      for (const pair of plan.pairs) lines.push(`- ${pair.from} → ${pair.to}`);
      if (updatedFiles.length > 0) {
        const shown = updatedFiles.slice(0, 20);
        lines.push(
          `Imports updated in: ${shown.join(", ")}${updatedFiles.length > shown.length ? ` and ${updatedFiles.length - shown.length} more` : ""}.`,
        );
      }
      if (plan.mentions.length > 0) {
        lines.push("Not updated, check these (files TypeScript does not know that mention a moved path):");
        for (const mention of plan.mentions) lines.push(`- ${mention.file}:${mention.line}: ${mention.text}`);
      }
      return textResult(lines.join("\n"), details);
    },
  };
};

export default factory;
