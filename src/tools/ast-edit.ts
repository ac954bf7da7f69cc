/**
 * The built-in `ast_edit` tool: structural search and replace with ast-grep patterns or
 * YAML rules. It previews with a dry run and pushes one pending action whose change set holds the
 * rewritten files; apply stages exactly that change. Output is byte-identical to running
 * `ast-grep run -p PAT -r OUT -U` once per op, in order (rules: `ast-grep scan --rule R
 * --update-all`), on the same files, syntax errors included: the CLI computes every replacement
 * (ast-grep/rewrite.ts). Files selected: every file of the workspace the paths name, hidden and
 * .gitignored ones included (a PR tarball holds tracked files only; the CLI, handed files by
 * name, reads them all); languages by extension as the CLI assigns them (ast-grep/languages.ts).
 */
import type { Static } from "@sinclair/typebox";
import { parseAllDocuments } from "yaml";
import { errorResult, textResult, type ToolResult } from "../core/result.js";
import { UserError } from "../errors.js";
import { shortSha } from "../core/revision.js";
import { stageChangeSet } from "../core/execution.js";
import type { CustomToolFactory, ToolAPI } from "../core/tool.js";
import picomatch from "picomatch";
import { normalizePath, normalizeScope } from "../workspace/paths.js";
import { plural } from "../core/text.js";
import { AST_LANGS, hostsInjected, languageTable, langForPath, langFromName, type AstLang } from "./ast-grep/languages.js";
import {
  compileOp,
  opJob,
  rewriteFiles,
  holdsNeedles,
  withinLines,
  type FileRewrite,
  type FileText,
  type Job,
  type RewriteOptions,
} from "./ast-grep/rewrite.js";
import { InPlaceRun, type InPlaceFiles } from "./ast-grep/in-place.js";
import { checkArguments, DEFAULT_CLI_LIMITS, fenced, type CliLimits } from "./ast-grep/cli.js";

export interface AstEditOp {
  pat: string;
  out: string;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface AstEditDetails {
  /** The ops run (empty when rules were). */
  ops: AstEditOp[];
  /** The YAML rules run, as given. */
  rules?: string;
  replacements: number;
  files: Array<{ path: string; replacements: number }>;
  /**
   * Files the paths select, in a language the job reads, that could hold a match but were not
   * searched (over the size limit, not valid UTF-8). Only present when there are some.
   */
  skipped?: SkippedFile[];
}

/** How many skipped files the reply names; the rest are counted. */
const SKIPPED_NAMED = 20;

/** The reply lines naming the files that could hold a match but were not searched. */
export function skippedLines(files: readonly SkippedFile[]): string[] {
  if (files.length === 0) return [];
  const rest = files.length - SKIPPED_NAMED;
  return [
    `Not searched: ${plural(files.length, "file")} that could hold a match:`,
    ...files.slice(0, SKIPPED_NAMED).map((file) => `- ${file.reason}`),
    ...(rest > 0 ? [`- and ${rest} more`] : []),
  ];
}

/** `--lines FROM-TO` on the one file of `paths`. */
async function lineScope(pi: ToolAPI, text: string, paths: readonly string[]): Promise<{ path: string; start: number; end: number }> {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(text);
  const start = Number(match?.[1]);
  const end = Number(match?.[2] ?? match?.[1]);
  if (!match || start < 1 || end < start) throw new UserError(`--lines takes FROM-TO (1-based, FROM ≤ TO), e.g. 12-14; got "${text}".`);
  const path = paths.length === 1 ? normalizePath(paths[0]!) : undefined;
  if (path === undefined || !(await pi.workspace.exists(path)) || (await pi.workspace.isDirectory(path)))
    throw new UserError("--lines needs exactly one file as the path.");
  return { path, start, end };
}

function scopeLine({ path, start, end }: { path: string; start: number; end: number }): string {
  const lines = start === end ? `line ${start}` : `lines ${start}–${end}`;
  return `Only matches overlapping ${lines} of ${path} were kept.`;
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
    pat: T.Optional(T.Array(T.String(), { title: "pattern", description: "Command-line form of ops: --pat A --out B --pat C --out D." })),
    out: T.Optional(T.Array(T.String(), { title: "replacement", description: "Replacement for the --pat at the same position." })),
    rules: T.Optional(
      T.String({
        title: "yaml",
        description:
          "ast-grep YAML rules (id, language, rule, constraints, utils, transform, fix, rewriters; several separated by ---), " +
          "as `ast-grep scan --rule` reads them: a ` ```yaml ` block on the lines right after the command line.",
      }),
    ),
    paths: T.Optional(
      T.Array(T.String(), {
        minItems: 1,
        default: ["."],
        title: "path",
        description: 'Files, directories or globs to rewrite (default ".").',
      }),
    ),
    lines: T.Optional(
      T.String({
        title: "FROM-TO",
        description: "FROM-TO (1-based): keep only matches that overlap these lines of the one file given as the path.",
      }),
    ),
    lang: T.Optional(
      T.String({
        title: "language",
        description:
          "Language of the patterns (as the CLI's --lang: typescript, python, go, rust, …). Directories and globs then only yield " +
          "that language's files (and HTML, whose <script>/<style> the CLI searches too); files named explicitly are read as it " +
          "whatever their extension. Without it each file's language comes from its extension, as the CLI assigns them: " +
          `${languageTable().join("; ")}.`,
      }),
    ),
  });
}

