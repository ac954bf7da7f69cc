/**
 * `/rename-symbol <old> <new> [--file path]` and `/rename-symbol <new> --at path:line[:col]`:
 * renames a symbol and every reference to it with the language service's getRenameInfo and
 * findRenameLocations, exactly what an editor's F2 does.
 *
 * By position, the symbol under the cursor. By name, every declaration spelled that way (see
 * ts-declarations.ts) is grouped by what renaming it would change; more than one group is refused
 * with each candidate's path:line, to repeat with --at. `Class.member` narrows by container and
 * `--file` by file. With the editor's default `providePrefixAndSuffixTextForRename`, `{ foo }`
 * becomes `{ foo: bar }` and `export { foo }` becomes `export { bar as foo }`, so object shapes and
 * a module's public names stay as they were.
 */
import { ts } from "ts-morph";
import type { WorkspaceReader } from "../core/tool.js";
import { UserError } from "../errors.js";
import { normalizePath } from "../workspace/paths.js";
import { findCandidates, type Candidate } from "./ts-declarations.js";
import { applyTextChanges, loadTsProject, toAbs, toRel, type TsProject, isInNodeModules } from "./ts-project.js";

export interface RenameCandidate {
  file: string;
  /** 1-based line of the declaration's name. */
  line: number;
  kind: string;
  container: string;
}

export interface RenameOptions {
  /** The symbol's name (or Container.name); optional with `at`, where it must match. */
  from?: string;
  to: string;
  /** File that declares it. */
  file?: string;
  /** path:line[:col] (1-based) of the symbol. */
  at?: string;
  /** With `at` and no column or old name: the line must hold exactly one name (a review comment on a line). */
  oneNameOnLine?: boolean;
  /** Editor options, with the editor's defaults: off, off, on. */
  findInComments?: boolean;
  findInStrings?: boolean;
  providePrefixAndSuffixTextForRename?: boolean;
  /** Preferences (quote style …) from the repository, see ts-preferences.ts. */
  preferences?: ts.UserPreferences;
}

