/**
 * `/move <from> <to> [<from> <to> …]`: moves or renames files and directories and updates every
 * import, export, require() and dynamic import() that refers to them.
 *
 * The import updates come from the language service's getEditsForFileRename (what editors use).
 * Those edits are then verified: every relative module specifier in every moved file, every file
 * the edits touch and every file that imported a moved file must still resolve, after the move, to
 * the file it resolved to before (moved along). The service misses some — a moved file's own
 * imports in circular graphs, two moved files importing each other, require() in .ts files, files
 * outside the program — and those are rewritten here, keeping the specifier's style (extension,
 * directory index).
 */
import path from "node:path";
import { ts } from "ts-morph";
import type { WorkspaceReader } from "../core/tool.js";
import { UserError } from "../errors.js";
import { normalizePath } from "../workspace/paths.js";
import { plural, pluralWord } from "../core/text.js";
import {
  ALL_KINDS,
  SERVICE_MISSES,
  brokenEntries,
  configEntries,
  configFileNames,
  isConfigName,
  joinRel,
  rewriteConfig,
  type BrokenEntry,
} from "./ts-config-entries.js";
import { findMentions, type Mention } from "./ts-mentions.js";
import {
  FORMAT_SETTINGS,
  ROOT,
  VirtualFs,
  applyTextChanges,
  compareStrings,
  isCodeFile,
  loadTsProject,
  toAbs,
  toRel,
  type TsProject,
  isInNodeModules,
} from "./ts-project.js";

export interface MovePair {
  from: string;
  to: string;
}

export interface ImportFix {
  /** File (path after the move) whose specifier was rewritten. */
  file: string;
  /** The specifier as the language service left it. */
  from: string;
  /** The specifier that resolves to the intended file. */
  to: string;
}

export interface MovePlan {
  pairs: MovePair[];
  /** Every file moved, old path → new path, sorted by old path. */
  moves: MovePair[];
  /** New content of every file whose content changed, by path after the move, sorted. */
  contents: Map<string, string>;
  /** Number of module specifiers (and tsconfig entries) rewritten. */
  importsUpdated: number;
  /** Files (old paths) the language service's edits named, sorted. */
  serviceFiles: string[];
  /** tsconfig files (old paths) whose entries were rewritten here, sorted. */
  configFiles: string[];
  /** Specifiers the verification rewrote. */
  fixes: ImportFix[];
  /** Relative specifiers that could not be made to resolve to their file again (only with verify: false). */
  unresolved: Array<{ file: string; specifier: string; target: string }>;
  /** tsconfig entries that resolved before and would not after (only with verify: false). */
  brokenEntries: BrokenEntry[];
  /** Files a config put in its program before and would leave out after (only with verify: false). */
  dropped: Array<{ config: string; file: string }>;
  /** Lines of files TypeScript does not know (package.json, jest.config …) that mention a moved path. */
  mentions: Mention[];
}

export interface PlanOptions {
  /** Verify and fix the service's edits (default true; false shows the raw service edits). */
  verify?: boolean;
  /** Editor preferences for the service's new specifiers (see ts-preferences.ts). */
  preferences?: ts.UserPreferences;
}

