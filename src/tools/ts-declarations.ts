/**
 * Declarations by name, for `/rename-symbol <old> <new>`: every kind of binding an editor's F2 can
 * rename — declarations, import bindings (`import x from`, `import * as x`, `import { a as x }`,
 * `import x = require()`), `export { a as x }`, parameters, destructured bindings, object-literal and
 * string-keyed properties, enum members, `export as namespace` — grouped by what renaming them
 * changes (one findRenameLocations per distinct symbol: two candidates are one rename when one's
 * name is among the other's rename locations, as `{ name: 1 }` is for `interface User { name }`).
 *
 * Tiers keep `/rename-symbol size count` meaning the module's `size`: module-level declarations
 * first, then import bindings, then names local to a function (parameters included).
 */
import { ts } from "ts-morph";
import { compareStrings, toRel, type TsProject, isInNodeModules } from "./ts-project.js";

export interface Candidate {
  file: string;
  /** 1-based line of the name. */
  line: number;
  kind: string;
  container: string;
  fileName: string;
  position: number;
}

export interface CandidateGroup {
  candidate: Candidate;
  locations: readonly ts.RenameLocation[];
}

/** More distinct symbols than this are listed without working out which of them are one. */
const MAX_GROUPS = 25;

const enum Tier {
  Declaration = 0,
  ImportBinding = 1,
  Local = 2,
}

interface Found extends Candidate {
  /** The project whose program the candidate was found in. */
  project: TsProject;
  tier: Tier;
  /** Object-literal properties: considered after the declarations they are usually typed by. */
  weak: boolean;
  symbol: ts.Symbol | undefined;
}

const DECLARATION_KINDS = new Set([
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.EnumMember,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.TypeParameter,
  ts.SyntaxKind.BindingElement,
  ts.SyntaxKind.NamespaceExportDeclaration,
]);

const IMPORT_BINDING_KINDS = new Set([
  ts.SyntaxKind.ImportClause,
  ts.SyntaxKind.NamespaceImport,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ImportSpecifier,
]);

function nameText(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node) || ts.isNumericLiteral(node)) return node.text;
  return undefined;
}

function isLocal(declaration: ts.Node): boolean {
  for (let node = declaration.parent; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return true;
  }
  return false;
}

/** The name of the nearest named class, interface, enum, namespace, function or variable around a declaration. */
function containerOf(declaration: ts.Node): string {
  for (let node = declaration.parent; node && !ts.isSourceFile(node); node = node.parent) {
    if (
      ts.isClassLike(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isEnumDeclaration(node) ||
      ts.isModuleDeclaration(node) ||
      ts.isFunctionLike(node) ||
      ts.isVariableDeclaration(node)
    ) {
      const name = ts.getNameOfDeclaration(node);
      const text = name ? nameText(name) : undefined;
      if (text !== undefined) return text;
    }
  }
  return "";
}

/** The name node a declaration-like node introduces, and its tier; undefined for references (`{ a }`, `export { a }`). */
function declaredName(node: ts.Node): { name: ts.Node; tier: Tier } | undefined {
  if (IMPORT_BINDING_KINDS.has(node.kind)) {
    const name = (node as ts.ImportClause | ts.NamespaceImport | ts.ImportEqualsDeclaration | ts.ImportSpecifier).name;
    return name ? { name, tier: Tier.ImportBinding } : undefined;
  }
  if (ts.isExportSpecifier(node)) return node.propertyName ? { name: node.name, tier: Tier.ImportBinding } : undefined;
  if (!DECLARATION_KINDS.has(node.kind)) return undefined;
  const name = ts.getNameOfDeclaration(node as ts.Declaration);
  if (!name || nameText(name) === undefined) return undefined;
  return { name, tier: isLocal(node) ? Tier.Local : Tier.Declaration };
}

/** Every declaration spelled `name` in the workspace's files (or in `scope`). */
function collect(projects: readonly TsProject[], name: string, container: string | undefined, scope: string | undefined): Found[] {
  const found: Found[] = [];
  const visited = new Set<string>();
  for (const project of projects) {
    const checker = project.program.getTypeChecker();
    for (const sourceFile of project.program.getSourceFiles()) {
      const rel = toRel(sourceFile.fileName);
      if (rel === undefined || isInNodeModules(rel) || (scope !== undefined && rel !== scope) || visited.has(rel)) continue;
      visited.add(rel);
      // A declaration of `name` can only be in a file whose text contains it.
      if (!sourceFile.text.includes(name)) continue;
      const visit = (node: ts.Node): void => {
        const declared = declaredName(node);
        if (declared && nameText(declared.name) === name) {
          const nodeContainer = containerOf(node);
          if (container === undefined || container === nodeContainer) {
            const position = declared.name.getStart(sourceFile);
            found.push({
              project,
              file: rel,
              fileName: sourceFile.fileName,
              position,
              line: sourceFile.getLineAndCharacterOfPosition(position).line + 1,
              kind: ts.SyntaxKind[node.kind],
              container: nodeContainer,
              tier: declared.tier,
              weak: ts.isPropertyAssignment(node),
              symbol: checker.getSymbolAtLocation(declared.name),
            });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(sourceFile);
    }
  }
  return found.sort(
    (a, b) => a.tier - b.tier || Number(a.weak) - Number(b.weak) || compareStrings(a.file, b.file) || a.position - b.position,
  );
}

export interface CandidateSearch {
  groups: CandidateGroup[];
  /** Why the language service refused the candidates it refused (the first reason), when none is left. */
  refusal?: string;
}

/** The distinct renames a name can mean, from the first tier that has any. */
export function findCandidates(
  projects: readonly TsProject[],
  query: string,
  scope: string | undefined,
  find: (fileName: string, position: number) => readonly ts.RenameLocation[],
  preferences: ts.UserPreferences,
): CandidateSearch {
  const dot = query.lastIndexOf(".");
  const container = dot > 0 ? query.slice(0, dot) : undefined;
  const name = dot > 0 ? query.slice(dot + 1) : query;
  const found = collect(projects, name, container, scope);
  let refusal: string | undefined;
  for (const tier of [Tier.Declaration, Tier.ImportBinding, Tier.Local]) {
    const groups: CandidateGroup[] = [];
    const covered = new Set<string>();
    const symbols = new Set<ts.Symbol>();
    for (const candidate of found.filter((item) => item.tier === tier)) {
      if (covered.has(`${candidate.fileName}:${candidate.position}`) || (candidate.symbol && symbols.has(candidate.symbol))) continue;
      if (candidate.symbol) symbols.add(candidate.symbol);
      const { project, tier: _tier, weak: _weak, symbol: _symbol, ...plain } = candidate;
      if (groups.length >= MAX_GROUPS) {
        groups.push({ candidate: plain, locations: [] });
        continue;
      }
      const info = project.service.getRenameInfo(candidate.fileName, candidate.position, {
        ...preferences,
        allowRenameOfImportPath: false,
      });
      if (!info.canRename) {
        refusal ??= info.localizedErrorMessage;
        continue;
      }
      const locations = find(candidate.fileName, candidate.position);
      for (const location of locations) covered.add(`${location.fileName}:${location.textSpan.start}`);
      groups.push({ candidate: { ...plain, kind: info.kind }, locations });
    }
    if (groups.length > 0) return { groups };
  }
  return { groups: [], refusal };
}
