/**
 * One in-memory TypeScript language service per command, built from the workspace.
 *
 * A raw `ts.createLanguageService` over a host backed by an in-memory map (not ts-morph's
 * Project: the raw service is what editors use, and it avoids ts-morph's wrapper layer; see the
 * move/rename tools). Nothing here reads the real file system or runs repository code: the only
 * files outside the workspace are the TypeScript lib .d.ts files bundled with ts-morph.
 *
 * The tsconfig is honoured: the nearest `tsconfig.json`/`jsconfig.json` to the targeted files (or
 * the root one), with `extends` followed inside the workspace. With none, default options and every
 * .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs file. Files the config leaves out (tests, say) are still
 * added, so that a move or rename also updates them.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { Project, ts } from "ts-morph";
import type { WorkspaceReader } from "../core/tool.js";

/** Virtual absolute directory the workspace is mounted at. */
export const ROOT = "/__workspace__";
/** Virtual directory of the bundled lib .d.ts files. */
const LIB_DIR = "/__typescript_lib__";

const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts"];
const JS_EXTENSIONS = [".js", ".jsx", ".mjs", ".cjs"];
/** Files read into memory: everything the compiler could ask for. */
const LOADED_EXTENSIONS = [...TS_EXTENSIONS, ...JS_EXTENSIONS, ".json"];

export function toAbs(rel: string): string {
  return `${ROOT}/${rel}`;
}

/** Workspace-relative path of a virtual absolute file name, or undefined outside the workspace. */
export function toRel(fileName: string): string | undefined {
  return fileName.startsWith(`${ROOT}/`) ? fileName.slice(ROOT.length + 1) : undefined;
}

export function hasExtension(file: string, extensions: readonly string[]): boolean {
  return extensions.some((ext) => file.endsWith(ext));
}

/** TypeScript or JavaScript source (what can contain imports). */
export function isCodeFile(file: string): boolean {
  return hasExtension(file, TS_EXTENSIONS) || hasExtension(file, JS_EXTENSIONS);
}

/** Inside a node_modules directory (never edited). */
export function isInNodeModules(file: string): boolean {
  return file.startsWith("node_modules/") || file.includes("/node_modules/");
}

// ---- lib files: read once per process, parsed once per process ----

let libReader: ts.ModuleResolutionHost | undefined;
const libSnapshots = new Map<string, ts.IScriptSnapshot | null>();

function libSnapshot(fileName: string): ts.IScriptSnapshot | undefined {
  let snapshot = libSnapshots.get(fileName);
  if (snapshot === undefined) {
    // ts-morph serves its bundled lib files from an in-memory compiler host.
    libReader ??= new Project({ useInMemoryFileSystem: true }).getModuleResolutionHost();
    const text = libReader.readFile(`/node_modules/typescript/lib/${fileName.slice(LIB_DIR.length + 1)}`);
    snapshot = text === undefined ? null : ts.ScriptSnapshot.fromString(text);
    libSnapshots.set(fileName, snapshot);
  }
  return snapshot ?? undefined;
}

/**
 * One registry for the process. Workspace files are versioned by content hash, so equal keys mean
 * equal text even across workspaces. Lib files are never released: their parse is reused.
 */
const baseRegistry = ts.createDocumentRegistry(true, "/");
const registry: ts.DocumentRegistry = {
  ...baseRegistry,
  releaseDocumentWithKey(
    filePath: ts.Path,
    key: ts.DocumentRegistryBucketKey,
    scriptKind?: ts.ScriptKind,
    impliedNodeFormat?: ts.ResolutionMode,
  ) {
    if (filePath.startsWith(`${LIB_DIR}/`)) return;
    baseRegistry.releaseDocumentWithKey(filePath, key, scriptKind as ts.ScriptKind, impliedNodeFormat);
  },
};

// ---- the project ----

export interface TsProject {
  service: ts.LanguageService;
  program: ts.Program;
  options: ts.CompilerOptions;
  /** Workspace-relative path of the tsconfig used, if any. */
  configPath: string | undefined;
  /** Workspace-relative paths of the project's root files, sorted. */
  rootFiles: string[];
  /** Every workspace file, sorted. */
  allFiles: string[];
  /** Texts of the loaded files (code and JSON), by workspace-relative path. */
  texts: ReadonlyMap<string, string>;
  /** The workspace as the compiler sees it (files that could not be read as text are left out). */
  fs: VirtualFs;
  /** The other projects of a multi-project workspace the command concerns (see loadTsProject). */
  others: TsProject[];
  /** Releases the service's documents (the others' too). */
  dispose(): void;
}

