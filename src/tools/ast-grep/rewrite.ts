/**
 * ast-grep rewrites over workspace files, byte for byte what the ast-grep CLI 0.51.1 writes:
 * the CLI itself computes every match and replacement (`run -p P -r O` or `scan` with rules, in
 * `--json=stream` form), and resolve-bot splices the reported replacements into the text as
 * `-U` / `--update-all` do: in order of position, a replacement that starts inside an earlier
 * one dropped. Several jobs run in sequence, each on the output of the previous one, as running
 * the CLI once per job would. No parse tree of resolve-bot's own decides anything, so files with
 * syntax errors are edited exactly as the CLI edits them.
 *
 * Before the CLI sees a file, the text prefilter (prefilter.ts, token-chains.ts) rules out files
 * that cannot match a pattern; candidates are copied into a scratch directory (scratch.ts) and
 * handed to the CLI in batches while later files are still being read.
 */
import { parse, type SgNode } from "@ast-grep/napi";
import { napiLang, type AstLang } from "./languages.js";
import { mayMatch, requiredWords, typeScriptCommentRanges } from "./prefilter.js";
import { holdsChain, tokenChains, type TokenChain } from "./token-chains.js";
import { DEFAULT_CLI_LIMITS, runAstGrep, type CliLimits, type CliMatch } from "./cli.js";
import { Scratch, type Batch } from "./scratch.js";

/** Walking a batch's directory, the CLI must not skip hidden or ignored files (there are no ignore files in it anyway). */
const NO_IGNORE = ["hidden", "dot", "exclude", "global", "parent", "vcs"].flatMap((kind) => ["--no-ignore", kind]);

export interface CompiledOp {
  pat: string;
  out: string;
  /** Per language: words a file must contain to be worth handing to the CLI (empty: every file). */
  words: Map<AstLang, string[]>;
  /** Per language: runs of tokens a file must contain, each with only trivia between (token-chains.ts). */
  chains: Map<AstLang, TokenChain[]>;
}

export function compileOp(pat: string, out: string): CompiledOp {
  return { pat, out, words: new Map(), chains: new Map() };
}

/** Identifiers and keywords are case-sensitive in these languages, and token-chains.ts knows their keywords. */
function isJavaScriptFamily(lang: AstLang): boolean {
  return lang === "TypeScript" || lang === "Tsx" || lang === "JavaScript";
}

/**
 * Comment openers of the other languages (`#`, `--`, `(*`, `{-`, `%`): a pattern holding one
 * gets no prefilter, as one holding `//`, `/*` or `<!--` gets none in requiredWords.
 */
const OTHER_COMMENT_OPENERS = /#|--|\(\*|\{-|%/;

/**
 * Works out the op's prefilter for files of `lang`. For the JavaScript family the pattern is
 * parsed in-process (@ast-grep/napi, the CLI's grammars) for its token chains; a pattern whose
 * tree holds an ERROR or a zero-width (MISSING) node gets no prefilter at all. Elsewhere only the
 * pattern's words are used, compared case-insensitively (see prefilter.ts). Never throws: a
 * pattern the CLI cannot use is reported by the CLI.
 */
export function prepareOp(op: CompiledOp, lang: AstLang): void {
  if (op.words.has(lang)) return;
  if (!isJavaScriptFamily(lang)) {
    op.words.set(lang, OTHER_COMMENT_OPENERS.test(op.pat) ? [] : requiredWords(op.pat, false));
    op.chains.set(lang, []);
    return;
  }
  let root: SgNode | undefined;
  try {
    root = parse(napiLang(lang)!, op.pat).root();
    if (!isCleanTree(root)) root = undefined;
  } catch {
    root = undefined;
  }
  op.words.set(lang, root ? requiredWords(op.pat, true) : []);
  op.chains.set(lang, root ? tokenChains(root) : []);
}

function isCleanTree(node: SgNode): boolean {
  if (node.kind() === "ERROR") return false;
  const range = node.range();
  if (range.start.index === range.end.index && node.text() === "" && node.isLeaf()) return false;
  return node.children().every(isCleanTree);
}