/** Validates the pairs and lists the file moves, without loading TypeScript. */
export async function validatePairs(
  workspace: WorkspaceReader,
  paths: readonly string[],
): Promise<{ pairs: MovePair[]; moves: MovePair[] }> {
  if (paths.length === 0 || paths.length % 2 !== 0) {
    throw new UserError(
      `move takes pairs of paths: /move <from> <to> [<from> <to> …]; got ${plural(paths.length, "path")}${paths.length % 2 ? " (an odd number)" : ""}.`,
    );
  }
  const pairs: MovePair[] = [];
  for (let i = 0; i < paths.length; i += 2) pairs.push({ from: normalizePath(paths[i]!), to: normalizePath(paths[i + 1]!) });
  const all = await workspace.list();
  const moves: MovePair[] = [];
  const inside = (child: string, parent: string) => child === parent || child.startsWith(`${parent}/`);
  for (const [index, { from, to }] of pairs.entries()) {
    const isFile = await workspace.exists(from);
    if (!isFile && !(await workspace.isDirectory(from))) throw new UserError(`Cannot move ${from}: it does not exist.`);
    if (from === to) throw new UserError(`Cannot move ${from} to itself.`);
    if (to.startsWith(`${from}/`)) throw new UserError(`Cannot move ${from} into itself (${to}).`);
    if ((await workspace.exists(to)) || (await workspace.isDirectory(to))) {
      throw new UserError(`Cannot move ${from} to ${to}: ${to} already exists.`);
    }
    for (let dir = path.posix.dirname(to); dir !== "."; dir = path.posix.dirname(dir)) {
      if (await workspace.exists(dir)) throw new UserError(`Cannot move ${from} to ${to}: ${dir} is a file.`);
    }
    for (const other of pairs.slice(0, index)) {
      if (inside(from, other.from) || inside(other.from, from))
        throw new UserError(`Cannot move ${from}: it is moved twice (also by ${other.from} → ${other.to}).`);
      if (inside(to, other.to) || inside(other.to, to))
        throw new UserError(`Cannot move ${from} to ${to}: ${other.from} is also moved to ${other.to}.`);
      if (inside(to, other.from) || inside(other.to, from)) {
        throw new UserError(
          `Cannot move ${from} to ${to}: moves that depend on each other (${other.from} → ${other.to}) must be separate commands.`,
        );
      }
    }
    if (isFile) moves.push({ from, to });
    else for (const file of all) if (file.startsWith(`${from}/`)) moves.push({ from: file, to: to + file.slice(from.length) });
  }
  moves.sort((a, b) => compareStrings(a.from, b.from));
  return { pairs, moves };
}

/** Computes the whole move: which files go where and what every changed file will contain. */
export async function planMove(workspace: WorkspaceReader, paths: readonly string[], options: PlanOptions = {}): Promise<MovePlan> {
  const { pairs, moves } = await validatePairs(workspace, paths);
  const project = await loadTsProject(workspace, { targets: pairs.map((pair) => pair.from) });
  let plan: MovePlan;
  try {
    plan = computeMove(project, pairs, moves, options.verify ?? true, options.preferences ?? {});
  } finally {
    project.dispose();
  }
  if (options.verify ?? true) refuseBroken(plan);
  const touched = new Set([...plan.moves.map((move) => move.from), ...plan.serviceFiles, ...plan.configFiles]);
  plan.mentions = await findMentions(
    workspace,
    pairs.map((pair) => pair.from),
    touched,
  );
  return plan;
}

/** Refuses a move that would leave an import or a tsconfig entry pointing nowhere, naming each. */
function refuseBroken(plan: MovePlan): void {
  const lines = [
    ...plan.unresolved.map((miss) => `- ${miss.file}: "${miss.specifier}" would not resolve to ${miss.target}`),
    ...plan.brokenEntries.map((entry) => `- ${entry.config}:${entry.line}: ${entry.kind} "${entry.value}" ${entry.reason}`),
    ...plan.dropped.map((drop) => `- ${drop.config} would no longer include ${drop.file}`),
  ];
  if (lines.length === 0) return;
  const what = plan.pairs.map((pair) => `${pair.from} to ${pair.to}`).join(", ");
  throw new UserError(
    `Cannot move ${what}: afterwards ${pluralWord(lines.length, "this", "these")} would be broken, so nothing was changed:\n${lines.join("\n")}`,
  );
}

