/**
 * `resolve-bot config validate [file]`: a `.github/resolve-bot.yml` checked as the gate check
 * checks it (the same schema and the same command names, the same sentences), each problem with
 * the line and column it is at, before the file is pushed.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from "yaml";
import { normaliseCommandName } from "../../core/commands.js";
import { rawNameProblems, schemaProblems, type ConfigProblem } from "../../config/repo-config.js";
import { repoConfigJsonSchema } from "../../config/repo-config-schema.js";
import { plural } from "../../core/text.js";
import { CONFIG_PATH } from "../../config/load.js";

export interface ConfigCheck {
  /** `file:line:col: message`, one per problem, in file order. */
  problems: string[];
  /** Said alongside (e.g. `_extends` is not followed here); not problems. */
  notes: string[];
}

/** `commands`: every command the server knows (its tools plus resolve, help and pending). */
export function checkConfigText(text: string, file: string, commands: string[]): ConfigCheck {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length > 0) {
    // The gate says "cannot be read" for a file that is not YAML; here with where the parser stopped.
    return { problems: doc.errors.map((error) => `${at(error.pos[0])}: ${file} cannot be read: ${firstLine(error.message)}`), notes: [] };
  }
  const notes: string[] = [];
  let raw = doc.toJS() as unknown;
  if (isRecord(raw) && "_extends" in raw) {
    // Probot merges the file named by `_extends` (another repository's) before the gate sees it.
    notes.push(`${file}: _extends ${JSON.stringify(raw._extends)} is not followed here: the keys it brings are checked by the gate only.`);
    raw = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "_extends"));
  }
  // Every problem in one pass: what the schema refuses and the names that are no command.
  const problems: ConfigProblem[] = [...schemaProblems(raw), ...rawNameProblems(raw, commands)];
  const located = problems.map((problem) => ({ offset: offsetOf(doc, problem), message: problem.message }));
  located.sort((a, b) => a.offset - b.offset);
  return { problems: located.map((problem) => `${at(problem.offset)}: ${problem.message}`), notes };
}

/**
 * Where a problem is: an unknown key at the key, a bad value at the value (a map or list at its
 * key); a path that does not get as far (a key that is missing) at the nearest thing that exists.
 */
function offsetOf(doc: Document, problem: ConfigProblem): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const [index, step] of problem.path.entries()) {
    const last = index === problem.path.length - 1;
    if (isMap(node)) {
      // Permission keys are checked normalised (`ast-edit` = `ast_edit`): match them the same way.
      const pair = node.items.find((item) => {
        const key = isScalar(item.key) ? item.key.value : undefined;
        return key === step || (typeof key === "string" && typeof step === "string" && normaliseCommandName(key) === step);
      });
      if (!pair) return offset;
      offset = rangeStart(pair.key) ?? offset;
      if (last && (problem.isKey || !isScalar(pair.value))) return offset;
      node = pair.value;
    } else if (isSeq(node) && typeof step === "number" && node.items[step] !== undefined) {
      node = node.items[step];
    } else {
      return offset;
    }
    offset = rangeStart(node) ?? offset;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstLine(message: string): string {
  return message.split("\n")[0]!;
}

/** Where the server reads it from, and what `config validate` checks when given no file. */

/**
 * `config validate [file]` (0: valid, 1: problems or no file) and `config schema` (prints
 * docs/resolve-bot.schema.json). Undefined for anything else: the caller says how to use it.
 */
export async function runConfigCommand(
  words: string[],
  options: { cwd: string; commands: string[]; output: { out(text: string): void; err(text: string): void } },
): Promise<number | undefined> {
  const [action, file, ...extra] = words;
  if (action === "schema" && file === undefined) {
    options.output.out(JSON.stringify(repoConfigJsonSchema(), null, 2));
    return 0;
  }
  if (action !== "validate" || extra.length > 0) return undefined;
  const shown = file ?? CONFIG_PATH;
  let text: string;
  try {
    text = await readFile(path.resolve(options.cwd, shown), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    options.output.err(code === "ENOENT" ? `${shown}: no such file.` : `${shown} cannot be read: ${(error as Error).message}`);
    return 1;
  }
  const check = checkConfigText(text, shown, options.commands);
  for (const note of check.notes) options.output.err(note);
  if (check.problems.length === 0) {
    options.output.out(`${shown}: valid.`);
    return 0;
  }
  for (const problem of check.problems) options.output.out(problem);
  const count = plural(check.problems.length, "problem");
  options.output.err(`${shown}: ${count}; with this file on the default branch, the gate check fails and no command runs.`);
  return 1;
}
