// Design: napi matches in-process; $A/$$$A expansion and re-indent re-implemented in TS (ast-grep/template.ts), parity-tested vs CLI 0.51.1. Not the CLI: --json
// adds spawn + temp files to the CLI's own run. The text prefilter (words, token chains) skips most parses; files that pass are parsed with parseAsync while
// later files are still read, a bounded number at a time, and no tree is kept (native memory V8 does not see); replay reuses cached results. Numbers: bench/README.md.
/**
 * The built-in `ast_edit` tool (spec §4): structural search and replace with ast-grep patterns.
 * It previews with a dry run and pushes one pending action whose change set holds the rewritten
 * files; apply stages exactly that change. Output is byte-identical to running
 * `ast-grep run -p PAT -r OUT -U` once per op, in order, on the same files, for files that parse
 * cleanly; a file a pattern matches in whose parse tree holds ERROR nodes is left alone and named
 * in the reply (see rewrite.ts RewriteResult.unparsable).
 */
import type { Static } from "@sinclair/typebox";
import { errorResult, textResult, UserError, type ToolResult } from "../core/result.js";
import { stageChangeSet } from "../core/execution.js";
import type { CustomToolFactory, ToolAPI } from "../core/tool.js";
import { normalizePath } from "../workspace/paths.js";
import { plural } from "./plural.js";
import { LANG_NAMES, langForPath, langFromName, type AstLang } from "./ast-grep/languages.js";
import { compileOp, prepareOp, rewriteFiles, type CompiledOp, type FileRewrite, type FileText } from "./ast-grep/rewrite.js";

export interface AstEditOp {
  pat: string;
  out: string;
}

export interface AstEditDetails {
  ops: AstEditOp[];
  replacements: number;
  files: Array<{ path: string; replacements: number }>;
  /**
   * Files a pattern matched in but that were left alone because they do not parse cleanly (the
   * tree holds ERROR nodes). Only present when there are some, so details (and digests) of
   * commands without such files are what they were before.
   */
  skipped?: string[];
}

/** How many skipped files the reply names; the rest are counted. */
const SKIPPED_NAMED = 10;

/** The reply line naming the files left alone because they do not parse cleanly. */
export function skippedLine(paths: readonly string[]): string {
  const named = paths.slice(0, SKIPPED_NAMED).join(", ");
  const rest = paths.length - SKIPPED_NAMED;
  const which = paths.length === 1 ? "file that does not" : "files that do not";
  return (
    `Skipped ${paths.length} ${which} parse cleanly (resolve-bot does not edit code its parser cannot read): ` +
    `${named}${rest > 0 ? ` and ${rest} more` : ""}`
  );
}


export function summary(replacements: number, files: number): string {
  return `${plural(replacements, "replacement")} in ${plural(files, "file")}`;
}

function parametersSchema(pi: ToolAPI) {
  const T = pi.typebox.Type;
  return T.Object({
    ops: T.Optional(
      T.Array(
        T.Object({
          pat: T.String({ description: "ast-grep pattern, e.g. console.log($$$A)" }),
          out: T.String({ description: "replacement template; $A / $$$A insert what the pattern captured; empty deletes" }),
        }),
        { minItems: 1, description: "Rewrites to run in order, each on the output of the previous one." },
      ),
    ),
    pat: T.Optional(T.Array(T.String(), { description: "Command-line form of ops: --pat A --out B --pat C --out D." })),
    out: T.Optional(T.Array(T.String(), { description: "Replacement for the --pat at the same position." })),
    paths: T.Optional(
      T.Array(T.String(), { minItems: 1, default: ["."], description: 'Files, directories or globs to rewrite (default ".").' }),
    ),
    lang: T.Optional(
      T.String({
        description: `Language of the pattern: ${LANG_NAMES.join(", ")}. Directories and globs then only yield that language's files; files named explicitly are parsed as it whatever their extension.`,
      }),
    ),
  });
}

type Params = Static<ReturnType<typeof parametersSchema>>;

function asList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  throw new UserError("pat, out and paths must be strings or lists of strings.");
}

/** The ops from `ops` and the paired `pat`/`out` lists, validated. */
export function collectOps(params: Partial<Params>): AstEditOp[] {
  const ops: AstEditOp[] = [];
  if (params.ops !== undefined) {
    if (!Array.isArray(params.ops)) throw new UserError("ops must be a list of { pat, out }.");
    for (const op of params.ops) {
      if (!op || typeof op.pat !== "string" || typeof op.out !== "string") {
        throw new UserError("Each op needs a pat (pattern) and an out (replacement; empty to delete).");
      }
      ops.push({ pat: op.pat, out: op.out });
    }
  }
  const pats = asList(params.pat) ?? [];
  const outs = asList(params.out) ?? [];
  if (pats.length !== outs.length) {
    throw new UserError(
      `Got ${plural(pats.length, "--pat")} but ${plural(outs.length, "--out")}; give one --out for each --pat, in the same order (--out "" deletes).`,
    );
  }
  pats.forEach((pat, index) => ops.push({ pat, out: outs[index]! }));
  if (ops.length === 0) throw new UserError("Nothing to do: give at least one pattern (--pat PATTERN --out REPLACEMENT, or ops).");
  const seen = new Set<string>();
  for (const op of ops) {
    if (op.pat.trim() === "") throw new UserError("A pattern (pat) is empty.");
    if (seen.has(op.pat)) throw new UserError(`Duplicate pattern: ${JSON.stringify(op.pat)} is given more than once; give each pattern once.`);
    seen.add(op.pat);
  }
  return ops;
}