function computeMove(project: TsProject, pairs: MovePair[], moves: MovePair[], verify: boolean, preferences: ts.UserPreferences): MovePlan {
  const moveMap = new Map(moves.map((move) => [move.from, move.to]));
  const newPathOf = (rel: string) => moveMap.get(rel) ?? rel;
  // Files, and directories (a moved directory's path and anything below it).
  const mapPath = (rel: string): string => {
    const file = moveMap.get(rel);
    if (file !== undefined) return file;
    for (const pair of pairs) if (rel === pair.from || rel.startsWith(`${pair.from}/`)) return pair.to + rel.slice(pair.from.length);
    return rel;
  };

  // Every project concerned (a monorepo's packages), and which one a file belongs to: its options
  // (paths, module resolution) are the ones its imports resolve with.
  const projects = [project, ...project.others];
  const owners = new Map<string, TsProject>();
  for (const other of project.others) {
    for (const file of other.rootFiles) {
      owners.set(file, other);
      owners.set(newPathOf(file), other);
    }
  }
  const optionsOf = (file: string) => (owners.get(file) ?? project).options;

  // 1. The language service's edits, pair by pair and project by project, all against the unmoved programs.
  const serviceChanges = new Map<string, ts.TextChange[]>();
  const movedFiles = new Set(moves.map((move) => move.from));
  const edits = pairs.flatMap((pair) =>
    // A moved stylesheet or image is no module TypeScript knows: its importers are found below.
    movedFiles.has(pair.from) && !isCodeFile(pair.from) && !pair.from.endsWith(".json")
      ? []
      : projects.flatMap((each) => each.service.getEditsForFileRename(toAbs(pair.from), toAbs(pair.to), FORMAT_SETTINGS, preferences)),
  );
  for (const edit of edits) {
    const rel = toRel(edit.fileName);
    if (rel === undefined || edit.isNewFile || !project.texts.has(rel) || edit.textChanges.length === 0) continue;
    const list = serviceChanges.get(rel) ?? [];
    list.push(...edit.textChanges);
    serviceChanges.set(rel, list);
  }
  const serviceFiles = [...serviceChanges.keys()].sort();
  // Texts after the service's edits, by old path.
  const edited = new Map<string, string>();
  for (const file of serviceFiles) edited.set(file, applyTextChanges(project.texts.get(file)!, serviceChanges.get(file)!));

  // 2. tsconfig entries the service leaves alone: `extends`, `references`, every entry of the other
  // configs, and every entry of a config that moves (the service computes from its old directory).
  const configs = configFilesOf(project);
  const configFiles: string[] = [];
  let configChanges = 0;
  for (const config of configs) {
    const moved = moveMap.has(config);
    const serviceEdited = projects.some((each) => each.configPath === config) && !moved;
    if (!serviceEdited && edited.delete(config)) serviceChanges.delete(config);
    const before = edited.get(config) ?? project.texts.get(config)!;
    const rewritten = rewriteConfig(config, newPathOf(config), before, serviceEdited ? SERVICE_MISSES : ALL_KINDS, mapPath);
    if (rewritten.changes === 0) continue;
    edited.set(config, rewritten.text);
    configFiles.push(config);
    configChanges += rewritten.changes;
  }

  // 3. Verify every relative specifier of the files concerned, and fix the ones that went astray.
  const oldResolver = new Resolver(project.fs, optionsOf);
  const newFileSet = new Set([...project.allFiles].filter((file) => project.fs.fileExists(toAbs(file))).map(newPathOf));
  const newTextByNewPath = new Map<string, string>();
  for (const [file, text] of project.texts) newTextByNewPath.set(newPathOf(file), edited.get(file) ?? text);
  const newFs = new VirtualFs(newFileSet, (rel) => newTextByNewPath.get(rel));
  const newResolver = new Resolver(newFs, optionsOf);

  const oldSpecifiers = new Map<string, Specifier[]>();
  const specifiersOf = (file: string): Specifier[] => {
    let found = oldSpecifiers.get(file);
    if (!found) {
      const text = project.texts.get(file)!;
      const owner = owners.get(file) ?? project;
      const sourceFile = owner.program.getSourceFile(toAbs(file)) ?? parse(file, text);
      found = collectSpecifiers(sourceFile, owner.program, owner.options, needsDeepScan(text));
      oldSpecifiers.set(file, found);
    }
    return found;
  };
  const intendedOf = (file: string, specifier: Specifier): string | undefined => {
    if (!isRelative(specifier.text)) return undefined;
    const target = oldResolver.resolve(specifier.text, file, specifier.mode);
    return target === undefined ? undefined : newPathOf(target);
  };

  // Files concerned: moved code files, files the service edited, and every file importing a moved file.
  const concerned = new Set<string>([...serviceFiles.filter(isCodeFile), ...moves.map((move) => move.from).filter(isCodeFile)]);
  for (const file of [...project.texts.keys()].sort()) {
    if (!isCodeFile(file) || concerned.has(file) || isInNodeModules(file)) continue;
    if (
      specifiersOf(file).some(
        (specifier) => isRelative(specifier.text) && moveMap.has(oldResolver.resolve(specifier.text, file, specifier.mode) ?? ""),
      )
    ) {
      concerned.add(file);
    }
  }

  const fixes: ImportFix[] = [];
  const unresolved: MovePlan["unresolved"] = [];
  let importsUpdated = 0;
  for (const file of [...concerned].sort()) {
    if (!project.texts.has(file)) continue;
    const newFile = newPathOf(file);
    const before = specifiersOf(file);
    let text = edited.get(file) ?? project.texts.get(file)!;
    const deep = needsDeepScan(project.texts.get(file)!);
    let after = collectSpecifiers(parse(newFile, text), undefined, optionsOf(file), deep);
    if (after.length !== before.length) {
      importsUpdated += serviceChanges.get(file)?.length ?? 0;
      continue;
    }
    if (verify) {
      const changes: ts.TextChange[] = [];
      before.forEach((old, i) => {
        const current = after[i]!;
        const intended = intendedOf(file, old);
        if (intended === undefined) {
          // A relative import that resolves to nothing (a file not written yet, say) keeps naming
          // the same path from the moved file, as an editor does.
          const literal = newFile !== file && current.text === old.text ? keepLiteralPath(file, newFile, old.text) : undefined;
          if (literal !== undefined)
            changes.push({ span: { start: current.start, length: current.end - current.start }, newText: literal });
          return;
        }
        if (newResolver.resolve(current.text, newFile, old.mode) === intended) return;
        const oldTarget = oldResolver.resolve(old.text, file, old.mode)!;
        const specifier = makeSpecifier(newFile, intended, old.text, oldTarget);
        if (specifier !== undefined && newResolver.resolve(specifier, newFile, old.mode) === intended) {
          changes.push({ span: { start: current.start, length: current.end - current.start }, newText: specifier });
          fixes.push({ file: newFile, from: current.text, to: specifier });
        } else {
          unresolved.push({ file: newFile, specifier: current.text, target: intended });
        }
      });
      if (changes.length > 0) {
        text = applyTextChanges(text, changes);
        edited.set(file, text);
        after = collectSpecifiers(parse(newFile, text), undefined, optionsOf(file), deep);
      }
    }
    before.forEach((old, i) => {
      if (after[i]!.text !== old.text) importsUpdated++;
    });
  }
  // Edits to files that hold no imports (a tsconfig's "files" list) count one per change.
  for (const file of serviceFiles) if (!isCodeFile(file)) importsUpdated += serviceChanges.get(file)?.length ?? 0;
  importsUpdated += configChanges;

  // 4. Every config entry that resolved (or matched) before still does, and no config loses a file.
  const broken: BrokenEntry[] = [];
  const dropped: MovePlan["dropped"] = [];
  if (verify) {
    for (const config of configs) {
      const oldText = project.texts.get(config)!;
      const newText = edited.get(config) ?? oldText;
      broken.push(
        ...brokenEntries({ config, text: oldText, fs: project.fs }, { config: newPathOf(config), text: newText, fs: newFs }, mapPath),
      );
      // A config that moves defines its program from its new place: that is the point of moving it.
      if (!isConfigName(config) || moveMap.has(config)) continue;
      const after = new Set(configFileNames(newPathOf(config), newText, newFs));
      for (const file of configFileNames(config, oldText, project.fs)) {
        if (!after.has(newPathOf(file))) dropped.push({ config: newPathOf(config), file: newPathOf(file) });
      }
    }
  }

  const contents = new Map<string, string>();
  for (const file of [...edited.keys()].sort((a, b) => compareStrings(newPathOf(a), newPathOf(b)))) {
    const text = edited.get(file)!;
    if (text !== project.texts.get(file)) contents.set(newPathOf(file), text);
  }
  fixes.sort((a, b) => compareStrings(a.file, b.file) || compareStrings(a.from, b.from));
  unresolved.sort((a, b) => compareStrings(a.file, b.file) || compareStrings(a.specifier, b.specifier));
  return {
    pairs,
    moves,
    contents,
    importsUpdated,
    serviceFiles,
    configFiles,
    fixes,
    unresolved,
    brokenEntries: broken,
    dropped,
    mentions: [],
  };
}

