/**
 * The path-valued entries of tsconfig files (`extends`, `references`, `files`, `include`,
 * `exclude`, `rootDir`, `rootDirs`, `baseUrl`, `typeRoots`, `paths` targets): found with their
 * positions, rewritten for a move, and checked before and after it.
 *
 * Why hand-written: the language service's getEditsForFileRename rewrites only the loaded project's
 * own config, never `extends` or `references`, and computes paths from the config's old directory
 * (wrong when the config moves too). The JSON is read with TypeScript's own tolerant parser
 * (comments, trailing commas) and edited by position, so formatting and comments stay.
 */
import path from "node:path";
import { ts } from "ts-morph";
import { plural } from "../core/text.js";
import { ROOT, toAbs, type VirtualFs } from "./ts-project.js";

export type EntryKind =
  "extends" | "references" | "files" | "include" | "exclude" | "rootDir" | "rootDirs" | "baseUrl" | "typeRoots" | "paths";

export interface ConfigEntry {
  kind: EntryKind;
  /** The string as written. */
  value: string;
  /** Span of the text inside the quotes. */
  start: number;
  end: number;
  /** 1-based line. */
  line: number;
  /** Workspace-relative directory the value is relative to ("" for the root). */
  base: string;
}

/** tsconfig.json, tsconfig.build.json, jsconfig.json … (outside node_modules). */
export function isConfigName(file: string): boolean {
  return /(?:^|\/)[tj]sconfig[^/]*\.json$/.test(file) && !/(?:^|\/)node_modules\//.test(file);
}

const DIRECTORY_OPTIONS = new Set<EntryKind>(["rootDir", "rootDirs", "baseUrl", "typeRoots"]);

function dirOf(file: string): string {
  const dir = path.posix.dirname(file);
  return dir === "." ? "" : dir;
}

/** `dir` joined with a relative value, normalised, workspace-relative; undefined when it leaves the workspace. */
export function joinRel(dir: string, value: string): string | undefined {
  const joined = path.posix.normalize(path.posix.join("/", dir, value));
  return joined === "/" ? "" : joined.slice(1).replace(/\/+$/, "");
}

function isRelativeValue(value: string): boolean {
  return value === "." || value === ".." || value.startsWith("./") || value.startsWith("../");
}

/** Every path-valued entry of a config, in source order. */
export function configEntries(configPath: string, text: string): ConfigEntry[] {
  const source = ts.parseJsonText(toAbs(configPath), text);
  const root = source.statements[0]?.expression;
  if (!root || !ts.isObjectLiteralExpression(root)) return [];
  const configDir = dirOf(configPath);
  const out: ConfigEntry[] = [];
  const add = (kind: EntryKind, node: ts.Node | undefined, base = configDir) => {
    if (!node || !ts.isStringLiteral(node)) return;
    const start = node.getStart(source) + 1;
    // Escaped strings cannot be edited by position; they are rare enough in configs to leave alone.
    if (text.slice(start, start + node.text.length) !== node.text) return;
    out.push({
      kind,
      value: node.text,
      start,
      end: start + node.text.length,
      line: source.getLineAndCharacterOfPosition(start).line + 1,
      base,
    });
  };
  const addAll = (kind: EntryKind, node: ts.Node | undefined, base = configDir) => {
    if (node && ts.isArrayLiteralExpression(node)) for (const element of node.elements) add(kind, element, base);
    else add(kind, node, base);
  };
  for (const [name, value] of properties(root)) {
    if (name === "extends") addAll("extends", value);
    else if (name === "files" || name === "include" || name === "exclude") addAll(name, value);
    else if (name === "references" && ts.isArrayLiteralExpression(value)) {
      for (const element of value.elements) if (ts.isObjectLiteralExpression(element)) add("references", properties(element).get("path"));
    } else if (name === "compilerOptions" && ts.isObjectLiteralExpression(value)) {
      const options = properties(value);
      const baseUrl = options.get("baseUrl");
      // `paths` targets are relative to baseUrl when there is one, else to the config's directory.
      const pathsBase = baseUrl && ts.isStringLiteral(baseUrl) ? (joinRel(configDir, baseUrl.text) ?? configDir) : configDir;
      for (const [option, optionValue] of options) {
        if (DIRECTORY_OPTIONS.has(option as EntryKind)) addAll(option as EntryKind, optionValue);
        else if (option === "paths" && ts.isObjectLiteralExpression(optionValue)) {
          for (const [, targets] of properties(optionValue)) addAll("paths", targets, pathsBase);
        }
      }
    }
  }
  return out;
}

function properties(object: ts.ObjectLiteralExpression): Map<string, ts.Expression> {
  const map = new Map<string, ts.Expression>();
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && (ts.isStringLiteral(property.name) || ts.isIdentifier(property.name))) {
      map.set(property.name.text, property.initializer);
    }
  }
  return map;
}

