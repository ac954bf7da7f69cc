/**
 * rename_symbol and move: resolve-bot's tools vs the raw TypeScript language service doing the
 * same thing over the same directory.
 *
 * - bot:    the real `rename_symbol` / `move` tool via executeTool over an FsWorkspace (reads every
 *           code/JSON file, loads the language service from ts-project.ts, finds the declaration by
 *           name, rename locations / getEditsForFileRename, verification of every relative import
 *           for move, builds the ChangeSet). Uses the TypeScript bundled with ts-morph (6.x).
 * - raw LS: `ts.createLanguageService` over a minimal host that reads files from disk on demand,
 *           same compiler options and root files as the bot (rxjs/src has no tsconfig.json, so both
 *           use the bot's defaults over every .ts/.js file). Rename: findRenameLocations at the
 *           declaration (position known in advance) + apply the edits. Move: getEditsForFileRename
 *           per pair + apply the edits. "program load" = host + service + getProgram().
 *           Run twice: with typescript 5.9.3 (the project's devDependency) and with the TS 6 in
 *           ts-morph (the compiler the bot uses), which separates our overhead from the version's.
 * Both sides keep lib .d.ts parses across runs (the bot's process-wide registry does; the raw
 * side gets the same treatment), and both are timed after a warm-up, interleaved.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Project, ts as tsMorphTs } from "ts-morph";
import moveFactory from "../src/tools/move.js";
import renameFactory from "../src/tools/rename-symbol.js";
import { applyTextChanges, DEFAULT_OPTIONS } from "../src/tools/ts-project.js";
import { createToolAPI, executeTool } from "../src/core/execution.js";
import type { AnyToolDefinition } from "../src/core/tool.js";
import { FsWorkspace, walk } from "./fs-workspace.js";
import type { Corpus } from "./corpus.js";
import { log, median, shuffled, timed } from "./stats.js";

const require = createRequire(import.meta.url);
type TS = typeof import("typescript");

export const RENAME = { file: "internal/util/isFunction.ts", from: "isFunction", to: "isCallable", marker: "function isFunction" };
/** 36 + 7 + 5 + 2 = 50 files on rxjs/src. */
export const MOVE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["internal/util", "internal/utils"],
  ["internal/scheduled", "internal/scheduling"],
  ["internal/ajax", "internal/http"],
  ["internal/symbol", "internal/symbols"],
];

const CODE = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

interface RawCompiler {
  label: string;
  version: string;
  ts: TS;
  libText(fileName: string): string | undefined;
  registry: import("typescript").DocumentRegistry;
}

function keepLibs(ts: TS, libDir: string): import("typescript").DocumentRegistry {
  const base = ts.createDocumentRegistry(true, "/");
  return {
    ...base,
    releaseDocumentWithKey(filePath, key, scriptKind, impliedNodeFormat) {
      if (filePath.startsWith(libDir)) return;
      base.releaseDocumentWithKey(filePath, key, scriptKind, impliedNodeFormat);
    },
  } as import("typescript").DocumentRegistry;
}

function compilers(): RawCompiler[] {
  const ts59 = require("typescript") as TS;
  const libDir59 = path.dirname(require.resolve("typescript/lib/lib.d.ts"));
  const libTexts59 = new Map<string, string | undefined>();
  let morphLibs: { readFile(fileName: string): string | undefined } | undefined;
  return [
    {
      label: "raw LS (typescript)",
      version: ts59.version,
      ts: ts59,
      libText: (fileName) => {
        // Read once per process, as the bot's ts-project.ts does for its lib files.
        const name = path.basename(fileName);
        if (!libTexts59.has(name)) {
          let text: string | undefined;
          try {
            text = readFileSync(path.join(libDir59, name), "utf8");
          } catch {
            text = undefined;
          }
          libTexts59.set(name, text);
        }
        return libTexts59.get(name);
      },
      registry: keepLibs(ts59, "/__lib__/"),
    },
    {
      label: "raw LS (ts-morph's TS)",
      version: tsMorphTs.version,
      // Same API, different build: typed as the devDependency's.
      ts: tsMorphTs as unknown as TS,
      libText: (fileName) => {
        morphLibs ??= new Project({ useInMemoryFileSystem: true }).getModuleResolutionHost();
        return morphLibs.readFile(`/node_modules/typescript/lib/${path.basename(fileName)}`);
      },
      registry: keepLibs(tsMorphTs as unknown as TS, "/__lib__/"),
    },
  ];
}

/**
 * The bot's default compiler options, for a directory without tsconfig.json. The enum values are
 * plain numbers that TypeScript 5.9 and 6 share.
 */
