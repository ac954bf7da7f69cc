/**
 * ast-grep rewrites over file texts, byte-identical to `ast-grep run -p PAT -r OUT -U`
 * (CLI 0.51.1): matches come from @ast-grep/napi (the matcher the CLI uses); a match nested in
 * an earlier one is dropped (the CLI does not re-enter a match); each match's whole node range is
 * replaced by the template expanded as in template.ts; text between matches is kept as is.
 * Several ops run in sequence, each on the output of the previous one, as running the CLI once
 * per op would.
 */
import { Lang, parse, parseAsync, type SgNode, type SgRoot } from "@ast-grep/napi";
import type { AstLang } from "./languages.js";
import { expandTemplate, parseTemplate, type Template } from "./template.js";
import { mayMatch, requiredWords } from "./prefilter.js";
import { holdsChain, tokenChains, type TokenChain } from "./token-chains.js";

export interface CompiledOp {
  pat: string;
  out: string;
  template: Template;
  /** Per language: words a file must contain to be worth parsing (empty: parse every file). */
  words: Map<AstLang, string[]>;
  /** Per language: runs of tokens a file must contain, each with only trivia between (token-chains.ts). */
  chains: Map<AstLang, TokenChain[]>;
}

export function compileOp(pat: string, out: string): CompiledOp {
  return { pat, out, template: parseTemplate(out), words: new Map(), chains: new Map() };
}

/**
 * Checks the pattern compiles for `lang` (napi throws, e.g. "Multiple AST nodes are detected")
 * and works out its prefilter words. A pattern that does not parse cleanly gets no prefilter.
 */
export function prepareOp(op: CompiledOp, lang: AstLang): void {
  if (op.words.has(lang)) return;
  parse(lang, "").root().findAll(op.pat); // throws on an unusable pattern
  let tree: SgRoot | undefined;
  try {
    tree = parse(lang, op.pat);
    if (tree.root().find({ rule: { kind: "ERROR" } }) !== null) tree = undefined;
  } catch {
    tree = undefined;
  }
  op.words.set(lang, tree ? requiredWords(op.pat, isCaseSensitive(lang)) : []);
  // Chains for the JavaScript-family grammars (the case-sensitive ones) only: token-chains.ts knows their keywords.
  op.chains.set(lang, tree && isCaseSensitive(lang) ? tokenChains(tree.root()) : []);
}

/** Identifiers and keywords are case-sensitive in these languages (see prefilter.ts). */
function isCaseSensitive(lang: AstLang): boolean {
  return lang === Lang.TypeScript || lang === Lang.Tsx || lang === Lang.JavaScript;
}

/** Could `text` hold a match of the (prepared) op? False means it certainly cannot. */
export function mayMatchOp(op: CompiledOp, lang: AstLang, text: string): boolean {
  for (const chain of op.chains.get(lang) ?? []) if (!holdsChain(text, chain)) return false;
  return mayMatch(text, op.words.get(lang) ?? [], lang === Lang.TypeScript, isCaseSensitive(lang));
}

export interface RewriteResult {
  text: string;
  replacements: number;
  /**
   * The pattern matched, but the parse tree holds ERROR nodes: the text is returned unchanged.
   * napi parses UTF-16 text and recovers from syntax errors differently from the CLI (UTF-8), so
   * matches in such a file may differ from the CLI's; resolve-bot does not edit code its parser
   * cannot read.
   */
  unparsable?: true;
}

/** True when the tree holds a node tree-sitter could not parse (an ERROR node). */
export function hasSyntaxError(root: SgRoot): boolean {
  return root.root().find({ rule: { kind: "ERROR" } }) !== null;
}

/** Applies one op to the parsed `text`. */
export function rewriteRoot(op: CompiledOp, root: SgRoot, text: string): RewriteResult {
  const matches = root.root().findAll(op.pat);
  if (matches.length === 0) return { text, replacements: 0 };
  // Only files with a match are checked, so the check costs little.
  if (hasSyntaxError(root)) return { text, replacements: 0, unparsable: true };
  let out = "";
  let cursor = 0;
  let replacements = 0;
  let lastStart = -1;
  for (const match of matches) {
    const range = match.range();
    const start = range.start.index;
    // findAll reports nested matches too, in pre-order; the CLI keeps only the outermost.
    if (start < cursor || start === lastStart) continue;
    out += text.slice(cursor, start);
    out += expandTemplate(op.template, text, start, (name, multi) => captureSpan(match, name, multi));
    cursor = range.end.index;
    lastStart = start;
    replacements++;
  }
  return { text: out + text.slice(cursor), replacements };
}

/** Applies one (prepared) op to `text`, synchronously. */
export function rewriteText(op: CompiledOp, lang: AstLang, text: string): RewriteResult {
  if (!mayMatchOp(op, lang, text)) return { text, replacements: 0 };
  return rewriteRoot(op, parse(lang, text), text);
}