/** tsconfig/jsconfig files, and the configs they extend inside the workspace (any name). */
function configFilesOf(project: TsProject): string[] {
  const found = new Set([...project.texts.keys()].filter(isConfigName));
  const queue = [...found];
  for (let config = queue.pop(); config !== undefined; config = queue.pop()) {
    for (const entry of configEntries(config, project.texts.get(config)!)) {
      if (entry.kind !== "extends" || !entry.value.startsWith(".")) continue;
      const target = joinRel(entry.base, entry.value);
      for (const candidate of [target, `${target}.json`]) {
        if (candidate !== undefined && project.texts.has(candidate) && !found.has(candidate)) {
          found.add(candidate);
          queue.push(candidate);
        }
      }
    }
  }
  return [...found].sort();
}

// ---- module specifiers ----

interface Specifier {
  text: string;
  /** Start and end of the text inside the quotes. */
  start: number;
  end: number;
  mode: ts.ResolutionMode;
}

const REQUIRE_LIKE = new Set([
  "require",
  "require.resolve",
  "jest.mock",
  "jest.requireActual",
  "jest.requireMock",
  "jest.doMock",
  "vi.mock",
  "vi.importActual",
  "vi.doMock",
]);

function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    return `${expression.expression.text}.${expression.name.text}`;
  }
  return undefined;
}