/** Could `text` hold a match of the (prepared) op? False means it certainly cannot. */
export function mayMatchOp(op: CompiledOp, lang: AstLang, text: string): boolean {
  const chains = op.chains.get(lang) ?? [];
  for (const chain of chains) if (!holdsChain(text, chain)) return false;
  if (!mayMatch(text, op.words.get(lang) ?? [], lang === "TypeScript", isJavaScriptFamily(lang))) return false;
  if (lang !== "TypeScript" || chains.length === 0) return true;
  // Every chain is there, but maybe only in comments (a doc comment's example, as in effect's
  // Effect.ts: 934 kB parsed for `console.log` in its examples). Lexing is dearer than the chains,
  // so it runs only now; TypeScript only, like the words' comment check (prefilter.ts).
  const comments = typeScriptCommentRanges(text);
  if (comments === undefined || comments.length === 0) return true;
  return chains.every((chain) => holdsChain(text, chain, comments));
}

/**
 * Strings the bytes of a file of `lang` hold when the (prepared) op may match in it: each word
 * and each token chain's first token. In the JavaScript family words are case-sensitive, and a
 * string occurs in the decoded text exactly when its UTF-8 bytes occur in the file (UTF-8
 * resynchronises after invalid bytes), so a file lacking one cannot pass mayMatchOp. Other
 * languages compare words case-insensitively: none (undefined).
 */
function opNeedles(op: CompiledOp, lang: AstLang): string[] | undefined {
  if (!isJavaScriptFamily(lang)) return undefined;
  return [...op.words.get(lang)!, ...op.chains.get(lang)!.map((chain) => chain[0]!)];
}

/** Whether `bytes` hold every one of `needles` (undefined: no needles, so yes). */
export function holdsNeedles(bytes: Uint8Array, needles: readonly string[] | undefined): boolean {
  if (needles === undefined) return true;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return needles.every((needle) => buffer.includes(needle));
}

/** A file as the jobs see it. */
export interface FileText {
  path: string;
  /** The language the CLI reads it as. */
  lang: AstLang;
  /** Set when `lang` is forced on a file whose extension says otherwise. */
  forced?: boolean;
  text: string;
}

/** One run of the CLI over the files, and which files it may change. */
export interface Job {
  /** The CLI's arguments before the file names (without --json). */
  args: readonly string[];
  /** Identifies the job for the result cache: equal keys mean equal outputs on equal inputs. */
  key: string;
  /** False when the job certainly changes nothing in this file (a prefilter). */
  mayChange(file: FileText): boolean;
  /** True when mayChange does not look at the text of files of `lang` (no prefilter for them). */
  textFree(lang: AstLang): boolean;
  /**
   * Strings the bytes of every file of `lang` that mayChange lets through hold (holdsNeedles: a
   * cheaper, weaker prefilter, checked before a file is decoded, or by the workspace without
   * reading each file here); undefined when there are none.
   */
  needles(lang: AstLang): readonly string[] | undefined;
  /** Whether a match (UTF-8 byte offsets in `file.text`) is applied; all are when absent. Part of `key`. */
  keepMatch?(file: FileText, offsets: { start: number; end: number }): boolean;
}

/**
 * `job` keeping only the matches in `path` that overlap `lines` (1-based, inclusive; a line
 * comment's lines), and no match elsewhere. The lines are those of the text each job reads: with
 * several ops, an earlier op that adds or removes lines above them shifts what a later one sees.
 */
export function withinLines(job: Job, path: string, lines: { start: number; end: number }): Job {
  return {
    ...job,
    key: `${job.key}\0lines:${path}:${lines.start}-${lines.end}`,
    mayChange: (file) => file.path === path && job.mayChange(file),
    keepMatch(file, { start, end }) {
      if (file.path !== path) return false;
      const bytes = Buffer.from(file.text, "utf8");
      const first = lineAt(bytes, start);
      // A match ending right after a newline ends on the line before it.
      const last = lineAt(bytes, Math.max(start, end - 1));
      return first <= lines.end && last >= lines.start;
    },
  };
}