export interface LoadOptions {
  /** Workspace-relative files or directories the command is about: picks the nearest tsconfig. */
  targets?: string[];
}

export const FORMAT_SETTINGS: ts.FormatCodeSettings = ts.getDefaultFormatCodeSettings("\n");

/** A file-system view over a set of paths, for module resolution and config parsing. */
export class VirtualFs {
  private readonly dirs = new Map<string, { files: string[]; directories: string[] }>();

  constructor(
    private readonly fileSet: ReadonlySet<string>,
    private readonly read: (rel: string) => string | undefined,
  ) {
    const dirSets = new Map<string, { files: Set<string>; directories: Set<string> }>();
    const entry = (dir: string) => {
      let found = dirSets.get(dir);
      if (!found) dirSets.set(dir, (found = { files: new Set(), directories: new Set() }));
      return found;
    };
    entry("");
    for (const file of fileSet) {
      let dir = path.posix.dirname(file);
      entry(dir === "." ? "" : dir).files.add(path.posix.basename(file));
      while (dir !== ".") {
        const parent = path.posix.dirname(dir);
        entry(parent === "." ? "" : parent).directories.add(path.posix.basename(dir));
        dir = parent;
      }
    }
    for (const [dir, sets] of dirSets) this.dirs.set(dir, { files: [...sets.files].sort(), directories: [...sets.directories].sort() });
  }

  private dirKey(absDir: string): string | undefined {
    const trimmed = absDir.replace(/\/+$/, "");
    if (trimmed === ROOT) return "";
    return toRel(trimmed);
  }

  fileExists = (fileName: string): boolean => {
    if (fileName.startsWith(`${LIB_DIR}/`)) return libSnapshot(fileName) !== undefined;
    const rel = toRel(fileName);
    return rel !== undefined && this.fileSet.has(rel);
  };

  readFile = (fileName: string): string | undefined => {
    if (fileName.startsWith(`${LIB_DIR}/`)) {
      const snapshot = libSnapshot(fileName);
      return snapshot?.getText(0, snapshot.getLength());
    }
    const rel = toRel(fileName);
    return rel === undefined || !this.fileSet.has(rel) ? undefined : this.read(rel);
  };

  directoryExists = (dirName: string): boolean => {
    if (dirName.replace(/\/+$/, "") === LIB_DIR) return true;
    const key = this.dirKey(dirName);
    return key !== undefined && this.dirs.has(key);
  };

  getDirectories = (dirName: string): string[] => {
    const key = this.dirKey(dirName);
    return key === undefined ? [] : [...(this.dirs.get(key)?.directories ?? [])];
  };

  readDirectory = (
    rootDir: string,
    extensions: readonly string[] | undefined,
    excludes: readonly string[] | undefined,
    includes: readonly string[],
    depth?: number,
  ): string[] => {
    const entries = (dir: string) => {
      const key = this.dirKey(path.posix.resolve(ROOT, dir));
      return (key !== undefined && this.dirs.get(key)) || { files: [], directories: [] };
    };
    // ts.matchFiles is internal but present; it gives tsconfig include/exclude their exact meaning.
    const matchFiles = (ts as unknown as { matchFiles: MatchFiles }).matchFiles;
    return matchFiles(rootDir, extensions, excludes, includes, true, ROOT, depth, entries, (p: string) => p);
  };

  realpath = (p: string): string => p;

  moduleResolutionHost(): ts.ModuleResolutionHost {
    return {
      fileExists: this.fileExists,
      readFile: this.readFile,
      directoryExists: this.directoryExists,
      getDirectories: this.getDirectories,
      realpath: this.realpath,
      getCurrentDirectory: () => ROOT,
      useCaseSensitiveFileNames: true,
    };
  }
}

type MatchFiles = (
  path: string,
  extensions: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  includes: readonly string[] | undefined,
  useCaseSensitiveFileNames: boolean,
  currentDirectory: string,
  depth: number | undefined,
  getFileSystemEntries: (path: string) => { files: readonly string[]; directories: readonly string[] },
  realpath: (path: string) => string,
) => string[];

/** Options for a repository without a tsconfig.json (also the bench's raw-service peer's). */
export const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  checkJs: false,
  jsx: ts.JsxEmit.Preserve,
  resolveJsonModule: true,
  esModuleInterop: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
};

