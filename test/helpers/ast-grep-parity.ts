/**
 * Parity with the ast-grep CLI: run the CLI (`run -U` once per op, or `scan --rule --update-all`)
 * on a fresh copy of a directory, run ast_edit as the runtime does on the same files in memory,
 * compare the trees byte for byte.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import astEdit from "../../src/tools/ast-edit.js";
import { astGrepBinary } from "../../src/tools/ast-grep/cli.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";

const run = promisify(execFile);

export const CLI = astGrepBinary();

export function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full, base) : [path.relative(base, full).split(path.sep).join("/")];
    })
    .sort();
}

export function readTree(dir: string): Map<string, Buffer> {
  return new Map(walk(dir).map((file) => [file, readFileSync(path.join(dir, file))]));
}

/** Runs the CLI; exit status 1 with nothing on stderr only means "no match". */
export async function runCli(args: string[], cwd?: string): Promise<string> {
  try {
    return (await run(CLI, args, { maxBuffer: 256 * 1024 * 1024, ...(cwd ? { cwd } : {}) })).stdout;
  } catch (error) {
    const failure = error as { code?: number; stderr?: string; stdout?: string };
    if (failure.code !== 1 || (failure.stderr ?? "").trim() !== "") throw error;
    return failure.stdout ?? "";
  }
}

async function onCopy(scratch: string, source: string, edit: (dir: string) => Promise<void>): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(path.join(scratch, "cli-"));
  cpSync(source, dir, { recursive: true });
  await edit(dir);
  const after = readTree(dir);
  rmSync(dir, { recursive: true, force: true });
  return after;
}

export interface Op {
  pat: string;
  out: string;
}

/** `ast-grep run -p PAT -r OUT -U [--lang L] dir` once per op, in order, on a copy of `source`. */
export function cliRewrite(scratch: string, source: string, ops: readonly Op[], lang?: string): Promise<Map<string, Buffer>> {
  return onCopy(scratch, source, async (dir) => {
    for (const op of ops) await runCli(["run", "-p", op.pat, "-r", op.out, "-U", ...(lang ? ["--lang", lang] : []), dir]);
  });
}

/** `ast-grep scan --rule RULES --update-all .` in a copy of `source` (rules' globs are relative to it). */
export function cliScan(scratch: string, source: string, rules: string): Promise<Map<string, Buffer>> {
  const ruleFile = path.join(mkdtempSync(path.join(scratch, "rule-")), "rules.yml");
  writeFileSync(ruleFile, rules);
  return onCopy(scratch, source, async (dir) => {
    await runCli(["scan", "--rule", ruleFile, "--update-all", "."], dir);
  });
}

/** Files of `dir` the CLI finds a tree-sitter ERROR node in, for the given language(s). */
export async function filesWithErrors(dir: string, languages: readonly string[]): Promise<Set<string>> {
  const rules = languages.map((language, i) => `id: error-${i}\nlanguage: ${language}\nrule: { kind: ERROR }\n`).join("---\n");
  const stdout = await runCli(["scan", "--inline-rules", rules, "--json=stream", "."], dir);
  return new Set(
    stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => (JSON.parse(line) as { file: string }).file),
  );
}

let tool: AnyToolDefinition | undefined;

/** Runs ast_edit as the runtime does; returns the files as its pending action would leave them. */
export async function toolRewrite(files: Map<string, Buffer>, params: Record<string, unknown>) {
  tool ??= await astEdit(createToolAPI());
  const workspace = new MemoryWorkspace(files, "memory", { maxFiles: 100_000, maxFileBytes: 64 * 1024 * 1024, maxTotalBytes: 1 << 30 });
  const { result, actions } = await executeTool(tool, params, workspace, "parity");
  const after = new Map(files);
  for (const action of actions) {
    for (const change of await action.changes!.resolveChanges()) {
      if (change.kind !== "write") throw new Error(`unexpected ${change.kind} of ${change.path}`);
      after.set(change.path, Buffer.from(change.content));
    }
  }
  return {
    after,
    text: resultText(result),
    isError: result.isError === true,
    actions,
    details: result.details as { replacements: number; skipped?: unknown } | undefined,
  };
}

/** The files whose bytes differ (an absent file counts as differing). */
export function differingFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): string[] {
  const names = new Set([...actual.keys(), ...expected.keys()]);
  return [...names].filter((file) => !actual.get(file)?.equals(expected.get(file) ?? Buffer.alloc(0)) || !expected.has(file)).sort();
}

export function expectSameTrees(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  const differing = differingFiles(actual, expected);
  if (differing.length > 0) {
    const file = differing[0]!;
    // show the first difference as text for a readable failure
    expect({ file, text: actual.get(file)!.toString("utf8") }).toEqual({ file, text: expected.get(file)!.toString("utf8") });
  }
  expect(differing).toEqual([]);
}

export function changedFiles(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  return [...before].filter(([file, bytes]) => !after.get(file)!.equals(bytes)).map(([file]) => file);
}
