/**
 * The built-in `ast_fix` tool: applies the fixes of the repository's own ast-grep project
 * (`sgconfig.yml` at the root, its `ruleDirs` and `utilDirs`), as `ast-grep scan --update-all`
 * run at the repository root would, to the pull request's files. The project is read from the
 * default branch only: rules are data, and a pull request must not bring the rules that edit it.
 * Only `ruleDirs`, `utilDirs` and `languageGlobs` are taken from the config: no custom languages
 * (native libraries), no tests. A preview like ast_edit's; /resolve apply commits it.
 */
import type { Static } from "@sinclair/typebox";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { errorResult, textResult, type ToolResult } from "../core/result.js";
import { UserError } from "../errors.js";
import { stageChangeSet } from "../core/execution.js";
import type { CustomToolFactory, ToolAPI, WorkspaceReader } from "../core/tool.js";
import { plural } from "../core/text.js";
import { shortSha } from "../core/revision.js";
import { cliLimits, selectFiles, skippedLines } from "./ast-edit.js";
import { hostsInjected, langFromName, type AstLang } from "./ast-grep/languages.js";
import type { Job } from "./ast-grep/rewrite.js";

const CONFIG = "sgconfig.yml";

interface Project {
  files: Map<string, string>;
  /** Rule id → the languages it is written for. */
  rules: Map<string, AstLang | undefined>;
}

function dirList(config: Record<string, unknown>, key: string): string[] {
  const value = config[key];
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
    throw new UserError(`${CONFIG} in {trustedTree}: ${key} must be a list of directories.`);
  }
  return list;
}

