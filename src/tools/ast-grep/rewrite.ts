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

export interface CompiledOp {
  pat: string;
  out: string;
  template: Template;
  /** Per language: words a file must contain to be worth parsing (empty: parse every file). */
  words: Map<AstLang, string[]>;
}

export function compileOp(pat: string, out: string): CompiledOp {
  return { pat, out, template: parseTemplate(out), words: new Map() };
}

/**
 * Checks the pattern compiles for `lang` (napi throws, e.g. "Multiple AST nodes are detected")
 * and works out its prefilter words. A pattern that does not parse cleanly gets no prefilter.
 */
export function prepareOp(op: CompiledOp, lang: AstLang): void {
  if (op.words.has(lang)) return;
  parse(lang, "").root().findAll(op.pat); // throws on an unusable pattern
  let clean = false;
  try {
    clean = parse(lang, op.pat).root().find({ rule: { kind: "ERROR" } }) === null;
  } catch {
    clean = false;
  }
  op.words.set(lang, clean ? requiredWords(op.pat) : []);
}

/** Could `text` hold a match of the (prepared) op? False means it certainly cannot. */
export function mayMatchOp(op: CompiledOp, lang: AstLang, text: string): boolean {
  return mayMatch(text, op.words.get(lang) ?? [], lang === Lang.TypeScript);
}

export interface RewriteResult {
  text: string;
  replacements: number;
}

/** Applies one op to the parsed `text`. */
export function rewriteRoot(op: CompiledOp, root: SgRoot, text: string): RewriteResult {
  const matches = root.root().findAll(op.pat);
  if (matches.length === 0) return { text, replacements: 0 };
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
  return rewriteRoot(op, parseCached(lang, text), text);
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

/** A map that forgets its least recently used entries past a total key length. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(private readonly limitChars: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key); // most recently used goes last
      this.entries.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  remember(key: string, value: V): V {
    if (!this.entries.has(key)) this.chars += key.length;
    this.entries.set(key, value);
    for (const [old] of this.entries) {
      if (this.chars <= this.limitChars) break;
      this.entries.delete(old);
      this.chars -= old.length;
    }
    return value;
  }
}

/**
 * A preview and its replay on resolve run the same ops on the same texts, so recent parse trees
 * and rewrite results are kept: the replay then costs little more than reading the files.
 * Both are pure functions of their keys (op, language, text), so this cannot change any output.
 */
const trees = new Recent<SgRoot>(16 * 1024 * 1024);
const results = new Recent<RewriteResult>(16 * 1024 * 1024);

/** Forgets every cached tree and result (for benchmarks that measure a first run). */
export function clearRewriteCaches(): void {
  trees.clear();
  results.clear();
}

export function parseCached(lang: AstLang, text: string): SgRoot {
  const key = `${lang}\0${text}`;
  return trees.get(key) ?? trees.remember(key, parse(lang, text));
}

/** Parses on libuv's thread pool, so several files parse at once. */
export async function parseCachedAsync(lang: AstLang, text: string): Promise<SgRoot> {
  const key = `${lang}\0${text}`;
  return trees.get(key) ?? trees.remember(key, await parseAsync(lang, text));
}

export interface FileText {
  path: string;
  lang: AstLang;
  text: string;
}

export interface FileRewrite {
  path: string;
  text: string;
  replacements: number;
}

/**
 * Runs the ops in sequence over every file (op 2 sees op 1's output), parsing the files that pass
 * the prefilter concurrently. Results keep the order of `files`.
 */
export async function rewriteFiles(ops: readonly CompiledOp[], files: readonly FileText[]): Promise<FileRewrite[]> {
  const state = files.map((file) => ({ path: file.path, lang: file.lang, text: file.text, replacements: 0 }));
  for (const op of ops) {
    for (const file of state) prepareOp(op, file.lang);
    const pending: Array<{ file: (typeof state)[number]; key: string }> = [];
    for (const file of state) {
      const key = `${op.pat.length}:${op.pat}${op.out.length}:${op.out}${file.lang}\0${file.text}`;
      const known = results.get(key);
      if (known) {
        file.text = known.text;
        file.replacements += known.replacements;
      } else if (mayMatchOp(op, file.lang, file.text)) pending.push({ file, key });
      else results.remember(key, { text: file.text, replacements: 0 });
    }
    const roots = await Promise.all(pending.map(({ file }) => parseCachedAsync(file.lang, file.text)));
    pending.forEach(({ file, key }, index) => {
      const result = rewriteRoot(op, roots[index]!, file.text);
      results.remember(key, result);
      file.text = result.text;
      file.replacements += result.replacements;
    });
  }
  return state.map(({ path, text, replacements }) => ({ path, text, replacements }));
}