/** The 1-based line of a UTF-8 byte offset. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at !== -1 && at < offset; at = bytes.indexOf(10, at + 1)) line++;
  return line;
}

/** An ast-edit op as a job: `run -p PAT -r OUT [-l LANG]`. */
export function opJob(op: CompiledOp, lang?: AstLang): Job {
  return {
    args: ["run", "-p", op.pat, "-r", op.out, ...(lang === undefined ? [] : ["-l", lang])],
    key: `run\0${op.pat}\0${op.out}\0${lang ?? ""}`,
    mayChange(file) {
      prepareOp(op, file.lang);
      return mayMatchOp(op, file.lang, file.text);
    },
    textFree(lang) {
      prepareOp(op, lang);
      return op.words.get(lang)!.length === 0 && op.chains.get(lang)!.length === 0;
    },
    needles(lang) {
      prepareOp(op, lang);
      return opNeedles(op, lang);
    },
  };
}

export interface FileRewrite {
  path: string;
  lang: AstLang;
  text: string;
  replacements: number;
  /** Replacements per rule id (rules jobs only). */
  rules: Map<string, number>;
  /** Replacements per job, in the order of the jobs. */
  byJob: number[];
}

interface FileState extends FileText {
  original: string;
  replacements: number;
  rules: Map<string, number>;
  byJob: number[];
}

interface FileResult {
  text: string;
  replacements: number;
  rules: Array<[string, number]>;
}

/** A map that forgets its least recently used entries past a total weight (in string characters). */
class Recent<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key); // most recently used goes last
      this.entries.set(key, entry);
    }
    return entry?.value;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  remember(key: string, value: V, weight: number): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= old.weight;
    }
    if (weight > this.limit) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.weight <= this.limit) break;
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }
}

/**
 * A preview and its replay on resolve run the same jobs on the same files, so each file's result
 * is kept: the replay then costs little more than reading the files. An entry is found by job,
 * language and path, and used only when the text it was computed from equals the text at hand,
 * so it is a pure function of (job, language, text) and cannot change any output.
 */
const results = new Recent<{ input: string; result: FileResult }>(16 * 1024 * 1024);

/** Forgets every cached result (for benchmarks that measure a first run). */
export function clearRewriteCaches(): void {
  results.clear();
}

function resultKey(job: Job, file: FileText): string {
  return `${job.key.length}:${job.key}${file.lang}${file.forced ? "!" : ""}\0${file.path}`;
}

/**
 * When the CLI gets files: as soon as it is idle and at least this much has been collected (or
 * reading is over). On a big repository the first run then starts while most files are still
 * being read, and each later run takes everything read during the one before, so runs grow as
 * reading outpaces the CLI and there are few of them (each costs a spawn, and a tail where one of
 * the CLI's threads idles on the last big file). Below this, one run takes every file: a first
 * run started on a few files makes the big files of two runs parse one after the other instead
 * of side by side (effect's Schema.ts and internal/stream.ts, 0.15 s each: bench/README.md). A
 * size, not a file count: the first 100 files of a sorted listing can be megabytes.
 */
const START_CHARS = 4 * 1024 * 1024;
const START_FILES = 1000;
/** How long reading may keep the event loop from noticing a CLI run's end. */
const EVENT_LOOP_TURN_MS = 3;

/**
 * What one run takes at most; past it reading waits for the CLI, which bounds the copies in the
 * scratch directory. (Files forced into another language are named on the command line, so the
 * count also keeps argument lists well under the system's limit.)
 */
const BATCH_FILES = 3000;
const BATCH_CHARS = 16 * 1024 * 1024;
/**
 * CLI runs at once. Each run is multithreaded already; on the bench corpus (2 cores) two runs at
 * once were slower than one (bench/README.md).
 */
const RUNS_IN_FLIGHT = 1;

/** A batch being filled: each file is written to its scratch directory when it is added. */
interface OpenBatch {
  dir: Batch;
  /** By the name the CLI reports the file under. */
  files: Map<string, { file: FileState; matches: CliMatch[] }>;
  chars: number;
}

