/**
 * `/rename-symbol <old> <new> [--file path]` or `/rename-symbol <new> --at path:line[:col]`: renames
 * a symbol and every reference to it, as an editor's F2. The planning is in rename-plan.ts.
 */
import type { CustomToolFactory, ToolAPI } from "../core/tool.js";
import { stageChangeSet } from "../core/execution.js";
import { textResult } from "../core/result.js";
import { plural } from "../core/text.js";
import { preferenceParameters, type PreferenceParams } from "./ts-preference-params.js";

export function renameLabel(from: string, to: string, references: number, files: number): string {
  return `Rename Symbol: ${from} → ${to} (${plural(references, "reference")} in ${plural(files, "file")})`;
}

const factory: CustomToolFactory = (pi: ToolAPI) => {
  const { Type } = pi.typebox;
  return {
    name: "rename_symbol",
    label: "Rename Symbol",
    description:
      "Renames a TypeScript/JavaScript symbol and every reference to it across the repository, as an editor's F2: by name, or by position with --at.",
    parameters: Type.Object({
      from: Type.String({ description: "Current name (or Container.name); with --at, the new name may come alone" }),
      to: Type.Optional(Type.String({ description: "New name" })),
      at: Type.Optional(
        Type.String({
          title: "path:line[:column]",
          description: "Position of the symbol: path:line or path:line:column (1-based), as an editor's F2",
        }),
      ),
      file: Type.Optional(Type.String({ title: "path", description: "File that declares it, when the name is declared more than once" })),
      oneNameOnLine: Type.Optional(
        Type.Boolean({
          default: false,
          description:
            "With --at path:line and only the new name: refuse unless the line holds exactly one name (set by a comment on a line)",
        }),
      ),
      findInComments: Type.Optional(Type.Boolean({ default: false, description: "Also rename the name in comments" })),
      findInStrings: Type.Optional(Type.Boolean({ default: false, description: "Also rename the name in strings" })),
      providePrefixAndSuffixTextForRename: Type.Optional(
        Type.Boolean({
          default: true,
          description:
            "Keep public names: { foo } becomes { foo: bar }, export { foo } becomes export { bar as foo } (on by default; --no-provide-prefix-and-suffix-text-for-rename turns it off)",
        }),
      ),
      ...preferenceParameters(Type),
    }),
    positionals: ["from", "to"],
    pathParameters: { at: "position", file: "path" },
    // On a line of the diff: `<old> <new>` or `<new>` alone (one name there) renames at that line (a range's last line).
    atLines: (given, anchor) =>
      given.at !== undefined || given.file !== undefined
        ? given
        : { ...given, at: `${anchor.path}:${anchor.endLine}`, oneNameOnLine: true },
    examples: [
      "/rename-symbol fetchUser loadUser",
      "/rename-symbol loadUser --at src/api.ts:12:17",
      "/rename-symbol Options Settings --file src/config.ts",
    ],
    async execute(
      _toolCallId,
      params: {
        from: string;
        to?: string;
        at?: string;
        file?: string;
        oneNameOnLine?: boolean;
        findInComments?: boolean;
        findInStrings?: boolean;
        providePrefixAndSuffixTextForRename?: boolean;
      } & PreferenceParams,
    ) {
      // The TypeScript engine loads on first use, so commands that never rename start fast.
      const { planRename } = await import("./rename-plan.js");
      const { readPreferences } = await import("./ts-preferences.js");
      // `/rename-symbol <new> --at path:line`: the one name given is the new one.
      const [from, to] = params.to === undefined && params.at !== undefined ? [undefined, params.from] : [params.from, params.to];
      const plan = await planRename(pi.workspace, {
        from,
        to: to ?? "",
        at: params.at,
        file: params.file,
        oneNameOnLine: params.oneNameOnLine,
        findInComments: params.findInComments,
        findInStrings: params.findInStrings,
        providePrefixAndSuffixTextForRename: params.providePrefixAndSuffixTextForRename,
        preferences: await readPreferences(pi.workspace, params),
      });
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
      const where = `${plan.byPosition ? "at" : "declared at"} ${plan.declaration.file}:${plan.declaration.line} (${plan.declaration.kind})`;
      const shown = details.files.slice(0, 20);
      const more = details.files.length > shown.length ? ` and ${details.files.length - shown.length} more` : "";
      return textResult(
        `Rename preview: ${oldName} → ${plan.to}, ${where}: ${plural(plan.references, "reference")} in ${plural(files, "file")}.\nFiles: ${shown.join(", ")}${more}.`,
        details,
      );
    },
  };
};

export default factory;