/** The nearest tsconfig.json (then jsconfig.json) at or above the targets' directories. */
export function findConfig(allFiles: ReadonlySet<string>, targets: readonly string[]): string | undefined {
  const lookIn = (dir: string): string | undefined => {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const candidate = dir === "" ? name : `${dir}/${name}`;
      if (allFiles.has(candidate)) return candidate;
    }
    return undefined;
  };
  for (const target of [...targets].sort()) {
    // A target may be a file or a directory: start from the directory that holds it.
    let dir = allFiles.has(target) ? path.posix.dirname(target) : target;
    for (;;) {
      if (dir === ".") dir = "";
      const found = lookIn(dir);
      if (found) return found;
      if (dir === "") break;
      dir = path.posix.dirname(dir);
    }
  }
  return lookIn("");
}

/** The workspace's files as the compiler sees them, read once per command and shared by its projects. */
interface WorkspaceFiles {
  allFiles: string[];
  texts: Map<string, string>;
  fs: VirtualFs;
}

async function readWorkspaceFiles(workspace: WorkspaceReader): Promise<WorkspaceFiles> {
  const allFiles = await workspace.list();
  const texts = new Map<string, string>();
  const toLoad = allFiles.filter((file) => hasExtension(file, LOADED_EXTENSIONS) && !file.endsWith("package-lock.json"));
  const reads = await Promise.all(toLoad.map((file) => workspace.tryReadText(file)));
  for (const read of reads) if ("text" in read) texts.set(read.path, read.text);
  // Files that could not be read (binary, too large) do not exist for the compiler.
  const readable = new Set(allFiles.filter((file) => !hasExtension(file, LOADED_EXTENSIONS) || texts.has(file)));
  return { allFiles, texts, fs: new VirtualFs(readable, (rel) => texts.get(rel)) };
}

/** tsconfig.json/jsconfig.json files outside node_modules: each one a project (a monorepo has several). */
function projectConfigs(allFiles: readonly string[]): string[] {
  return allFiles.filter((file) => /(?:^|\/)[tj]sconfig\.json$/.test(file) && !isInNodeModules(file)).sort();
}

/**
 * Loads the workspace into one language service per affected project: the nearest project to the
 * targets (the primary, which also takes every file no other affected project includes, so that a
 * move or rename also updates them) and, in a workspace of several tsconfig.json projects, every other project that
 * includes a target or references (transitively) one that does — each with its own options, so a
 * package's `paths` and module settings resolve its imports. Without targets, every project.
 */
export async function loadTsProject(workspace: WorkspaceReader, load: LoadOptions = {}): Promise<TsProject> {
  const files = await readWorkspaceFiles(workspace);
  const targets = load.targets ?? [];
  const configPath = findConfig(new Set(files.allFiles), targets);
  const configs = projectConfigs(files.allFiles);
  const parsed = new Map(configs.map((config) => [config, parseConfig(config, files.fs)]));
  const inTargets = (file: string) => targets.some((target) => file === target || file.startsWith(`${target}/`));
  const affected = new Set(
    configs.filter((config) => config !== configPath && (targets.length === 0 || parsed.get(config)!.fileNames.some(inTargets))),
  );
  // Projects that reference an affected project see its files through the reference.
  for (let grew = true; grew;) {
    grew = false;
    for (const config of configs) {
      if (affected.has(config) || config === configPath) continue;
      if (parsed.get(config)!.references.some((reference) => affected.has(reference) || reference === configPath)) {
        affected.add(config);
        grew = true;
      }
    }
  }
  // Files of the other affected projects are theirs; everything else (other packages, tests, scripts) is the primary's.
  const others = new Set([...affected].flatMap((config) => parsed.get(config)!.fileNames));
  const primary = createProject(
    files,
    configPath,
    configPath === undefined ? undefined : parsed.get(configPath),
    (file) => !others.has(file),
  );
  // A solution-style config ("files": [] with references) has no program of its own.
  const withFiles = [...affected].filter((config) => parsed.get(config)!.fileNames.length > 0);
  primary.others = withFiles.map((config) => createProject(files, config, parsed.get(config), () => false));
  const disposeService = () => primary.service.dispose();
  primary.dispose = () => {
    disposeService();
    for (const other of primary.others) other.dispose();
  };
  return primary;
}

