/**
 * `/rename-symbol <old> <new> [--file path]`: renames a declaration and every reference to it.
 * The planning (declaration lookup, findRenameLocations) is in rename-plan.ts.
 */
import type { CustomToolFactory, ToolAPI } from "../core/tool.js";
import { stageChangeSet } from "../core/execution.js";
import { textResult } from "../core/result.js";
import { plural } from "./plural.js";

export function renameLabel(from: string, to: string, references: number, files: number): string {
  return `Rename Symbol: ${from} → ${to} (${plural(references, "reference")} in ${plural(files, "file")})`;
}

const factory: CustomToolFactory = (pi: ToolAPI) => {
  const { Type } = pi.typebox;
  return {
    name: "rename_symbol",
    label: "Rename Symbol",
    description: "Renames a TypeScript/JavaScript declaration and every reference to it, across the repository.",
    parameters: Type.Object({
      from: Type.String({ description: "Current name (or Container.name)" }),
      to: Type.String({ description: "New name" }),
      file: Type.Optional(Type.String({ description: "File that declares it, when the name is declared more than once" })),
    }),
    positionals: ["from", "to"],
    examples: ["/rename-symbol fetchUser loadUser", "/rename-symbol Options Settings --file src/config.ts"],
    async execute(_toolCallId, params: { from: string; to: string; file?: string }) {
      // The TypeScript engine loads on first use, so commands that never rename start fast.
      const { planRename } = await import("./rename-plan.js");
      const plan = await planRename(pi.workspace, params.from, params.to, params.file);
      const changes = pi.newChangeSet();
      for (const [file, text] of plan.contents) await changes.write(file, text);
      const files = plan.contents.size;
      const oldName = plan.from.slice(plan.from.lastIndexOf(".") + 1);
      const label = renameLabel(oldName, plan.to, plan.references, files);
      const details = {
        from: plan.from,
        to: plan.to,
        declaration: plan.declaration,
        references: plan.references,
        files: [...plan.contents.keys()],
      };
      pi.pushPendingAction({
        label,
        sourceToolName: "rename_symbol",
        details,
        changes,
        async apply() {
          await stageChangeSet(pi.files, changes);
          return textResult(`Renamed ${oldName} to ${plan.to} in ${plural(files, "file")}.`);
        },
      });
      const where = `${plan.declaration.file}:${plan.declaration.line} (${plan.declaration.kind})`;
      const shown = details.files.slice(0, 20);
      const more = details.files.length > shown.length ? ` and ${details.files.length - shown.length} more` : "";
      return textResult(
        `Rename preview: ${oldName} → ${plan.to}, declared at ${where}: ${plural(plan.references, "reference")} in ${plural(files, "file")}.\nFiles: ${shown.join(", ")}${more}.`,
        details,
      );
    },
  };
};

export default factory;