/** Whether specifiers can hide below the top level: require(), import(), import types, mocks. */
function needsDeepScan(text: string): boolean {
  return /\brequire\b|\bimport\s*\(|\.(?:mock|doMock|requireActual|requireMock|importActual)\b/.test(text);
}

/**
 * Every module specifier literal of a file, in source order. Without `deep`, only top-level
 * statements are looked at (imports, exports, `declare module`), which is all most files have.
 */
function collectSpecifiers(
  sourceFile: ts.SourceFile,
  program: ts.Program | undefined,
  options: ts.CompilerOptions,
  deep: boolean,
): Specifier[] {
  const out: Specifier[] = [];
  const add = (literal: ts.Node) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const start = literal.getStart(sourceFile) + 1;
    let mode: ts.ResolutionMode;
    try {
      mode = program ? program.getModeForUsageLocation(sourceFile, literal) : ts.getModeForUsageLocation(sourceFile, literal, options);
    } catch {
      mode = undefined;
    }
    out.push({ text: literal.text, start, end: start + literal.text.length, mode });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || REQUIRE_LIKE.has(calleeName(node.expression) ?? ""))
        add(node.arguments[0]!);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) add(node.name);
    if (deep) ts.forEachChild(node, visit);
  };
  if (deep) visit(sourceFile);
  else for (const statement of sourceFile.statements) visit(statement);
  // A literal whose raw text differs from its value (escapes) cannot be edited by position.
  return out.filter((specifier) => sourceFile.text.slice(specifier.start, specifier.end) === specifier.text);
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(toAbs(file), text, ts.ScriptTarget.Latest, false);
}