/**
 * Runs one job over files as they come, a batch at a time. Files are copied for the CLI as they
 * are added, so the copying of one batch overlaps the CLI's run on the previous one, and each
 * batch's copies are removed in the background while the next run works.
 */
class JobRun {
  private open: OpenBatch | undefined;
  /** Set when no more files come: whatever is collected goes to the CLI. */
  private ending = false;
  private readonly running = new Set<Promise<void>>();
  private failure: Error | undefined;

  constructor(
    private readonly job: Job,
    /** The job's position among the jobs (FileRewrite.byJob). */
    private readonly index: number,
    private readonly scratch: Scratch,
    private readonly config: string,
    private readonly deadline: number,
    private readonly limits: CliLimits,
  ) {}

  /** Queues `file` for the job; false when the job certainly leaves it alone. */
  async add(file: FileState): Promise<boolean> {
    if (!this.job.mayChange(file)) return false;
    const known = results.get(resultKey(this.job, file));
    if (known !== undefined && known.input === file.text) {
      applyResult(file, known.result, this.index);
      return true;
    }
    this.throwIfFailed();
    const open = (this.open ??= { dir: this.scratch.batch(), files: new Map(), chars: 0 });
    open.files.set(open.dir.put(file.path, file.text, file.forced ? file.lang : undefined), { file, matches: [] });
    open.chars += file.text.length;
    this.startIfIdle();
    // A full batch while the CLI is busy: reading waits (the run's end starts this batch).
    while (this.open === open && (open.files.size >= BATCH_FILES || open.chars >= BATCH_CHARS) && this.running.size > 0) {
      await Promise.race(this.running);
    }
    this.throwIfFailed();
    return true;
  }

  async finish(): Promise<void> {
    this.ending = true;
    this.startIfIdle();
    while (this.running.size > 0) await Promise.race(this.running);
    this.throwIfFailed();
  }

  /** A property read, so the check after an await is not narrowed away by the one before it. */
  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Hands the open batch to the CLI if a run may start and the batch is worth one (see START_CHARS). */
  private startIfIdle(): void {
    const batch = this.open;
    if (batch === undefined || this.running.size >= RUNS_IN_FLIGHT || this.failure !== undefined) return;
    if (!this.ending && batch.chars < START_CHARS && batch.files.size < START_FILES) return;
    this.open = undefined;
    const run: Promise<void> = this.runBatch(batch)
      .catch((error: unknown) => {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        this.running.delete(run);
        // settled before anyone awaiting `run` resumes: finish() then sees the next run
        this.startIfIdle();
      });
    this.running.add(run);
  }

  private async runBatch({ dir, files }: OpenBatch): Promise<void> {
    try {
      // The CLI walks the batch's directory, which holds exactly these files: nothing of it may be skipped.
      const args = [...this.job.args, "-c", this.config, ...NO_IGNORE, "--", ".", ...dir.forcedFiles];
      await runAstGrep(
        args,
        dir.dir,
        this.limits,
        (match) => {
          const entry = files.get(match.file);
          if (entry === undefined) throw new Error(`ast-grep reported a file it was not given: ${match.file}`);
          // only what splicing needs: the match's text, lines and captures would be kept until the batch ends
          const { file, replacement, replacementOffsets, ruleId } = match;
          if (replacementOffsets !== undefined && replacement !== undefined)
            entry.matches.push({ file, replacement, replacementOffsets, ruleId });
        },
        this.deadline,
      );
    } finally {
      dir.remove();
    }
    const keep = this.job.keepMatch?.bind(this.job);
    for (const { file, matches } of files.values()) {
      const input = file.text;
      const result = splice(input, keep ? matches.filter((match) => keep(file, match.replacementOffsets!)) : matches);
      results.remember(resultKey(this.job, file), { input, result }, input.length + (result.text === input ? 0 : result.text.length));
      applyResult(file, result, this.index);
    }
  }
}

/**
 * The CLI's replacements applied to `text` as its `-U` applies them: ordered by start (stable,
 * so the outer of two matches starting together, reported first, wins), each one starting
 * before the end of the previous one dropped. Offsets are UTF-8 byte offsets.
 */