type Params = Static<ReturnType<typeof parametersSchema>>;

function asList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw new UserError("pat, out and paths must be strings or lists of strings.");
}

/** How often an option was given, in words: "not at all", "once", "twice", "3 times". */
function times(count: number): string {
  return count === 0 ? "not at all" : count === 1 ? "once" : count === 2 ? "twice" : `${count} times`;
}

/** The ops from `ops` and the paired `pat`/`out` lists, validated (may be empty). */
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
      `--pat is given ${times(pats.length)} but --out ${times(outs.length)}; give one --out for each --pat, in the same order (--out "" deletes).`,
    );
  }
  pats.forEach((pat, index) => ops.push({ pat, out: outs[index]! }));
  const seen = new Set<string>();
  for (const op of ops) {
    if (op.pat.trim() === "") throw new UserError("A pattern (pat) is empty.");
    if (seen.has(op.pat))
      throw new UserError(`Duplicate pattern: ${JSON.stringify(op.pat)} is given more than once; give each pattern once.`);
    seen.add(op.pat);
  }
  return ops;
}

/**
 * The languages YAML rules are written for (each document's `language`), so only files the CLI
 * would scan with them are handed to it. A document the CLI cannot read is left to the CLI's
 * own check (ruleLanguages then returns every language), which gives the error message.
 */
export function ruleLanguages(yaml: string): Set<AstLang> {
  const langs = new Set<AstLang>();
  for (const doc of parseAllDocuments(yaml)) {
    if (doc.errors.length > 0) return new Set(AST_LANGS);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    const name = typeof value === "object" ? (value as { language?: unknown }).language : undefined;
    const lang = typeof name === "string" ? langFromName(name) : undefined;
    if (lang === undefined) return new Set(AST_LANGS);
    langs.add(lang);
  }
  return langs;
}

/** The CLI's job for YAML rules: `scan --inline-rules`, on files of the rules' languages. */
function rulesJob(yaml: string): Job {
  const langs = ruleLanguages(yaml);
  return {
    args: ["scan", "--inline-rules", yaml],
    key: `scan\0${yaml}`,
    mayChange: (file) => langs.has(file.lang) || [...langs].some((lang) => hostsInjected(file.lang, lang)),
    textFree: () => true,
    needles: () => undefined,
  };
}

/** What a file selection yields: the files, and the ones that could hold a match but cannot be read as text. */
export interface Selection {
  /** Runs the jobs over the files (ast-grep/rewrite.ts, or ast-grep/in-place.ts). */
  rewrite(): Promise<FileRewrite[]>;
  /** Set when the CLI reads the files where they lie (ast-grep/in-place.ts). */
  inPlace?: InPlaceFiles;
  skipped: SkippedFile[];
}

/**
 * Below this share of the walked files (listed files of a known language inside the walk's
 * directories) being candidates, the CLI would parse mostly files nobody asked for: copy instead.
 */
const IN_PLACE_MIN_SHARE = 0.5;

/**
 * Files being read ahead of the one the rewrite takes: enough to keep a git workspace's
 * `cat-file --batch` busy between two turns of the event loop, few enough that what is read
 * ahead is small next to the files a run holds anyway.
 */
const READ_AHEAD = 32;

/**
 * The files to rewrite with the jobs, with their language and text. Throws UserErrors meant for
 * the user. On an on-disk workspace, a job with no prefilter may start the CLI at once, walking
 * the files where they lie while they are listed here (ast-grep/in-place.ts).
 */
