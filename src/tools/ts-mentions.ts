/**
 * Files the language service does not know that mention a moved path: package.json `main`,
 * `types`, `exports`, `bin`; jest/vite/eslint configs; CI files; docs. A move does not guess how to
 * rewrite them; it names each line ("not updated, check these") so nothing is silently ignored.
 */
import path from "node:path";
import type { WorkspaceReader } from "../core/tool.js";
import { isConfigName } from "./ts-config-entries.js";
import { compareStrings, isCodeFile } from "./ts-project.js";

export interface Mention {
  file: string;
  /** 1-based. */
  line: number;
  /** The line, trimmed and cut to a readable length. */
  text: string;
}

const LOCKFILES = /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?)$/;
/** Code files that are configuration, not modules anyone imports: jest.config.ts, .eslintrc.cjs … */
const CONFIG_CODE = /(?:^|\/)(?:[^/]+\.config\.[cm]?[jt]s|\.[\w-]+rc\.[cm]?js)$/;

function isScanned(file: string): boolean {
  if (/(?:^|\/)node_modules\//.test(file) || LOCKFILES.test(file) || isConfigName(file)) return false;
  return !isCodeFile(file) || CONFIG_CODE.test(file);
}

const PATH_CHAR = /[\w.-]/;

/** Whether `needle` occurs at `index` as a whole path (not inside a longer name or path). */
function isWholePath(text: string, index: number, needle: string): boolean {
  const before = text[index - 1];
  if (before !== undefined && PATH_CHAR.test(before)) return false;
  // "lib/src/util" is another path; "./src/util" and "<rootDir>/src/util" name this one.
  if (before === "/" && /[\w-]/.test(text[index - 2] ?? "")) return false;
  const after = text[index + needle.length];
  return after === undefined || !/[\w-]/.test(after);
}

/** The forms a path can be written in from `file`: as is, relative to the file's directory, without extension. */
function needles(file: string, moved: string): string[] {
  const dir = path.posix.dirname(file);
  const forms = new Set([moved]);
  if (dir !== "." && moved.startsWith(`${dir}/`)) forms.add(moved.slice(dir.length + 1));
  for (const form of [...forms]) {
    const stripped = form.replace(/(\.d)?\.[cm]?[jt]sx?$/, "");
    // "src/index" names src/index.ts; a bare "a" (from a.ts) would match every word "a".
    if (stripped !== form && stripped.includes("/")) forms.add(stripped);
  }
  return [...forms];
}

/** Lines of unchanged non-TypeScript files that mention one of the moved paths. */
export async function findMentions(
  workspace: WorkspaceReader,
  movedPaths: readonly string[],
  skip: ReadonlySet<string>,
): Promise<Mention[]> {
  const files = (await workspace.list()).filter((file) => isScanned(file) && !skip.has(file));
  const reads = await Promise.all(files.map((file) => workspace.tryReadText(file)));
  const mentions: Mention[] = [];
  for (const read of reads) {
    if (!("text" in read)) continue;
    const forms = movedPaths.flatMap((moved) => needles(read.path, moved));
    if (!forms.some((form) => read.text.includes(form))) continue;
    read.text.split("\n").forEach((line, i) => {
      const hit = forms.some((form) => {
        for (let index = line.indexOf(form); index !== -1; index = line.indexOf(form, index + 1)) {
          if (isWholePath(line, index, form)) return true;
        }
        return false;
      });
      if (!hit) return;
      const trimmed = line.trim();
      mentions.push({ file: read.path, line: i + 1, text: trimmed.length > 120 ? `${trimmed.slice(0, 117)}…` : trimmed });
    });
  }
  return mentions.sort((a, b) => compareStrings(a.file, b.file) || a.line - b.line);
}