export function splice(text: string, matches: readonly CliMatch[]): FileResult {
  if (matches.length === 0) return { text, replacements: 0, rules: [] };
  const bytes = Buffer.from(text, "utf8");
  const ordered = [...matches].sort((a, b) => a.replacementOffsets!.start - b.replacementOffsets!.start);
  const parts: Buffer[] = [];
  const rules = new Map<string, number>();
  let cursor = 0;
  let replacements = 0;
  for (const match of ordered) {
    const { start, end } = match.replacementOffsets!;
    if (start < cursor) continue;
    parts.push(bytes.subarray(cursor, start), Buffer.from(match.replacement!, "utf8"));
    cursor = end;
    replacements++;
    if (match.ruleId !== undefined) rules.set(match.ruleId, (rules.get(match.ruleId) ?? 0) + 1);
  }
  parts.push(bytes.subarray(cursor));
  return { text: Buffer.concat(parts).toString("utf8"), replacements, rules: [...rules] };
}

function applyResult(file: FileState, result: FileResult, job: number): void {
  file.text = result.text;
  file.replacements += result.replacements;
  file.byJob[job] = (file.byJob[job] ?? 0) + result.replacements;
  for (const [rule, count] of result.rules) file.rules.set(rule, (file.rules.get(rule) ?? 0) + count);
}

export interface RewriteOptions {
  limits?: CliLimits;
  /**
   * An ast-grep project to run the jobs with (`-c`): its files (sgconfig.yml, rule and util
   * files) by path, and the config's path among them. Without it the CLI gets an empty config.
   */
  project?: { files: ReadonlyMap<string, string>; config: string };
  /** When every CLI run must be over (Date.now() units); default: the limits' timeout from now. */
  deadline?: number;
}

/** The `-c` config for the CLI runs: the project's, written into the scratch directory, or an empty one. */
export function projectConfig(scratch: Scratch, project: RewriteOptions["project"]): string {
  if (project === undefined) return scratch.config;
  for (const [file, text] of project.files) scratch.writeOwn(file, text);
  return scratch.ownPath(project.config);
}

/**
 * Runs the jobs in sequence over every file (job 2 sees job 1's output). The first job runs
 * while `files` are still coming; the others once all are in. Returns the files some job may
 * have changed, in the order of `files`; a file no job's prefilter lets through is let go of at
 * once (none of them changes it: each sees the text its prefilter was run on). The CLI's limits
 * hold for the whole call: one deadline for all runs.
 */
export async function rewriteFiles(
  jobs: readonly Job[],
  files: AsyncIterable<FileText> | Iterable<FileText>,
  options: RewriteOptions = {},
): Promise<FileRewrite[]> {
  const limits = options.limits ?? DEFAULT_CLI_LIMITS;
  const deadline = options.deadline ?? Date.now() + limits.timeoutMs;
  const scratch = new Scratch();
  try {
    const config = projectConfig(scratch, options.project);
    const runs = jobs.map((job, index) => new JobRun(job, index, scratch, config, deadline, limits));
    const [first, ...rest] = runs;
    const [, ...laterJobs] = jobs;
    const state: FileState[] = [];
    let turn = performance.now();
    for await (const file of files) {
      // Reading a workspace may be synchronous (DirectoryWorkspace, MemoryWorkspace): without a
      // turn of the event loop now and then, the end of a CLI run is noticed only once reading is
      // over, and the next run cannot start while the rest is read.
      if (performance.now() - turn > EVENT_LOOP_TURN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
      const entry: FileState = { ...file, original: file.text, replacements: 0, rules: new Map(), byJob: jobs.map(() => 0) };
      if ((first !== undefined && (await first.add(entry))) || laterJobs.some((job) => job.mayChange(entry))) state.push(entry);
    }
    await first?.finish();
    for (const run of rest) {
      for (const file of state) await run.add(file);
      await run.finish();
    }
    return state.map(({ path, lang, text, replacements, rules, byJob }) => ({ path, lang, text, replacements, rules, byJob }));
  } finally {
    scratch.dispose();
  }
}