export async function selectFiles(
  pi: ToolAPI,
  paths: string[],
  forced: AstLang | undefined,
  jobs: readonly Job[],
  options: RewriteOptions = {},
): Promise<Selection> {
  const workspace = pi.workspace;
  const disk = workspace.onDisk();
  const scopes = walkScopes(paths);
  // Nothing the listing shows can make a run unwanted but what inPlaceCandidates checks: start it now, and cancel it then.
  let run =
    disk !== undefined && scopes !== undefined && readsNoText(jobs, forced, AST_LANGS)
      ? new InPlaceRun(jobs[0]!, disk, scopes, options)
      : undefined;
  // With --lang the files' language is known before they are listed: the workspace's search for
  // the jobs' needles runs meanwhile. Otherwise it waits for the listing's languages.
  const early = forced !== undefined && scopes !== undefined ? byteNarrowing(workspace, jobs, [forced], scopes) : undefined;
  early?.catch(() => undefined); // awaited below unless the listing fails first
  try {
    const { files: listed, unmatched } = await workspace.resolvePatterns(paths);
    if (unmatched.length > 0) {
      const names = unmatched.map((p) => JSON.stringify(p)).join(", ");
      throw new UserError(`No files match ${names} at ${shortSha(workspace.revision)}.`);
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
    const known: Array<{ path: string; lang: AstLang; forced?: true }> = [];
    for (const path of listed) {
      const file = languageOf(path, explicit.has(path), forced);
      if (file !== undefined) known.push(file);
      else if (explicit.has(path)) {
        throw new UserError(`${path}: the ast-grep CLI does not know the language of this file; pass --lang (e.g. --lang typescript).`);
      }
    }
    const langs = [...new Set(known.map((file) => file.lang))];
    const narrowing = early ?? (scopes === undefined ? undefined : byteNarrowing(workspace, jobs, langs, scopes));
    const holds = narrowing === undefined ? () => true : await narrowing;
    const skipped: SkippedFile[] = [];
    /** A file's text, or why it is skipped (said by `taken`, so the list keeps the files' order). */
    const readFile = async (file: { path: string; lang: AstLang; forced?: true }): Promise<FileText | SkippedFile | undefined> => {
      const { path } = file;
      const named = explicit.has(path);
      // a named file is decoded whatever its bytes: its problems are errors
      if (!named && !holds(file)) return undefined;
      const text = named
        ? await workspace.tryReadText(path)
        : await workspace.tryReadTextIf(path, (bytes) => jobs.some((job) => holdsNeedles(bytes, job.needles(file.lang))));
      if (text === undefined) return undefined;
      if ("skipped" in text) {
        if (named) throw new UserError(text.skipped);
        // Binary files hold no code to match; files over the size limit might.
        return / is a binary file;/.test(text.skipped) ? undefined : { path, reason: text.skipped };
      }
      // Invalid UTF-8 decodes to U+FFFD; writing such a text back would change bytes nobody edited.
      if (text.text.includes("\uFFFD") && !Buffer.from(text.text, "utf8").equals(Buffer.from(await workspace.readBytes(path)))) {
        const reason = `${path} is not valid UTF-8; ast_edit leaves it alone.`;
        if (named) throw new UserError(reason);
        return jobs.some((job) => job.mayChange({ ...file, text: text.text })) ? { path, reason } : undefined;
      }
      return { ...file, text: text.text };
    };
    const taken = (read: FileText | SkippedFile | undefined): FileText | undefined => {
      if (read === undefined || "text" in read) return read;
      skipped.push(read);
      return undefined;
    };
    const read = async (file: { path: string; lang: AstLang; forced?: true }) => taken(await readFile(file));
    const all = await workspace.list();
    const candidates =
      disk !== undefined && scopes !== undefined && explicit.size === 0
        ? inPlaceCandidates(listed.length === all.length ? undefined : all, known, scopes, jobs, forced)
        : undefined;
    if (candidates === undefined) {
      run?.cancel();
      async function* files(): AsyncGenerator<FileText> {
        // Reads go out READ_AHEAD files ahead of the one handed on: a git workspace answers them
        // from one process in order, so its round trips overlap instead of adding up. Each file
        // is still handed on, or skipped, in the listing's order.
        const reads: Array<Promise<FileText | SkippedFile | undefined>> = [];
        let next = 0;
        while (next < known.length || reads.length > 0) {
          while (next < known.length && reads.length < READ_AHEAD) {
            const reading = readFile(known[next++]!);
            reading.catch(() => undefined); // its error is thrown when its turn comes
            reads.push(reading);
          }
          const text = taken(await reads.shift()!);
          if (text !== undefined) yield text;
        }
      }
      return { rewrite: () => rewriteFiles(jobs, files(), options), skipped };
    }
    run ??= new InPlaceRun(jobs[0]!, disk!, scopes!, options);
    const inPlace: InPlaceFiles = { candidates, read: (path) => read({ path, lang: candidates.get(path)! }) };
    const started = run;
    return { rewrite: () => started.rewrite(inPlace), inPlace, skipped };
  } catch (error) {
    run?.cancel();
    throw error;
  }
}

/**
 * Which files could pass some job's needles (Job.needles), as far as the workspace can tell
 * without this process reading each file (GitWorkspace: git grep); a file it cannot rule out
 * passes, and is then read and checked as usual.
 */
async function byteNarrowing(
  workspace: ToolAPI["workspace"],
  jobs: readonly Job[],
  langs: readonly AstLang[],
  scopes: readonly string[],
): Promise<(file: { path: string; lang: AstLang }) => boolean> {
  const searches = new Map<string, Promise<ReadonlySet<string> | undefined>>();
  const anyFile = Promise.resolve(undefined);
  /** Per language, per job: the files that may hold its needles; undefined where any file may. */
  const byLang = new Map<AstLang, Array<Promise<ReadonlySet<string> | undefined>>>();
  for (const lang of langs) {
    byLang.set(
      lang,
      jobs.map((job) => {
        const needles = job.needles(lang);
        if (needles === undefined) return anyFile;
        const key = JSON.stringify(needles);
        const search = searches.get(key) ?? workspace.filesHoldingAll(needles, scopes);
        searches.set(key, search);
        return search;
      }),
    );
  }
  const sets = new Map<AstLang, Array<ReadonlySet<string> | undefined>>();
  for (const [lang, pending] of byLang) sets.set(lang, await Promise.all(pending));
  return (file) => sets.get(file.lang)?.some((set) => set === undefined || set.has(file.path)) ?? true;
}

/** One job, no forced language, and no prefilter for any of `langs`: the CLI may read files in place. */
function readsNoText(jobs: readonly Job[], forced: AstLang | undefined, langs: readonly AstLang[]): boolean {
  return jobs.length === 1 && forced === undefined && langs.every((lang) => jobs[0]!.textFree(lang));
}

/**
 * The candidates when the CLI may read the files where they lie (ast-grep/in-place.ts): one job
 * that reads no text of the files' languages, no forced language, and mostly candidates among
 * the files the CLI walks. Files named as such are read instead (their problems are errors,
 * found by reading them).
 */
function inPlaceCandidates(
  /** The workspace's files; undefined when the paths select them all (`known` is then what the CLI walks). */
  all: readonly string[] | undefined,
  known: ReadonlyArray<{ path: string; lang: AstLang }>,
  scopes: readonly string[],
  jobs: readonly Job[],
  forced: AstLang | undefined,
): Map<string, AstLang> | undefined {
  if (!readsNoText(jobs, forced, [...new Set(known.map((file) => file.lang))])) return undefined;
  const candidates = new Map(known.filter((file) => jobs[0]!.mayChange({ ...file, text: "" })).map((file) => [file.path, file.lang]));
  const walked =
    all === undefined
      ? known.length
      : all.filter(
          (file) => langForPath(file) !== undefined && (scopes.includes(".") || scopes.some((scope) => file.startsWith(`${scope}/`))),
        ).length;
  if (candidates.size === 0 || candidates.size < walked * IN_PLACE_MIN_SHARE) return undefined;
  return candidates;
}

/** The directories the paths lie in (a glob's fixed start), none inside another; undefined for a path that is no path. */
function walkScopes(paths: readonly string[]): string[] | undefined {
  let scopes: string[];
  try {
    scopes = paths.map((path) => {
      const scan = picomatch.scan(path.replace(/\\/g, "/").replace(/^\.\//, ""));
      return normalizeScope(scan.isGlob ? scan.base || "." : path);
    });
  } catch {
    return undefined; // the listing says what is wrong with it
  }
  if (scopes.includes(".")) return ["."];
  return [...new Set(scopes)].filter((scope) => !scopes.some((other) => scope.startsWith(`${other}/`))).sort();
}

/** The language the CLI reads `path` as, or undefined when it reads none (then the file is not a candidate). */
function languageOf(path: string, named: boolean, forced: AstLang | undefined): { path: string; lang: AstLang; forced?: true } | undefined {
  const detected = langForPath(path);
  if (forced === undefined) return detected === undefined ? undefined : { path, lang: detected };
  if (detected !== undefined && (detected === forced || hostsInjected(detected, forced))) return { path, lang: detected };
  return named ? { path, lang: forced, forced: true } : undefined;
}

/** Limits of the CLI runs; tests lower them to see them work. */
let limitsInForce: CliLimits = DEFAULT_CLI_LIMITS;
export function setCliLimitsForTests(limits: CliLimits): () => void {
  const previous = limitsInForce;
  limitsInForce = limits;
  return () => {
    limitsInForce = previous;
  };
}

/** The limits every CLI run of ast_edit and ast_fix has. */
export function cliLimits(): CliLimits {
  return limitsInForce;
}

/** The warning `ast-grep run --lang LANG` prints for a pattern (when the run matched nothing). */
interface PatternWarning {
  lang: AstLang;
  text: string;
}

/**
 * Asks the CLI about each op's pattern in (up to three of) `langs`, in an empty directory. Without
 * --lang the CLI silently skips a file whose language cannot read the pattern, so a pattern that
 * fits no language it was tried on would end in "No replacements made": when `refuse` is set and
 * a pattern fits none, the user gets the CLI's message for the first. For the first language that
 * reads the pattern, the CLI's warning is kept: `run --lang` prints it when the pattern's root is
 * an ERROR node (it does not parse cleanly, e.g. `foo((`) and nothing matched in the whole run.
 */
async function checkPatterns(
  ops: readonly AstEditOp[],
  langs: readonly AstLang[],
  refuse: boolean,
): Promise<Map<AstEditOp, PatternWarning>> {
  const warnings = new Map<AstEditOp, PatternWarning>();
  for (const op of ops) {
    let first: UserError | undefined;
    for (const lang of langs.slice(0, 3)) {
      try {
        const text = await checkArguments(["run", "-p", op.pat, "-l", lang], cliLimits());
        if (text !== "") warnings.set(op, { lang, text });
        first = undefined;
        break;
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        first ??= error;
      }
    }
    if (first !== undefined && refuse) throw first;
  }
  return warnings;
}

/** The CLI's warning about a pattern that matched nothing, quoted for the reply. */
function warningLines(op: AstEditOp, warning: PatternWarning): string[] {
  return [
    `ast-grep warns about the pattern ${JSON.stringify(op.pat)} (read as ${warning.lang}), which matched nothing:`,
    fenced(warning.text),
  ];
}

const factory: CustomToolFactory = (pi) => {
  const parameters = parametersSchema(pi);
  return {
    name: "ast_edit",
    label: "AST Edit",
    description:
      "Structural search and replace with ast-grep patterns or YAML rules, in every language the ast-grep CLI 0.51.1 knows " +
      "(by file extension, or --lang). Each op rewrites every match of `pat` into `out`: metavariables $A (one node) and $$$A " +
      "(a list) in `out` insert what the pattern captured, and an empty `out` deletes the match. Ops run in order, each on the " +
      "previous one's output, exactly like `ast-grep run -p PAT -r OUT -U` run once per op; a ` ```yaml ` block of rules after the " +
      "command runs like `ast-grep scan --rule RULES --update-all`. Words after the options are paths (files, directories, " +
      'globs; default "."). Shows the diff first; {applyCommand} commits it.',
    parameters,
    positionals: ["paths"],
    // Each file's rewrite reads that file alone: `/resolve apply --only` may commit some files.
    splitsByFile: true,
    pathParameters: { paths: "path" },
    rawYamlBlock: { param: "rules", key: "rule" },
    // On lines of the diff with no paths named: that file, and only matches overlapping those lines.
    atLines: (given, anchor) =>
      given.paths !== undefined ? given : { ...given, paths: [anchor.path], lines: `${anchor.startLine}-${anchor.endLine}` },
    examples: [
      "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src",
      "/ast-edit --pat 'var $A = $B' --out 'let $A = $B' --pat '$X == null' --out '$X === undefined' 'src/**/*.ts'",
      "/ast-edit --lang python --pat 'print $A' --out 'print($A)' scripts",
      "/ast-edit src   (then a ```yaml block: id, language, rule, fix)",
    ],
    async execute(_toolCallId: string, params: Params): Promise<ToolResult> {
      let results: FileRewrite[];
      let ops: AstEditOp[];
      let selection: Selection;
      /** The CLI's warnings about the patterns of ops that matched nothing. */
      let notes: string[];
      /** What --lines kept out, said after the counts. */
      let scope: string[];
      const rules = params?.rules;
      try {
        ops = collectOps(params ?? {});
        if (rules !== undefined && ops.length > 0) throw new UserError("Give patterns (--pat/--out) or YAML rules, not both.");
        if (rules === undefined && ops.length === 0) {
          throw new UserError(
            "Nothing to do: give at least one pattern (--pat PATTERN --out REPLACEMENT), or YAML rules in a ```yaml block.",
          );
        }
        if (rules !== undefined && rules.trim() === "") throw new UserError("The YAML rules are empty.");
        let forced: AstLang | undefined;
        if (params?.lang !== undefined) {
          if (rules !== undefined) throw new UserError("--lang applies to patterns; each YAML rule names its own language.");
          forced = langFromName(params.lang);
          if (forced === undefined) {
            throw new UserError(
              `Unknown lang ${JSON.stringify(params.lang)}; /help lists the languages (e.g. typescript, python, go, rust).`,
            );
          }
        }
        const paths = asList(params?.paths) ?? ["."];
        if (paths.length === 0) throw new UserError('paths is empty; give at least one file, directory or glob (or omit it for ".").');
        const lines = params?.lines === undefined ? undefined : await lineScope(pi, params.lines, paths);
        const whole = rules !== undefined ? [rulesJob(rules)] : ops.map((op) => opJob(compileOp(op.pat, op.out), forced));
        const jobs = lines === undefined ? whole : whole.map((job) => withinLines(job, lines.path, lines));
        scope = lines === undefined ? [] : [scopeLine(lines)];
        // The CLI checks the arguments while the files are listed and read (a CLI run costs a process
        // start): its refusal still comes first, whatever reading or rewriting met meanwhile.
        const checked = (async () => {
          if (rules !== undefined) await checkArguments(["scan", "--inline-rules", rules], cliLimits());
          return forced !== undefined ? await checkPatterns(ops, [forced], true) : undefined;
        })();
        checked.catch(() => undefined); // awaited below, on every path
        try {
          selection = await selectFiles(pi, paths, forced, jobs, { limits: cliLimits() });
          results = await selection.rewrite();
        } catch (error) {
          await checked;
          throw error;
        }
        let warnings = await checked;
        const unmatched = ops.filter((_, index) => results.every((file) => file.byJob[index] === 0));
        if (warnings === undefined && unmatched.length > 0) {
          // The CLI warns only under --lang; the reviewer is told for the languages the pattern was tried on.
          const refuse = results.every((file) => file.replacements === 0);
          const tried = selection.inPlace !== undefined ? selection.inPlace.candidates.values() : results.map((file) => file.lang);
          warnings = await checkPatterns(unmatched, [...new Set(tried)], refuse);
        }
        notes = unmatched.flatMap((op) => {
          const warning = warnings?.get(op);
          return warning === undefined ? [] : warningLines(op, warning);
        });
      } catch (error) {
        if (error instanceof UserError) return errorResult(error.message);
        throw error;
      }

      const rewritten = results.filter((file) => file.replacements > 0);
      const skipped = selection.skipped;
      const total = rewritten.reduce((sum, file) => sum + file.replacements, 0);
      const base = { ops, ...(rules !== undefined ? { rules } : {}) };
      if (total === 0) {
        // A pattern ast-grep cannot read cleanly that matched nothing is the reviewer's to fix: refused, not "done".
        if (notes.length > 0) {
          return errorResult(
            ["No replacements made: a pattern does not parse cleanly, so nothing was previewed.", ...scope, ...notes].join("\n"),
          );
        }
        if (skipped.length === 0) return textResult(["No replacements made", ...scope].join("\n"));
        const none: AstEditDetails = { ...base, replacements: 0, files: [], skipped };
        return textResult(["No replacements made", ...scope, ...skippedLines(skipped)].join("\n"), none);
      }

      const changes = pi.newChangeSet();
      for (const file of rewritten) await changes.write(file.path, file.text);
      const counts = summary(total, rewritten.length);
      const label = `AST Edit: ${counts}`;
      const details: AstEditDetails = {
        ...base,
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
      return textResult([label, ...lines, ...scope, ...notes, ...skippedLines(skipped)].join("\n"), details);
    },
  };
};

export default factory;