function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
}

/** Module resolution over one state of the workspace (before or after the move), with each file's project's options. */
class Resolver {
  private readonly host: ts.ModuleResolutionHost;
  private readonly caches = new Map<ts.CompilerOptions, ts.ModuleResolutionCache>();

  constructor(
    private readonly fs: VirtualFs,
    private readonly optionsOf: (file: string) => ts.CompilerOptions,
  ) {
    this.host = fs.moduleResolutionHost();
  }

  /** The workspace file a specifier in `file` refers to, or undefined. */
  resolve(specifier: string, file: string, mode: ts.ResolutionMode): string | undefined {
    const options = this.optionsOf(file);
    let cache = this.caches.get(options);
    if (!cache) this.caches.set(options, (cache = ts.createModuleResolutionCache(ROOT, (name) => name, options)));
    const resolved = ts.resolveModuleName(specifier, toAbs(file), options, this.host, cache, undefined, mode).resolvedModule;
    const rel = resolved ? toRel(resolved.resolvedFileName) : undefined;
    if (rel !== undefined) return rel;
    if (!isRelative(specifier)) return undefined;
    // Not a module TypeScript knows (a stylesheet, an image): the exact file, if there is one.
    const literal = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    return this.fs.fileExists(toAbs(literal)) ? literal : undefined;
  }
}

/** `specifier` (relative, from `file`) rewritten for the file's new place, when it changes. */
function keepLiteralPath(file: string, newFile: string, specifier: string): string | undefined {
  if (!isRelative(specifier)) return undefined;
  const target = path.posix.join("/", path.posix.dirname(file), specifier);
  let relative = path.posix.relative(`/${path.posix.dirname(newFile)}`, target);
  if (!relative.startsWith("../") && relative !== "..") relative = relative === "" ? "." : `./${relative}`;
  if (specifier.endsWith("/") && !relative.endsWith("/")) relative += "/";
  return relative === specifier ? undefined : relative;
}

const CODE_EXTENSION = /(\.d)?\.([cm]?[jt]sx?)$/;

function stripCodeExtension(name: string): string {
  return name.replace(CODE_EXTENSION, "").replace(/\.json$/, "");
}

/**
 * A specifier from `fromFile` to `target`, in the style of the original specifier (which referred
 * to `oldTarget`): exact file name, code extension (".js" for a .ts file), directory index, or none.
 */
export function makeSpecifier(fromFile: string, target: string, oldSpecifier: string, oldTarget: string): string | undefined {
  const relative = (to: string) => {
    const rel = path.posix.relative(`/${path.posix.dirname(fromFile)}`, `/${to}`);
    if (rel === "") return ".";
    return rel.startsWith("../") || rel === ".." ? rel : `./${rel}`;
  };
  const lastSegment = oldSpecifier.replace(/\/+$/, "").split("/").pop() ?? "";
  const oldBase = path.posix.basename(oldTarget);
  if (lastSegment === oldBase) return relative(target);
  const extension = /\.([cm]?[jt]sx?)$/.exec(lastSegment)?.[0];
  if (extension && stripCodeExtension(lastSegment) === stripCodeExtension(oldBase)) return relative(stripCodeExtension(target)) + extension;
  if (stripCodeExtension(oldBase) === "index" && lastSegment !== "index" && stripCodeExtension(path.posix.basename(target)) === "index") {
    return relative(path.posix.dirname(target));
  }
  return relative(stripCodeExtension(target));
}

// ---- the tool ----
