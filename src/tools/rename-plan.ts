/**
 * `/rename-symbol <old> <new> [--file path]`: renames a declaration and every reference to it,
 * with the language service's findRenameLocations (what editors' "Rename Symbol" uses).
 *
 * The declaration is found by name with navigateTo (top-level and exported declarations, class and
 * interface members, enum members, local declarations); `Class.member` narrows by container and
 * `--file` by file. More than one distinct declaration is refused with the list of candidates.
 * Aliases are used where a rename would change something else's name: `{ foo }` becomes
 * `{ foo: bar }` and `export { foo }` becomes `export { bar as foo }` (editors' default), so
 * object shapes and a module's public names stay as they were.
 */
import { ts } from "ts-morph";
import type { WorkspaceReader } from "../core/tool.js";
import { UserError } from "../errors.js";
import { normalizePath } from "../workspace/paths.js";
import { applyTextChanges, compareStrings, loadTsProject, toAbs, toRel, type TsProject } from "./ts-project.js";

export interface RenameCandidate {
  file: string;
  /** 1-based line of the declaration's name. */
  line: number;
  kind: string;
  container: string;
}

export interface RenamePlan {
  from: string;
  to: string;
  declaration: RenameCandidate;
  /** Number of rename locations (declaration included). */
  references: number;
  /** New content of every changed file, sorted by path. */
  contents: Map<string, string>;
  /** Files named by the rename locations, sorted. */
  serviceFiles: string[];
}

/** Reserved words (ES, strict mode and modules): never usable as a binding name. */
const RESERVED = new Set([
  ..."break case catch class const continue debugger default delete do else enum export extends false finally for function".split(" "),
  ..."if import in instanceof new null return super switch this throw true try typeof var void while with".split(" "),
  ..."implements interface let package private protected public static yield await".split(" "),
]);

function isIdentifierText(text: string): boolean {
  const codePoints = [...text].map((char) => char.codePointAt(0)!);
  if (codePoints.length === 0 || !ts.isIdentifierStart(codePoints[0]!, ts.ScriptTarget.ESNext)) return false;
  return codePoints.every((code) => ts.isIdentifierPart(code, ts.ScriptTarget.ESNext));
}

/** Throws unless `name` can be used as an identifier anywhere (strict mode, modules). */
export function checkNewName(name: string, oldName: string): void {
  const isPrivate = oldName.startsWith("#");
  if (isPrivate !== name.startsWith("#")) {
    throw new UserError(
      isPrivate ? `${oldName} is a private name; the new name must start with # too.` : `"${name}" is not a valid identifier.`,
    );
  }
  const bare = isPrivate ? name.slice(1) : name;
  if (!isIdentifierText(bare)) throw new UserError(`"${name}" is not a valid identifier.`);
  if (RESERVED.has(bare) && !isPrivate) throw new UserError(`"${name}" is a reserved word and cannot be used as a name.`);
  if (name === oldName) throw new UserError(`${oldName} is already called ${name}.`);
}

interface Declaration extends RenameCandidate {
  fileName: string;
  position: number;
  symbol: ts.Symbol | undefined;
  /** Declared inside a function (a local variable, a parameter, a nested function). */
  local: boolean;
}

function isLocal(nameNode: ts.Node): boolean {
  for (let node = nameNode.parent?.parent; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return true;
  }
  return false;
}

/** The name node of the declaration that navigateTo reported with this span. */
function findNameNode(sourceFile: ts.SourceFile, span: ts.TextSpan, name: string): ts.Node | undefined {
  let best: ts.Node | undefined;
  const end = span.start + span.length;
  const visit = (node: ts.Node): void => {
    if (node.end < span.start || node.pos > end) return;
    const declarationName = ts.getNameOfDeclaration(node as ts.Declaration);
    if (declarationName && nameText(declarationName) === name) {
      const start = declarationName.getStart(sourceFile);
      if (start >= span.start && start < end && (!best || start < best.getStart(sourceFile))) best = declarationName;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return best;
}

function nameText(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node)) return node.text;
  return undefined;
}

function isInNodeModules(file: string): boolean {
  return file.startsWith("node_modules/") || file.includes("/node_modules/");
}

/**
 * Declarations named `query` (`name` or `Container.name`), one per distinct symbol, sorted.
 * Declarations local to a function count only when there is no other.
 */