export interface RenamePlan {
  from: string;
  to: string;
  /** Found with --at: `declaration` is that position, not necessarily the declaration. */
  byPosition: boolean;
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

/** Throws unless `name` can stand between the quotes of every string that spelled `oldName`. */
function checkStringName(name: string, oldName: string): void {
  if (/["'`\\\r\n\u2028\u2029]|\$\{/.test(name)) {
    throw new UserError(`"${name}" cannot be written inside a string as it is: no quotes, backslashes, line breaks or \${.`);
  }
  if (name === oldName) throw new UserError(`${oldName} is already called ${name}.`);
}

/** Whether every location is a node that `matches` (bare renames only: no prefix or suffix text around it). */
function everyLocationIs(
  projects: readonly TsProject[],
  locations: readonly ts.RenameLocation[],
  matches: (node: ts.Node, sourceFile: ts.SourceFile, span: ts.TextSpan) => boolean,
): boolean {
  return (
    locations.length > 0 &&
    locations.every((location) => {
      const sourceFile = projects.map((each) => each.program.getSourceFile(location.fileName)).find((file) => file !== undefined);
      return (
        sourceFile !== undefined && !location.prefixText && !location.suffixText && containsMatch(sourceFile, location.textSpan, matches)
      );
    })
  );
}

function containsMatch(
  sourceFile: ts.SourceFile,
  span: ts.TextSpan,
  matches: (node: ts.Node, sourceFile: ts.SourceFile, span: ts.TextSpan) => boolean,
): boolean {
  const visit = (node: ts.Node): boolean => {
    if (span.start < node.getStart(sourceFile) || span.start + span.length > node.getEnd()) return false;
    return matches(node, sourceFile, span) || (ts.forEachChild(node, visit) ?? false);
  };
  return visit(sourceFile);
}

/** The location is the whole text between a string literal's quotes. */
function isStringContent(node: ts.Node, sourceFile: ts.SourceFile, span: ts.TextSpan): boolean {
  return (
    (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
    node.getStart(sourceFile) + 1 === span.start &&
    node.getEnd() - 1 === span.start + span.length
  );
}

/** The location is the name of a JSX attribute (`<Button aria-label=…>`), where JSX allows hyphens. */
function isJsxAttributeName(node: ts.Node, sourceFile: ts.SourceFile, span: ts.TextSpan): boolean {
  return ts.isJsxAttribute(node) && node.name.getStart(sourceFile) === span.start && node.name.getEnd() === span.start + span.length;
}

/** Throws unless `name` is a JSX attribute name: an identifier that may also contain hyphens. */
function checkJsxAttributeName(name: string, oldName: string): void {
  if (!/^[^-]/.test(name) || !isIdentifierText(name.replaceAll("-", "_")))
    throw new UserError(`"${name}" is not a valid JSX attribute name.`);
  if (name === oldName) throw new UserError(`${oldName} is already called ${name}.`);
}

interface Position {
  rel: string;
  fileName: string;
  position: number;
  line: number;
}

/** `path:line[:col]` to a position; without a column, the name on that line (the first spelled `name`, else the first declared). */
function parseAt(projects: readonly TsProject[], at: string, name: string | undefined, oneName = false): Position {
  const project = projects[0]!;
  const match = /^(.+?):(\d+)(?::(\d+))?$/.exec(at.trim());
  if (!match) throw new UserError(`--at takes path:line or path:line:column (1-based), got "${at}".`);
  const rel = normalizePath(match[1]!);
  const sourceFile = projects.map((each) => each.program.getSourceFile(toAbs(rel))).find((found) => found !== undefined);
  if (!sourceFile) {
    if (!project.allFiles.includes(rel)) throw new UserError(`${rel} does not exist.`);
    throw new UserError(`${rel} is not part of the TypeScript project (${project.configPath ?? "default options"}).`);
  }
  const line = Number(match[2]);
  const lineStarts = sourceFile.getLineStarts();
  if (line < 1 || line > lineStarts.length) throw new UserError(`${rel} has ${lineStarts.length} lines; there is no line ${line}.`);
  const lineStart = lineStarts[line - 1]!;
  const lineEnd = line < lineStarts.length ? lineStarts[line]! - 1 : sourceFile.text.length;
  if (match[3] !== undefined) {
    const column = Number(match[3]);
    if (column < 1 || lineStart + column - 1 > lineEnd) throw new UserError(`Line ${line} of ${rel} has no column ${column}.`);
    return { rel, fileName: sourceFile.fileName, position: lineStart + column - 1, line };
  }
  const names: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (node.end < lineStart || node.getStart(sourceFile) > lineEnd) return;
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.getStart(sourceFile) >= lineStart) names.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  const declared = (node: ts.Node) => ts.getNameOfDeclaration(node.parent as ts.Declaration) === node;
  const spelled = [...new Set(names.map((node) => node.getText(sourceFile)))];
  if (oneName && name === undefined && spelled.length > 1) {
    throw new UserError(
      `Line ${line} of ${rel} has ${spelled.length} names (${spelled.join(", ")}); say which: \`/rename-symbol <from> <to>\`.`,
    );
  }
  const chosen = name !== undefined ? names.find((node) => node.getText(sourceFile) === name) : (names.find(declared) ?? names[0]);
  if (!chosen)
    throw new UserError(`Line ${line} of ${rel} has no ${name ?? "name"} to rename; give a column: --at ${rel}:${line}:<column>.`);
  return { rel, fileName: sourceFile.fileName, position: chosen.getStart(sourceFile), line };
}

function describe(candidate: Candidate): string {
  return `${candidate.file}:${candidate.line} (${candidate.kind}${candidate.container ? ` in ${candidate.container}` : ""})`;
}

export async function planRename(workspace: WorkspaceReader, request: RenameOptions): Promise<RenamePlan> {
  const { to, at } = request;
  const from = request.from?.trim() === "" ? undefined : request.from;
  if (from === undefined && at === undefined) {
    throw new UserError(
      "/rename-symbol needs the current name or a position: `/rename-symbol <from> <to>`, or `/rename-symbol <to> --at path:line[:col]`.",
    );
  }
  if (typeof to !== "string" || to.trim() === "")
    throw new UserError("/rename-symbol needs the new name: `/rename-symbol <from> <to>`, or `/rename-symbol <to> --at path:line[:col]`.");
  if (from !== undefined) checkNewName(to, from.slice(from.lastIndexOf(".") + 1));
  const scope = request.file === undefined ? undefined : normalizePath(request.file);
  if (scope !== undefined && !(await workspace.exists(scope))) throw new UserError(`${scope} does not exist.`);
  const atFile = at === undefined ? undefined : /^(.+?):\d+(?::\d+)?$/.exec(at.trim())?.[1];
  const targets = [scope, atFile === undefined ? undefined : normalizePath(atFile)].filter(
    (target): target is string => target !== undefined,
  );
  const project = await loadTsProject(workspace, { targets });
  const preferences: ts.UserPreferences = {
    ...request.preferences,
    providePrefixAndSuffixTextForRename: request.providePrefixAndSuffixTextForRename ?? true,
  };
  // In a monorepo, every project whose program has the file sees some of its references.
  const projects = [project, ...project.others];
  const find = (fileName: string, position: number): ts.RenameLocation[] => {
    const seen = new Set<string>();
    const locations: ts.RenameLocation[] = [];
    for (const each of projects) {
      if (!each.program.getSourceFile(fileName)) continue;
      const found = each.service.findRenameLocations(
        fileName,
        position,
        request.findInStrings ?? false,
        request.findInComments ?? false,
        preferences,
      );
      for (const location of found ?? []) {
        const key = `${location.fileName}:${location.textSpan.start}:${location.textSpan.length}`;
        if (!seen.has(key)) locations.push(location);
        seen.add(key);
      }
    }
    return locations;
  };
  try {
    if (scope !== undefined && !projects.some((each) => each.program.getSourceFile(toAbs(scope)))) {
      throw new UserError(`${scope} is not part of the TypeScript project (${project.configPath ?? "default options"}).`);
    }
    let target: { name: string; candidate: Candidate; locations: readonly ts.RenameLocation[] };
    if (at !== undefined) {
      const name = from?.slice(from.lastIndexOf(".") + 1);
      const position = parseAt(projects, at, name, request.oneNameOnLine);
      const owner = projects.find((each) => each.program.getSourceFile(position.fileName)) ?? project;
      const info = owner.service.getRenameInfo(position.fileName, position.position, { ...preferences, allowRenameOfImportPath: false });
      if (!info.canRename) throw new UserError(`Cannot rename at ${at}: ${info.localizedErrorMessage}`);
      if (name !== undefined && info.displayName !== name) throw new UserError(`At ${at} is ${info.displayName}, not ${name}.`);
      const locations = find(position.fileName, position.position);
      // A string literal type ("ease-in-out"), or a name written in quotes wherever it occurs (a property
      // `"Att 2": string` used as `f("Att 2")`), is renamed inside its quotes: any text a string can hold.
      if (info.kind === ts.ScriptElementKind.string || everyLocationIs(projects, locations, isStringContent)) {
        checkStringName(to, info.displayName);
      } else if (everyLocationIs(projects, locations, isJsxAttributeName)) checkJsxAttributeName(to, info.displayName);
      else checkNewName(to, info.displayName);
      const candidate: Candidate = {
        file: position.rel,
        line: position.line,
        kind: info.kind,
        container: "",
        fileName: position.fileName,
        position: position.position,
      };
      target = { name: info.displayName, candidate, locations };
    } else {
      const { groups, refusal } = findCandidates(projects, from!, scope, find, preferences);
      if (refusal !== undefined && groups.length === 0) throw new UserError(`Cannot rename ${from}: ${refusal}`);
      if (groups.length === 0) throw new UserError(`No declaration named ${from} found${scope ? ` in ${scope}` : ""}.`);
      if (groups.length > 1) {
        const list = groups.map((group) => `- ${describe(group.candidate)}`).join("\n");
        throw new UserError(
          `${from} is declared ${groups.length} times; repeat with --at <path:line> (or --file <path>, or Container.name) to say which:\n${list}`,
        );
      }
      const group = groups[0]!;
      target = { name: from!.slice(from!.lastIndexOf(".") + 1), candidate: group.candidate, locations: group.locations };
    }
    const oldText = target.name;
    const byFile = new Map<string, ts.TextChange[]>();
    for (const location of target.locations) {
      const rel = toRel(location.fileName);
      if (rel === undefined || isInNodeModules(rel) || !project.texts.has(rel)) {
        throw new UserError(
          `Cannot rename ${oldText}: it is also referenced in ${rel ?? location.fileName}, which resolve-bot does not change.`,
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
    const { file, line, kind, container } = target.candidate;
    return {
      from: from ?? oldText,
      to,
      byPosition: at !== undefined,
      declaration: { file, line, kind, container },
      references: target.locations.length,
      contents,
      serviceFiles,
    };
  } finally {
    project.dispose();
  }
}