/** One language service over a project's files (and `extra` files no project includes). */
function createProject(
  { allFiles, texts, fs }: WorkspaceFiles,
  configPath: string | undefined,
  config: ParsedConfig | undefined,
  extra: (file: string) => boolean,
): TsProject {
  const parsedConfig = config ?? (configPath === undefined ? undefined : parseConfig(configPath, fs));
  const options: ts.CompilerOptions = parsedConfig?.options ?? { ...DEFAULT_OPTIONS };
  const configFiles = parsedConfig?.fileNames ?? [];
  const extensions = options.allowJs ? [...TS_EXTENSIONS, ...JS_EXTENSIONS] : TS_EXTENSIONS;
  const extraFiles = allFiles.filter((file) => texts.has(file) && hasExtension(file, extensions) && !isInNodeModules(file) && extra(file));
  const rootFiles = [...new Set([...configFiles, ...extraFiles])].filter((file) => texts.has(file)).sort();
  const rootAbs = rootFiles.map(toAbs);

  const versions = new Map<string, string>();
  const version = (rel: string): string => {
    let found = versions.get(rel);
    if (found === undefined) {
      found = createHash("sha1")
        .update(texts.get(rel) ?? "")
        .digest("hex");
      versions.set(rel, found);
    }
    return found;
  };
  const host: ts.LanguageServiceHost = {
    // The files never change during a command: one project version lets every service call skip
    // re-checking each file's version.
    getProjectVersion: () => "1",
    getCompilationSettings: () => options,
    getScriptFileNames: () => rootAbs,
    getScriptVersion: (fileName) => {
      const rel = toRel(fileName);
      return rel === undefined ? "lib" : version(rel);
    },
    getScriptSnapshot: (fileName) => {
      if (fileName.startsWith(`${LIB_DIR}/`)) return libSnapshot(fileName);
      const rel = toRel(fileName);
      const text = rel === undefined ? undefined : texts.get(rel);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: (opts) => `${LIB_DIR}/${ts.getDefaultLibFileName(opts)}`,
    fileExists: fs.fileExists,
    readFile: fs.readFile,
    directoryExists: fs.directoryExists,
    getDirectories: fs.getDirectories,
    readDirectory: fs.readDirectory,
    realpath: fs.realpath,
    useCaseSensitiveFileNames: () => true,
  };
  const service = ts.createLanguageService(host, registry);
  const program = service.getProgram();
  if (!program) throw new Error("The TypeScript language service did not produce a program.");
  return {
    service,
    program,
    options,
    configPath,
    rootFiles,
    allFiles,
    texts,
    fs,
    others: [],
    dispose: () => service.dispose(),
  };
}

interface ParsedConfig {
  options: ts.CompilerOptions;
  /** Workspace-relative root files. */
  fileNames: string[];
  /** Workspace-relative paths of the referenced projects' configs. */
  references: string[];
}

function parseConfig(configPath: string, fs: VirtualFs): ParsedConfig {
  const fileName = toAbs(configPath);
  const text = fs.readFile(fileName);
  if (text === undefined) return { options: { ...DEFAULT_OPTIONS }, fileNames: [], references: [] };
  // Parsed as a source file, so the options carry `configFile`: getEditsForFileRename then also
  // updates the config's files/include/exclude and path options.
  const source = ts.parseJsonText(fileName, text);
  const parseHost: ts.ParseConfigHost = {
    useCaseSensitiveFileNames: true,
    readDirectory: fs.readDirectory,
    fileExists: fs.fileExists,
    readFile: fs.readFile,
  };
  const parsed = ts.parseJsonSourceFileConfigFileContent(source, parseHost, path.posix.dirname(fileName), undefined, fileName);
  // Options from outside the workspace (an `extends` into node_modules) are simply missing.
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, configFile: source };
  delete options.composite;
  delete options.incremental;
  delete options.tsBuildInfoFile;
  const rel = (names: readonly string[]) => names.map((name) => toRel(name)).filter((name): name is string => name !== undefined);
  const references = rel((parsed.projectReferences ?? []).map((reference) => ts.resolveProjectReferencePath(reference)));
  return { options, fileNames: rel(parsed.fileNames), references };
}

/** Applies text changes (spans in the original text) to a text. Overlapping changes: first wins. */
export function applyTextChanges(text: string, changes: readonly ts.TextChange[]): string {
  const seen = new Set<string>();
  const unique = changes.filter((change) => {
    const key = `${change.span.start}:${change.span.length}:${change.newText}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const sorted = unique.sort((a, b) => a.span.start - b.span.start || a.span.length - b.span.length);
  let out = "";
  let last = 0;
  for (const change of sorted) {
    if (change.span.start < last) continue;
    out += text.slice(last, change.span.start) + change.newText;
    last = change.span.start + change.span.length;
  }
  return out + text.slice(last);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