/** The path part of a value before its first glob segment, and the rest. */
function splitGlob(value: string): { prefix: string; rest: string } {
  const segments = value.split("/");
  const index = segments.findIndex((segment) => /[*?]/.test(segment));
  if (index === -1) return { prefix: value, rest: "" };
  return { prefix: segments.slice(0, index).join("/"), rest: segments.slice(index).join("/") };
}

/** `value` rewritten so that, from `newBase`, it names what it named from `oldBase` (moved along by `mapPath`). */
export function rewriteValue(value: string, oldBase: string, newBase: string, mapPath: (rel: string) => string): string | undefined {
  if (path.posix.isAbsolute(value)) return undefined;
  const { prefix, rest } = splitGlob(value);
  const oldTarget = joinRel(oldBase, prefix === "" ? "." : prefix);
  if (oldTarget === undefined) return undefined;
  const newTarget = mapPath(oldTarget);
  if (newTarget === oldTarget && newBase === oldBase) return undefined;
  let relative = path.posix.relative(`/${newBase}`, `/${newTarget}`);
  if (relative === "") relative = ".";
  else if (value.startsWith("./") && !relative.startsWith("../")) relative = `./${relative}`;
  if (prefix === "" && !value.startsWith(".")) relative = relative === "." ? "" : relative;
  const rewritten = rest === "" ? relative : relative === "" ? rest : `${relative}/${rest}`;
  return rewritten === value ? undefined : rewritten;
}

/**
 * The config text after a move: entries of the given kinds that named a moved file or directory
 * (or every relative entry, when the config itself moves) point at the new place.
 */
export function rewriteConfig(
  oldConfig: string,
  newConfig: string,
  text: string,
  kinds: ReadonlySet<EntryKind>,
  mapPath: (rel: string) => string,
): { text: string; changes: number } {
  const edits: ts.TextChange[] = [];
  for (const entry of configEntries(oldConfig, text)) {
    if (!kinds.has(entry.kind)) continue;
    // `extends` may name a package; only paths are ours to move.
    if (entry.kind === "extends" && !isRelativeValue(entry.value)) continue;
    const newBase = entry.base === dirOf(oldConfig) ? dirOf(newConfig) : mapPath(entry.base);
    const rewritten = rewriteValue(entry.value, entry.base, newBase, entry.kind === "extends" ? mapExtends(mapPath) : mapPath);
    if (rewritten !== undefined) edits.push({ span: { start: entry.start, length: entry.end - entry.start }, newText: rewritten });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.span.start - a.span.start)) {
    out = out.slice(0, edit.span.start) + edit.newText + out.slice(edit.span.start + edit.span.length);
  }
  return { text: out, changes: edits.length };
}

/** `extends` may leave out ".json": "./base" names base.json, and keeps leaving it out. */
function mapExtends(mapPath: (rel: string) => string): (rel: string) => string {
  return (rel) => {
    const mapped = mapPath(rel);
    if (mapped !== rel || rel.endsWith(".json")) return mapped;
    const withJson = mapPath(`${rel}.json`);
    return withJson !== `${rel}.json` && withJson.endsWith(".json") ? withJson.slice(0, -".json".length) : rel;
  };
}

export const ALL_KINDS: ReadonlySet<EntryKind> = new Set<EntryKind>([
  "extends",
  "references",
  "files",
  "include",
  "exclude",
  "rootDir",
  "rootDirs",
  "baseUrl",
  "typeRoots",
  "paths",
]);
/** What getEditsForFileRename leaves out of the project's own config. */
export const SERVICE_MISSES: ReadonlySet<EntryKind> = new Set<EntryKind>(["extends", "references"]);