function defaultOptions(): import("typescript").CompilerOptions {
  return { ...(DEFAULT_OPTIONS as import("typescript").CompilerOptions) };
}

interface RawProject {
  service: import("typescript").LanguageService;
  program: import("typescript").Program;
  text(abs: string): string | undefined;
}

/** A plain language service over `root` on disk (no tsconfig: defaults and every code file). */
function loadRaw(
  compiler: RawCompiler,
  root: string,
  rootFiles: readonly string[],
  options: import("typescript").CompilerOptions = defaultOptions(),
): RawProject {
  const { ts } = compiler;
  const texts = new Map<string, string | undefined>();
  const read = (abs: string): string | undefined => {
    if (abs.startsWith("/__lib__/")) return compiler.libText(abs);
    if (!texts.has(abs)) {
      let text: string | undefined;
      try {
        text = readFileSync(abs, "utf8");
      } catch {
        text = undefined;
      }
      texts.set(abs, text);
    }
    return texts.get(abs);
  };
  const names = rootFiles.map((file) => path.join(root, file));
  const host: import("typescript").LanguageServiceHost = {
    getProjectVersion: () => "1",
    getCompilationSettings: () => options,
    getScriptFileNames: () => names,
    getScriptVersion: () => "1",
    getScriptSnapshot: (fileName) => {
      const text = read(fileName);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (opts) => `/__lib__/${ts.getDefaultLibFileName(opts)}`,
    fileExists: (fileName) => read(fileName) !== undefined,
    readFile: read,
    directoryExists: (dir) => dir.startsWith("/__lib__") || ts.sys.directoryExists(dir),
    getDirectories: (dir) => ts.sys.getDirectories(dir),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    realpath: (p) => p,
    useCaseSensitiveFileNames: () => true,
  };
  const service = ts.createLanguageService(host, compiler.registry);
  const program = service.getProgram()!;
  return { service, program, text: read };
}

/** The raw peer applies its edits with the same splice the bot uses, so only the service work differs. */
function applyEdits(text: string, changes: ReadonlyArray<{ span: { start: number; length: number }; newText: string }>): string {
  return applyTextChanges(text, changes);
}

function rawRename(
  compiler: RawCompiler,
  root: string,
  rootFiles: readonly string[],
  position: number,
): { files: number; locations: number } {
  const project = loadRaw(compiler, root, rootFiles);
  try {
    const fileName = path.join(root, RENAME.file);
    const locations =
      project.service.findRenameLocations(fileName, position, false, false, { providePrefixAndSuffixTextForRename: true }) ?? [];
    const byFile = new Map<string, Array<{ span: { start: number; length: number }; newText: string }>>();
    for (const l of locations) {
      const list = byFile.get(l.fileName) ?? [];
      list.push({ span: l.textSpan, newText: `${l.prefixText ?? ""}${RENAME.to}${l.suffixText ?? ""}` });
      byFile.set(l.fileName, list);
    }
    for (const [file, changes] of byFile) applyEdits(project.text(file)!, changes);
    return { files: byFile.size, locations: locations.length };
  } finally {
    project.service.dispose();
  }
}

function rawMove(compiler: RawCompiler, root: string, rootFiles: readonly string[]): { files: number; edits: number } {
  const project = loadRaw(compiler, root, rootFiles);
  try {
    const settings = compiler.ts.getDefaultFormatCodeSettings("\n");
    const byFile = new Map<string, import("typescript").TextChange[]>();
    for (const [from, to] of MOVE_PAIRS) {
      for (const edit of project.service.getEditsForFileRename(path.join(root, from), path.join(root, to), settings, {})) {
        byFile.set(edit.fileName, [...(byFile.get(edit.fileName) ?? []), ...edit.textChanges]);
      }
    }
    let edits = 0;
    for (const [file, changes] of byFile) {
      const text = project.text(file);
      if (text !== undefined) applyEdits(text, changes);
      edits += changes.length;
    }
    return { files: byFile.size, edits };
  } finally {
    project.service.dispose();
  }
}

function rawLoad(compiler: RawCompiler, root: string, rootFiles: readonly string[]): number {
  const project = loadRaw(compiler, root, rootFiles);
  const count = project.program.getSourceFiles().length;
  project.service.dispose();
  return count;
}

export interface TsRow {
  op: "rename_symbol" | "move";
  corpus: string;
  what: string;
  /** Files the bot changes / locations (rename) or files moved (move). */
  bot_summary: string;
  raw_summary: string;
  ms: Record<string, number>;
  versions: Record<string, string>;
  samples: Record<string, number[]>;
}

async function tools(): Promise<{ rename: AnyToolDefinition; move: AnyToolDefinition }> {
  const pi = createToolAPI();
  return { rename: await renameFactory(pi), move: await moveFactory(pi) };
}

function summaryOf(details: unknown): string {
  const d = details as
    { references?: number; files?: string[]; moved?: unknown[]; updated?: string[]; importsUpdated?: number } | undefined;
  if (!d) return "nothing";
  if (d.references !== undefined) return `${d.references} references in ${d.files?.length ?? 0} files`;
  return `${d.moved?.length ?? 0} files moved, ${d.importsUpdated ?? 0} imports in ${d.updated?.length ?? 0} files`;
}

export async function benchTs(project: Corpus, runs: number): Promise<TsRow[]> {
  const { rename, move } = await tools();
  const rootFiles = (await walk(project.dir)).filter((file) => CODE.some((ext) => file.endsWith(ext))).sort();
  const declaration = readFileSync(path.join(project.dir, RENAME.file), "utf8");
  const position = declaration.indexOf(RENAME.marker) + "function ".length;
  const raws = compilers();
  const versions = Object.fromEntries([["bot (ts-morph's TS)", tsMorphTs.version], ...raws.map((c) => [c.label, c.version])]);

  const botRun = async (which: "rename" | "move"): Promise<string> => {
    const params = which === "rename" ? { from: RENAME.from, to: RENAME.to } : { paths: MOVE_PAIRS.flat() };
    const execution = await executeTool(which === "rename" ? rename : move, params, new FsWorkspace(project.dir), "bench");
    if (execution.result.isError || execution.actions.length !== 1)
      throw new Error(`${which} failed: ${JSON.stringify(execution.result.content)}`);
    return summaryOf(execution.actions[0]!.details);
  };

  const rows: TsRow[] = [];
  for (const op of ["rename_symbol", "move"] as const) {
    log(`${op} on ${project.name}`);
    const samples: Record<string, number[]> = { bot: [] };
    for (const [i] of raws.entries()) {
      samples[`raw${i}`] = [];
      samples[`load${i}`] = [];
    }
    let botSummary = "";
    let rawSummary = "";
    const peers: Array<() => Promise<void>> = [
      async () => {
        const t = await timed(() => botRun(op === "rename_symbol" ? "rename" : "move"));
        samples.bot!.push(t.ms);
        botSummary = t.value;
      },
      ...raws.flatMap((compiler, i) => [
        async () => {
          const t = await timed(() =>
            op === "rename_symbol" ? rawRename(compiler, project.dir, rootFiles, position) : rawMove(compiler, project.dir, rootFiles),
          );
          samples[`raw${i}`]!.push(t.ms);
          if (i === 0) {
            const v = t.value as { files: number; locations?: number; edits?: number };
            rawSummary =
              v.locations !== undefined ? `${v.locations} locations in ${v.files} files` : `${v.edits} edits in ${v.files} files`;
          }
        },
        async () => void samples[`load${i}`]!.push((await timed(() => rawLoad(compiler, project.dir, rootFiles))).ms),
      ]),
    ];
    for (const peer of peers) await peer(); // warm-up: JIT and lib parses
    for (const key of Object.keys(samples)) samples[key] = [];
    for (let r = 0; r < runs; r++) for (const peer of shuffled(peers, r)) await peer();
    const ms: Record<string, number> = { bot: median(samples.bot!) };
    raws.forEach((_, i) => {
      ms[i === 0 ? "raw_ls" : "raw_ls_same_ts"] = median(samples[`raw${i}`]!);
      ms[i === 0 ? "program_load" : "program_load_same_ts"] = median(samples[`load${i}`]!);
    });
    rows.push({
      op,
      corpus: project.name,
      what: op === "rename_symbol" ? `${RENAME.from} → ${RENAME.to}` : `${MOVE_PAIRS.map(([a, b]) => `${a} → ${b}`).join(", ")}`,
      bot_summary: botSummary,
      raw_summary: rawSummary,
      ms,
      versions,
      samples,
    });
  }
  return rows;
}

// ---- monorepo: one language service per project ----

/** Packages that import the core package through `paths` and by relative path (25 files each). */
const MONOREPO_APPS = ["app", "web"];
const MONOREPO_MOVE = ["packages/core/internal/util", "packages/core/internal/utils"] as const;

/**
 * A monorepo built from the corpus: packages/core is rxjs/src; packages/app and packages/web each
 * have their own tsconfig.json (paths `@core/*`, a project reference to core) and 25 files
 * importing core; the root tsconfig.json is solution-style (references only).
 */
export function prepareMonorepo(project: Corpus, workDir: string): string {
  const dir = path.join(workDir, "ts-monorepo");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "packages"), { recursive: true });
  cpSync(project.dir, path.join(dir, "packages/core"), { recursive: true });
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  const references = ["core", ...MONOREPO_APPS].map((name) => ({ path: `packages/${name}` }));
  write("tsconfig.json", JSON.stringify({ files: [], references }, null, 2));
  write("packages/core/tsconfig.json", JSON.stringify({ compilerOptions: { composite: true }, include: ["**/*.ts"] }, null, 2));
  for (const app of MONOREPO_APPS) {
    const config = {
      compilerOptions: { baseUrl: ".", paths: { "@core/*": ["../core/*"] } },
      include: ["src"],
      references: [{ path: "../core" }],
    };
    write(`packages/${app}/tsconfig.json`, JSON.stringify(config, null, 2));
    for (let i = 0; i < 25; i++) {
      write(
        `packages/${app}/src/m${i}.ts`,
        `import { isFunction } from "@core/internal/util/isFunction";\nimport { isArrayLike } from "../../core/internal/util/isArrayLike";\nexport const f${i} = (x: unknown) => isFunction(x) || isArrayLike(x);\n`,
      );
    }
  }
  return dir;
}