/** Reads the ast-grep project of the default branch: the config, rule and util files, rule ids. */
async function readProject(trusted: WorkspaceReader): Promise<Project> {
  if (!(await trusted.exists(CONFIG))) {
    throw new UserError(
      `There is no ${CONFIG} in {trustedTree} (${shortSha(trusted.revision)}); /ast-fix applies the fixes of the repository's ast-grep project.`,
    );
  }
  let config: Record<string, unknown>;
  try {
    const value = parseYaml(await trusted.readText(CONFIG)) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("it must hold a mapping");
    config = value as Record<string, unknown>;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${CONFIG} in {trustedTree} is not valid YAML: ${(error as Error).message}`);
  }
  const ruleDirs = dirList(config, "ruleDirs");
  const utilDirs = dirList(config, "utilDirs");
  if (ruleDirs.length === 0) throw new UserError(`${CONFIG} in {trustedTree} names no ruleDirs.`);
  const files = new Map<string, string>();
  // Only what scanning needs: no customLanguages (native code), no testConfigs.
  const kept: Record<string, unknown> = { ruleDirs, ...(utilDirs.length > 0 ? { utilDirs } : {}) };
  if (config.languageGlobs !== undefined) kept.languageGlobs = config.languageGlobs;
  files.set(CONFIG, JSON.stringify(kept));
  const rules = new Map<string, AstLang | undefined>();
  for (const [dirs, isRules] of [
    [ruleDirs, true],
    [utilDirs, false],
  ] as const) {
    if (dirs.length === 0) continue;
    const { files: listed, unmatched } = await trusted.resolvePatterns(dirs);
    if (unmatched.length > 0)
      throw new UserError(`${CONFIG} in {trustedTree} names directories that hold no files: ${unmatched.join(", ")}.`);
    for (const path of listed) {
      if (!/\.ya?ml$/.test(path)) continue;
      const text = await trusted.readText(path);
      files.set(path, text);
      if (!isRules) continue;
      for (const doc of parseAllDocuments(text)) {
        const value = doc.errors.length === 0 ? (doc.toJS() as { id?: unknown; language?: unknown } | null) : null;
        if (value !== null && typeof value === "object" && typeof value.id === "string") {
          rules.set(value.id, typeof value.language === "string" ? langFromName(value.language) : undefined);
        }
      }
    }
  }
  return { files, rules };
}

/** `--filter` for the chosen rule ids: the CLI takes a regular expression. */
function filterFor(ids: readonly string[]): string {
  return `^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

function parametersSchema(pi: ToolAPI) {
  const T = pi.typebox.Type;
  return T.Object({
    rules: T.Optional(T.Array(T.String(), { description: "Ids of the rules whose fixes to apply (default: every rule with a fix)." })),
    paths: T.Optional(
      T.Array(T.String(), { minItems: 1, default: ["."], title: "path", description: 'Files, directories or globs to fix (default ".").' }),
    ),
  });
}

type Params = Static<ReturnType<typeof parametersSchema>>;

export function fixLabel(fixes: number, rules: number, files: number): string {
  return `AST Fix: ${plural(fixes, "fix", "fixes")} from ${plural(rules, "rule")} in ${plural(files, "file")}`;
}

const factory: CustomToolFactory = (pi) => {
  const parameters = parametersSchema(pi);
  return {
    name: "ast_fix",
    label: "AST Fix",
    description:
      "Applies the fixes of the repository's ast-grep project (sgconfig.yml and its rule directories, read from " +
      "{trustedFiles}), exactly as `ast-grep scan --update-all` would. Words after the command are rule ids " +
      "(default: all rules). Shows the diff first; {applyCommand} commits it.",
    parameters,
    positionals: ["rules"],
    // Each file's rewrite reads that file alone: `/resolve apply --only` may commit some files.
    splitsByFile: true,
    pathParameters: { paths: "path" },
    examples: ["/ast-fix", "/ast-fix no-console-log prefer-const --paths src"],
    async execute(_toolCallId: string, params: Params): Promise<ToolResult> {
      try {
        const project = await readProject(await pi.defaultBranch());
        const ids = params?.rules ?? [];
        const unknown = ids.filter((id) => !project.rules.has(id));
        if (unknown.length > 0) {
          const known = [...project.rules.keys()].sort();
          throw new UserError(
            `No rule ${unknown.map((id) => JSON.stringify(id)).join(", ")} in the ast-grep project of {trustedTree}; its rules: ${known.join(", ") || "none"}.`,
          );
        }
        const chosen = ids.length > 0 ? ids : [...project.rules.keys()];
        const langs = new Set(chosen.map((id) => project.rules.get(id)));
        const job: Job = {
          args: ["scan", ...(ids.length > 0 ? ["--filter", filterFor(ids)] : []), "--custom-languages", "ignore"],
          key: `fix\0${[...project.files].map(([path, text]) => `${path.length}:${path}${text.length}:${text}`).join("")}\0${ids.join("\0")}`,
          // languageGlobs may give a rule more files than its extensions: only a rule of unknown language widens the net
          mayChange: (file) =>
            langs.has(undefined) || langs.has(file.lang) || [...langs].some((lang) => lang !== undefined && hostsInjected(file.lang, lang)),
          textFree: () => true,
          needles: () => undefined,
        };
        const selection = await selectFiles(pi, params?.paths ?? ["."], undefined, [job], {
          limits: cliLimits(),
          project: { files: project.files, config: CONFIG },
        });
        const results = await selection.rewrite();
        const rewritten = results.filter((file) => file.replacements > 0);
        const total = rewritten.reduce((sum, file) => sum + file.replacements, 0);
        if (total === 0) return textResult(["No fixes to apply", ...skippedLines(selection.skipped)].join("\n"));
        const used = new Set(rewritten.flatMap((file) => [...file.rules.keys()]));
        const label = fixLabel(total, used.size, rewritten.length);
        const changes = pi.newChangeSet();
        for (const file of rewritten) await changes.write(file.path, file.text);
        const details = {
          rules: ids,
          fixes: total,
          files: rewritten.map((file) => ({
            path: file.path,
            fixes: file.replacements,
            rules: Object.fromEntries([...file.rules].sort()),
          })),
          ...(selection.skipped.length > 0 ? { skipped: selection.skipped } : {}),
        };
        pi.pushPendingAction({
          label,
          sourceToolName: "ast_fix",
          details,
          changes,
          async apply(): Promise<ToolResult> {
            await stageChangeSet(pi.files, changes);
            return textResult(`Applied ${label.slice("AST Fix: ".length)}.`);
          },
        });
        const lines = rewritten.map(
          (file) =>
            `- ${file.path}: ${[...file.rules]
              .sort()
              .map(([rule, count]) => `${rule} ×${count}`)
              .join(", ")}`,
        );
        return textResult([label, ...lines, ...skippedLines(selection.skipped)].join("\n"), details);
      } catch (error) {
        if (error instanceof UserError) return errorResult(error.message);
        throw error;
      }
    },
  };
};

export default factory;