function captureSpan(match: SgNode, name: string, multi: boolean): readonly [number, number] | null {
  if (multi) {
    const nodes = match.getMultipleMatches(name);
    if (nodes.length === 0) return null;
    return [nodes[0]!.range().start.index, nodes[nodes.length - 1]!.range().end.index];
  }
  const node = match.getMatch(name);
  if (!node) return null;
  const range = node.range();
  return [range.start.index, range.end.index];
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
 * A preview and its replay on resolve run the same ops on the same files, so the results of the
 * files that were parsed are kept (files the prefilter rejects are cheap to reject again): the
 * replay then costs little more than reading the files. An entry is found by op, language, path
 * and length, and used only when the text it was computed from equals the text at hand, so it is
 * a pure function of (op, language, text) and cannot change any output. No parse tree is kept: a
 * long-running server must not hold native trees (memory V8 does not see) from one command to the
 * next.
 */
interface CachedResult {
  input: string;
  result: RewriteResult;
}

const results = new Recent<CachedResult>(16 * 1024 * 1024);

/** Forgets every cached result (for benchmarks that measure a first run). */
export function clearRewriteCaches(): void {
  results.clear();
}

function resultKey(op: CompiledOp, file: FileText): string {
  return `${op.pat.length}:${op.pat}${op.out.length}:${op.out}${file.lang}\0${file.text.length}:${file.path}`;
}

function cachedResult(key: string, text: string): RewriteResult | undefined {
  const entry = results.get(key);
  return entry !== undefined && entry.input === text ? entry.result : undefined;
}

function rememberResult(key: string, text: string, result: RewriteResult): void {
  // An unchanged text is the same string as the input: it costs nothing more to keep.
  results.remember(key, { input: text, result }, text.length + (result.text === text ? 0 : result.text.length));
}

/**
 * How many files are parsed at once. Parse trees live in native memory that V8 does not see, and
 * are freed only when V8 collects their (small) wrappers; a bounded number of parses in flight,
 * and letting go of each tree as soon as its file is rewritten, bounds how many exist at a time.
 */
const PARSES_IN_FLIGHT = 32;

export interface FileText {
  path: string;
  lang: AstLang;
  text: string;
}

export interface FileRewrite {
  path: string;
  text: string;
  replacements: number;
  /** Left alone (text unchanged, replacements 0): some op matched in a tree with ERROR nodes. */
  unparsable: boolean;
}

interface FileState {
  path: string;
  lang: AstLang;
  original: string;
  text: string;
  replacements: number;
  unparsable: boolean;
}

/**
 * Runs one op over files as they come: a file that may match is parsed with parseAsync (on
 * libuv's threads) while the caller goes on producing files, e.g. reading them from disk, and is
 * rewritten when its tree is ready.
 */
class OpRun {
  private readonly inFlight: Array<{ file: FileState; key: string; tree: Promise<SgRoot> }> = [];

  constructor(
    private readonly op: CompiledOp,
    private readonly prepare: (op: CompiledOp, lang: AstLang) => void,
  ) {}

  /** Runs the op on `file` (now or once parsed); false when the prefilter rules a match out. */
  async add(file: FileState): Promise<boolean> {
    if (file.unparsable || !this.mayMatch(file)) return false;
    const key = resultKey(this.op, file);
    const known = cachedResult(key, file.text);
    if (known) {
      apply(file, known);
      return true;
    }
    const tree = parseAsync(file.lang, file.text);
    tree.catch(() => undefined); // awaited in order below; this only keeps a failure from going unhandled meanwhile
    this.inFlight.push({ file, key, tree });
    if (this.inFlight.length >= PARSES_IN_FLIGHT) await this.finishOldest();
    return true;
  }

  mayMatch(file: FileState): boolean {
    this.prepare(this.op, file.lang);
    return mayMatchOp(this.op, file.lang, file.text);
  }

  async finish(): Promise<void> {
    while (this.inFlight.length > 0) await this.finishOldest();
  }

  private async finishOldest(): Promise<void> {
    const { file, key, tree } = this.inFlight.shift()!;
    const result = rewriteRoot(this.op, await tree, file.text);
    rememberResult(key, file.text, result);
    apply(file, result);
  }
}

/**
 * Runs the ops in sequence over every file (op 2 sees op 1's output). The first op runs while
 * `files` are still coming (see OpRun); the others once all are in. `prepare` checks each op for
 * each language before its first use (prepareOp by default; it may throw). Returns the files
 * some op may have changed, in the order of `files`: a file every op's prefilter rules out is
 * let go of at once (no op changes it: each sees the text the prefilters were run on), which on
 * large repositories keeps the garbage collector from copying texts nothing needs.
 */
export async function rewriteFiles(
  ops: readonly CompiledOp[],
  files: AsyncIterable<FileText> | Iterable<FileText>,
  prepare: (op: CompiledOp, lang: AstLang) => void = prepareOp,
): Promise<FileRewrite[]> {
  const runs = ops.map((op) => new OpRun(op, prepare));
  const [first, ...rest] = runs;
  const state: FileState[] = [];
  for await (const file of files) {
    const entry = { path: file.path, lang: file.lang, original: file.text, text: file.text, replacements: 0, unparsable: false };
    if ((first !== undefined && (await first.add(entry))) || rest.some((run) => run.mayMatch(entry))) state.push(entry);
  }
  await first?.finish();
  for (const run of rest) {
    for (const file of state) await run.add(file);
    await run.finish();
  }
  // A file left alone is left alone whole: no op's edits are kept.
  return state.map(({ path, original, text, replacements, unparsable }) =>
    unparsable ? { path, text: original, replacements: 0, unparsable } : { path, text, replacements, unparsable },
  );
}

function apply(file: FileState, result: RewriteResult): void {
  if (result.unparsable) file.unparsable = true;
  file.text = result.text;
  file.replacements += result.replacements;
}