/** The raw peer: every project's tsconfig parsed by TypeScript, one plain service each. */
function rawMonorepo(compiler: RawCompiler, dir: string, move: boolean): number {
  const { ts } = compiler;
  let edits = 0;
  for (const name of ["core", ...MONOREPO_APPS]) {
    const root = path.join(dir, "packages", name);
    const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), (file) => ts.sys.readFile(file));
    const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
    const files = parsed.fileNames.map((file) => path.relative(root, file));
    const project = loadRaw(compiler, root, files, { ...parsed.options, noEmit: true });
    try {
      if (!move) continue;
      const settings = ts.getDefaultFormatCodeSettings("\n");
      const [from, to] = MONOREPO_MOVE.map((rel) => path.join(dir, rel));
      for (const edit of project.service.getEditsForFileRename(from!, to!, settings, {})) {
        const text = project.text(edit.fileName);
        if (text !== undefined) applyEdits(text, edit.textChanges);
        edits += edit.textChanges.length;
      }
    } finally {
      project.service.dispose();
    }
  }
  return edits;
}

/** The monorepo row: the bot's move (one service per affected project) against raw services and program loads. */
export async function benchTsMonorepo(project: Corpus, workDir: string, runs: number): Promise<TsRow> {
  const dir = prepareMonorepo(project, workDir);
  const { move } = await tools();
  const raws = compilers();
  const versions = Object.fromEntries([["bot (ts-morph's TS)", tsMorphTs.version], ...raws.map((c) => [c.label, c.version])]);
  log(`move on the monorepo (${project.name} as packages/core + ${MONOREPO_APPS.length} packages)`);
  const samples: Record<string, number[]> = { bot: [], raw0: [], load0: [] };
  let botSummary = "";
  let rawSummary = "";
  const peers: Array<() => Promise<void>> = [
    async () => {
      const t = await timed(() => executeTool(move, { paths: [...MONOREPO_MOVE] }, new FsWorkspace(dir), "bench"));
      if (t.value.result.isError || t.value.actions.length !== 1) throw new Error(`move failed: ${JSON.stringify(t.value.result.content)}`);
      samples.bot!.push(t.ms);
      botSummary = summaryOf(t.value.actions[0]!.details);
    },
    async () => {
      const t = await timed(() => rawMonorepo(raws[0]!, dir, true));
      samples.raw0!.push(t.ms);
      rawSummary = `${t.value} edits from ${1 + MONOREPO_APPS.length} services`;
    },
    async () => void samples.load0!.push((await timed(() => rawMonorepo(raws[0]!, dir, false))).ms),
  ];
  for (const peer of peers) await peer();
  for (const key of Object.keys(samples)) samples[key] = [];
  for (let r = 0; r < runs; r++) for (const peer of shuffled(peers, r)) await peer();
  return {
    op: "move",
    corpus: `monorepo (${project.name} + ${MONOREPO_APPS.length} packages)`,
    what: MONOREPO_MOVE.join(" → "),
    bot_summary: botSummary,
    raw_summary: rawSummary,
    ms: { bot: median(samples.bot!), raw_ls: median(samples.raw0!), program_load: median(samples.load0!) },
    versions,
    samples,
  };
}