const MODULE_EXTENSIONS = ["", ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"];

/** Whether an entry names something that exists in `fs` (`include`: matches at least one file). */
export function entryResolves(entry: ConfigEntry, base: string, fs: VirtualFs): boolean {
  const fileExists = (rel: string | undefined) => rel !== undefined && fs.fileExists(toAbs(rel));
  const dirExists = (rel: string | undefined) => rel !== undefined && fs.directoryExists(rel === "" ? ROOT : toAbs(rel));
  const target = joinRel(base, entry.value);
  switch (entry.kind) {
    case "extends":
      if (!isRelativeValue(entry.value)) return true;
      return fileExists(target) || fileExists(target === undefined ? undefined : `${target}.json`);
    case "references":
      return entry.value.endsWith(".json")
        ? fileExists(target)
        : fileExists(target === undefined ? undefined : joinRel(target, "tsconfig.json"));
    case "files":
      return fileExists(target);
    case "include":
    case "exclude":
      // Patterns are compared by what they match (entryMatches), not resolved like paths.
      return true;
    case "paths": {
      const star = entry.value.indexOf("*");
      if (star !== -1) return dirExists(joinRel(base, path.posix.dirname(`${entry.value.slice(0, star)}x`)));
      return MODULE_EXTENSIONS.some((ext) => fileExists(target === undefined ? undefined : `${target}${ext}`)) || dirExists(target);
    }
    default:
      return dirExists(target);
  }
}

export interface BrokenEntry {
  config: string;
  line: number;
  kind: EntryKind;
  value: string;
  /** Why, for the person who typed the command: "would not resolve", "matched 2 files before …". */
  reason: string;
}

export interface ConfigState {
  config: string;
  text: string;
  fs: VirtualFs;
}

const PATTERN_KINDS = new Set<EntryKind>(["include", "exclude"]);

/**
 * The entries of a config after a move, each compared with the same entry before it. A path entry
 * that resolved before must still resolve. An `include`/`exclude` pattern that matched files before
 * must still match some, unless every file it matched is still matched, at its new path, by another
 * entry of its kind (for a file moved out of an included directory TypeScript appends an include and
 * leaves the old pattern as it is). Entries that were already broken are not the move's doing.
 */
export function brokenEntries(before: ConfigState, after: ConfigState, newPathOf: (rel: string) => string): BrokenEntry[] {
  const oldEntries = configEntries(before.config, before.text);
  const newEntries = configEntries(after.config, after.text);
  const out: BrokenEntry[] = [];
  let options: { before: ts.CompilerOptions; after: ts.CompilerOptions } | undefined;
  const matchesAfter = new Map<ConfigEntry, string[]>();
  const matchedAfter = (entry: ConfigEntry) => {
    options ??= {
      before: parseConfig(before.config, before.text, before.fs).options,
      after: parseConfig(after.config, after.text, after.fs).options,
    };
    let found = matchesAfter.get(entry);
    if (!found) matchesAfter.set(entry, (found = entryMatches(after.config, entry, options.after, after.fs)));
    return found;
  };
  // Rewriting edits strings, never adds or drops them, so the n-th entry of a kind is the same entry;
  // an include TypeScript appended comes last among the includes and only has to match.
  const nth = new Map<EntryKind, number>();
  for (const entry of newEntries) {
    const index = nth.get(entry.kind) ?? 0;
    nth.set(entry.kind, index + 1);
    const old = oldEntries.filter((candidate) => candidate.kind === entry.kind)[index];
    const broken = (reason: string) => out.push({ config: after.config, line: entry.line, kind: entry.kind, value: entry.value, reason });
    if (!PATTERN_KINDS.has(entry.kind)) {
      const resolvedBefore = old === undefined || entryResolves(old, old.base, before.fs);
      if (resolvedBefore && !entryResolves(entry, entry.base, after.fs)) broken("would not resolve");
      continue;
    }
    if (matchedAfter(entry).length > 0) continue;
    if (old === undefined) {
      broken("would match no file");
      continue;
    }
    const matchedBefore = entryMatches(before.config, old, options!.before, before.fs);
    if (matchedBefore.length === 0) continue;
    const others = new Set(newEntries.filter((other) => other.kind === entry.kind && other !== entry).flatMap(matchedAfter));
    if (matchedBefore.every((file) => others.has(newPathOf(file)))) continue;
    broken(`matched ${plural(matchedBefore.length, "file")} before and would match none after`);
  }
  return out;
}

/**
 * Workspace-relative files an `include` or `exclude` pattern matches on its own (TypeScript's own
 * matching: a directory means everything below it, with the extensions the config's options allow).
 */
export function entryMatches(config: string, entry: ConfigEntry, options: ts.CompilerOptions, fs: VirtualFs): string[] {
  const parsed = ts.parseJsonConfigFileContent(
    { include: [entry.value], exclude: [] },
    parseHost(fs),
    path.posix.dirname(toAbs(config)),
    options,
  );
  return parsed.fileNames.map((name) => name.slice(ROOT.length + 1)).sort();
}

/** Workspace-relative files a config puts in its program (`files` and `include` minus `exclude`). */
export function configFileNames(config: string, text: string, fs: VirtualFs): string[] {
  return parseConfig(config, text, fs)
    .fileNames.map((name) => name.slice(ROOT.length + 1))
    .sort();
}

function parseConfig(config: string, text: string, fs: VirtualFs): ts.ParsedCommandLine {
  const source = ts.parseJsonText(toAbs(config), text);
  return ts.parseJsonSourceFileConfigFileContent(source, parseHost(fs), path.posix.dirname(toAbs(config)), undefined, toAbs(config));
}

function parseHost(fs: VirtualFs): ts.ParseConfigHost {
  return { useCaseSensitiveFileNames: true, readDirectory: fs.readDirectory, fileExists: fs.fileExists, readFile: fs.readFile };
}