/**
 * The files to rewrite, with their language and text, one at a time as they are read (so parsing
 * can start before reading ends). Throws UserErrors meant for the user.
 */
async function* selectFiles(pi: ToolAPI, paths: string[], forced: AstLang | undefined): AsyncGenerator<FileText> {
  const workspace = pi.workspace;
  const { files, unmatched } = await workspace.resolvePatterns(paths);
  if (unmatched.length > 0) {
    const names = unmatched.map((p) => JSON.stringify(p)).join(", ");
    throw new UserError(`No files match ${names} at ${workspace.revision}.`);
  }
  // Files named as such (not reached through a directory or glob): problems with them are errors.
  const explicit = new Set<string>();
  for (const path of paths) {
    try {
      const normal = normalizePath(path);
      if (await workspace.exists(normal)) explicit.add(normal);
    } catch {
      // "." and the like: not a file name
    }
  }
  for (const path of files) {
    const named = explicit.has(path);
    const detected = langForPath(path);
    const lang = forced !== undefined ? (named || detected === forced ? forced : undefined) : detected;
    if (lang === undefined) {
      if (named) {
        throw new UserError(`${path}: ast_edit does not know the language of this file; pass lang (${LANG_NAMES.join(", ")}).`);
      }
      continue;
    }
    const read = await workspace.tryReadText(path);
    if ("skipped" in read) {
      if (named) throw new UserError(read.skipped);
      continue;
    }
    // Invalid UTF-8 decodes to U+FFFD; writing such a text back would change bytes nobody edited.
    if (read.text.includes("\uFFFD") && !Buffer.from(read.text, "utf8").equals(Buffer.from(await workspace.readBytes(path)))) {
      if (named) throw new UserError(`${path} is not valid UTF-8; ast_edit leaves it alone.`);
      continue;
    }
    yield { path, lang, text: read.text };
  }
}

/** prepareOp, with its failure told to the user. */
function prepareForUser(op: CompiledOp, lang: AstLang): void {
  try {
    prepareOp(op, lang);
  } catch (error) {
    throw new UserError(`Pattern ${JSON.stringify(op.pat)} cannot be used for ${lang}: ${(error as Error).message}`);
  }
}

const factory: CustomToolFactory = (pi) => {
  const parameters = parametersSchema(pi);
  return {
    name: "ast_edit",
    label: "AST Edit",
    description:
      "Structural search and replace with ast-grep patterns (TypeScript, TSX, JavaScript, HTML, CSS). " +
      "Each op rewrites every match of `pat` into `out`: metavariables $A (one node) and $$$A (a list) in `out` insert what " +
      "the pattern captured, and an empty `out` deletes the match. Ops run in order, each on the previous one's output, exactly " +
      "like `ast-grep run -p PAT -r OUT -U` run once per op; a file that does not parse cleanly is left alone and named. Words after the options are paths (files, directories, globs; " +
      'default "."). Shows the diff first; /resolve apply commits it.',
    parameters,
    positionals: ["paths"],
    examples: [
      "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src",
      "/ast-edit --pat 'var $A = $B' --out 'let $A = $B' --pat '$X == null' --out '$X === undefined' 'src/**/*.ts'",
      "/ast-edit --pat 'debugger' --out '' src/app.js",
    ],
    async execute(_toolCallId: string, params: Params): Promise<ToolResult> {
      let results: FileRewrite[];
      let ops: AstEditOp[];
      try {
        ops = collectOps(params ?? {});
        let forced: AstLang | undefined;
        if (params?.lang !== undefined) {
          forced = langFromName(params.lang);
          if (forced === undefined) {
            throw new UserError(`Unknown lang ${JSON.stringify(params.lang)}; use one of ${LANG_NAMES.join(", ")}.`);
          }
        }
        const paths = asList(params?.paths) ?? ["."];
        if (paths.length === 0) throw new UserError('paths is empty; give at least one file, directory or glob (or omit it for ".").');
        const compiled = ops.map((op) => compileOp(op.pat, op.out));
        results = await rewriteFiles(compiled, selectFiles(pi, paths, forced), prepareForUser);
      } catch (error) {
        if (error instanceof UserError) return errorResult(error.message);
        throw error;
      }

      const rewritten = results.filter((file) => !file.unparsable && file.replacements > 0);
      const skipped = results.filter((file) => file.unparsable).map((file) => file.path);
      const skippedLines = skipped.length > 0 ? [skippedLine(skipped)] : [];
      const total = rewritten.reduce((sum, file) => sum + file.replacements, 0);
      if (total === 0) {
        if (skipped.length === 0) return textResult("No replacements made");
        const none: AstEditDetails = { ops, replacements: 0, files: [], skipped };
        return textResult(["No replacements made", ...skippedLines].join("\n"), none);
      }

      const changes = pi.newChangeSet();
      for (const file of rewritten) await changes.write(file.path, file.text);
      const counts = summary(total, rewritten.length);
      const label = `AST Edit: ${counts}`;
      const details: AstEditDetails = {
        ops,
        replacements: total,
        files: rewritten.map((file) => ({ path: file.path, replacements: file.replacements })),
        ...(skipped.length > 0 ? { skipped } : {}),
      };
      pi.pushPendingAction({
        label,
        sourceToolName: "ast_edit",
        details,
        changes,
        async apply(_reason: string): Promise<ToolResult> {
          await stageChangeSet(pi.files, changes);
          return textResult(`Applied ${counts}.`);
        },
      });
      const lines = rewritten.map((file) => `- ${file.path}: ${plural(file.replacements, "replacement")}`);
      return textResult([label, ...lines, ...skippedLines].join("\n"), details);
    },
  };
};

export default factory;