export function findDeclarations(project: TsProject, query: string, file?: string): Declaration[] {
  const dot = query.lastIndexOf(".");
  const container = dot > 0 ? query.slice(0, dot) : undefined;
  const name = dot > 0 ? query.slice(dot + 1) : query;
  // navigateTo's fuzzy search over every file is the slow part of a rename; a declaration of
  // `name` can only be in a file whose text contains it, so only those files are searched.
  const searched =
    file !== undefined
      ? [toAbs(file)]
      : project.program
          .getSourceFiles()
          .filter((sourceFile) => toRel(sourceFile.fileName) !== undefined && sourceFile.text.includes(name))
          .map((sourceFile) => sourceFile.fileName);
  const items = searched.flatMap((fileName) => project.service.getNavigateToItems(name, undefined, fileName, false));
  const checker = project.program.getTypeChecker();
  const found: Declaration[] = [];
  for (const item of items) {
    const rel = toRel(item.fileName);
    if (item.name !== name || item.kind === ts.ScriptElementKind.alias || rel === undefined || isInNodeModules(rel)) continue;
    if (container !== undefined && item.containerName !== container) continue;
    const sourceFile = project.program.getSourceFile(item.fileName);
    if (!sourceFile) continue;
    const nameNode = findNameNode(sourceFile, item.textSpan, name);
    if (!nameNode) continue;
    const position = nameNode.getStart(sourceFile);
    found.push({
      file: rel,
      fileName: item.fileName,
      position,
      line: sourceFile.getLineAndCharacterOfPosition(position).line + 1,
      kind: item.kind,
      container: item.containerName,
      symbol: checker.getSymbolAtLocation(nameNode),
      local: isLocal(nameNode),
    });
  }
  found.sort((a, b) => compareStrings(a.file, b.file) || a.position - b.position);
  // Overloads and merged declarations are one symbol: keep its first declaration.
  const seen = new Set<ts.Symbol>();
  const positions = new Set<string>();
  const candidates = found.some((declaration) => !declaration.local) ? found.filter((declaration) => !declaration.local) : found;
  return candidates.filter((declaration) => {
    const key = `${declaration.file}:${declaration.position}`;
    if (positions.has(key)) return false;
    positions.add(key);
    if (!declaration.symbol) return true;
    if (seen.has(declaration.symbol)) return false;
    seen.add(declaration.symbol);
    return true;
  });
}

export async function planRename(workspace: WorkspaceReader, from: string, to: string, file?: string): Promise<RenamePlan> {
  if (typeof from !== "string" || from.trim() === "")
    throw new UserError("rename_symbol needs the current name: /rename-symbol <old> <new>.");
  if (typeof to !== "string" || to.trim() === "") throw new UserError("rename_symbol needs the new name: /rename-symbol <old> <new>.");
  const oldName = from.slice(from.lastIndexOf(".") + 1);
  checkNewName(to, oldName);
  const scope = file === undefined ? undefined : normalizePath(file);
  if (scope !== undefined && !(await workspace.exists(scope))) throw new UserError(`${scope} does not exist.`);
  const project = await loadTsProject(workspace, { targets: scope ? [scope] : [] });
  try {
    if (scope !== undefined && !project.program.getSourceFile(toAbs(scope))) {
      throw new UserError(`${scope} is not part of the TypeScript project (${project.configPath ?? "default options"}).`);
    }
    const declarations = findDeclarations(project, from, scope);
    if (declarations.length === 0) throw new UserError(`No declaration named ${from} found${scope ? ` in ${scope}` : ""}.`);
    if (declarations.length > 1) {
      const list = declarations.map((d) => `- ${d.file}:${d.line} (${d.kind}${d.container ? ` in ${d.container}` : ""})`).join("\n");
      const hint = scope ? "use Container.name to say which" : "use --file <path> (or Container.name) to say which";
      throw new UserError(`${from} is declared ${declarations.length} times; ${hint}:\n${list}`);
    }
    const declaration = declarations[0]!;
    const info = project.service.getRenameInfo(declaration.fileName, declaration.position, { allowRenameOfImportPath: false });
    if (!info.canRename) throw new UserError(`Cannot rename ${from}: ${info.localizedErrorMessage}`);
    const locations =
      project.service.findRenameLocations(declaration.fileName, declaration.position, false, false, {
        providePrefixAndSuffixTextForRename: true,
      }) ?? [];
    const byFile = new Map<string, ts.TextChange[]>();
    for (const location of locations) {
      const rel = toRel(location.fileName);
      if (rel === undefined || isInNodeModules(rel) || !project.texts.has(rel)) {
        throw new UserError(
          `Cannot rename ${from}: it is also referenced in ${rel ?? location.fileName}, which resolve-bot does not change.`,
        );
      }
      const list = byFile.get(rel) ?? [];
      list.push({ span: location.textSpan, newText: `${location.prefixText ?? ""}${to}${location.suffixText ?? ""}` });
      byFile.set(rel, list);
    }
    const serviceFiles = [...byFile.keys()].sort();
    const contents = new Map<string, string>();
    for (const rel of serviceFiles) {
      const before = project.texts.get(rel)!;
      const after = applyTextChanges(before, byFile.get(rel)!);
      if (after !== before) contents.set(rel, after);
    }
    const candidate: RenameCandidate = {
      file: declaration.file,
      line: declaration.line,
      kind: declaration.kind,
      container: declaration.container,
    };
    return { from, to, declaration: candidate, references: locations.length, contents, serviceFiles };
  } finally {
    project.dispose();
  }
}
