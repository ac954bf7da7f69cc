/**
 * CLI parity: ast_edit's output must be byte-identical to `ast-grep run -p PAT -r OUT -U` on the
 * same files. The corpus is rxjs@7.8.2's src (a pinned devDependency: 251 .ts files and one .js
 * nobody here wrote) plus a few generated JS/JSX/TSX/MJS files with unicode, tabs, CRLF, long
 * lines and nested matches. Every case must match something, so no case passes vacuously.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import astEdit from "../../src/tools/ast-edit.js";
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";

const run = promisify(execFile);
const ROOT = process.cwd();
const CLI = path.join(ROOT, "node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep");
const RXJS = path.join(ROOT, "node_modules/rxjs/src");

/** Generated non-TypeScript cases (kept inline: tsc would type-check a .tsx fixture). */
const MIXED: Record<string, string> = {
  "app.jsx": "// A small React-ish module: JSX, arrow functions, console calls.\nimport React from \"react\";\n\nexport function Greeting({ name, items }) {\n  console.log(\"render\", name,\n    items.length);\n  const list = items.map((item) => <li key={item.id}>{item.label}</li>);\n  if (!name) {\n    console.log(\"no name\");\n    return null;\n  }\n  return (\n    <div className=\"greeting\">\n      <h1>Héllo, {name} — ünïcödé ✓ 😀</h1>\n      <ul>{list}</ul>\n    </div>\n  );\n}\n\nexport const double = (x) => x * 2;\nexport const same = (a) => a === a;\n",
  "nested/long-lines.ts": "const filler = [\"item0\", \"item1\", \"item2\", \"item3\", \"item4\", \"item5\", \"item6\", \"item7\", \"item8\", \"item9\", \"item10\", \"item11\", \"item12\", \"item13\", \"item14\", \"item15\", \"item16\", \"item17\", \"item18\", \"item19\", \"item20\", \"item21\", \"item22\", \"item23\", \"item24\", \"item25\", \"item26\", \"item27\", \"item28\", \"item29\", \"item30\", \"item31\", \"item32\", \"item33\", \"item34\", \"item35\", \"item36\", \"item37\", \"item38\", \"item39\", \"item40\", \"item41\", \"item42\", \"item43\", \"item44\", \"item45\", \"item46\", \"item47\", \"item48\", \"item49\", \"item50\", \"item51\", \"item52\", \"item53\", \"item54\", \"item55\", \"item56\", \"item57\", \"item58\", \"item59\", \"item60\", \"item61\", \"item62\", \"item63\", \"item64\", \"item65\", \"item66\", \"item67\", \"item68\", \"item69\", \"item70\", \"item71\", \"item72\", \"item73\", \"item74\", \"item75\", \"item76\", \"item77\", \"item78\", \"item79\"]; if (filler.length) {\n    console.log(filler,\n        filler.length);\n}\nexport function crlf(a) {\r\n    console.log(a,\r\n        a);\r\n}\r\n",
  "util.mjs": "export function add(a, b) { return a + b; }\nexport function nested(x) {\n    if (x) {\n        if (x.y) {\n            console.log(x.y,\n                        x.z);\n        }\n    }\n    return add(add(1, 2), add(3, add(4, 5)));\n}\n",
  "widget.tsx": "type Props = { title: string; count: number };\n\nexport const Widget = ({ title, count }: Props) => {\n  const label = count === count ? `${title} (${count})` : title;\n  console.log(\"widget\", { title,\n                         count });\n\tif (count > 10) {\n\t\tconsole.log(\"big\");\n\t}\n  return <span title={label}>{label}</span>;\n};\n"
};

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full, base) : [path.relative(base, full).split(path.sep).join("/")];
    })
    .sort();
}

function readTree(dir: string): Map<string, Buffer> {
  return new Map(walk(dir).map((file) => [file, readFileSync(path.join(dir, file))]));
}

let tool: AnyToolDefinition;
let scratch: string;
let rxjsFiles: Map<string, Buffer>;
let mixedDir: string;

beforeAll(async () => {
  tool = await astEdit(createToolAPI());
  scratch = mkdtempSync(path.join(os.tmpdir(), "ast-edit-parity-"));
  rxjsFiles = readTree(RXJS);
  mixedDir = path.join(scratch, "mixed-src");
  for (const [file, text] of Object.entries(MIXED)) {
    mkdirSync(path.dirname(path.join(mixedDir, file)), { recursive: true });
    writeFileSync(path.join(mixedDir, file), text);
  }
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the CLI once per op, in order, on a fresh copy of `source`; returns the files afterwards. */
async function cliRewrite(source: string, ops: Array<{ pat: string; out: string }>, lang?: string): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(path.join(scratch, "cli-"));
  cpSync(source, dir, { recursive: true });
  for (const op of ops) {
    const args = ["run", "-p", op.pat, "-r", op.out, "-U", ...(lang ? ["--lang", lang] : []), dir];
    try {
      await run(CLI, args, { maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      // exit status 1 only means "no match"; anything on stderr is a real failure
      const failure = error as { code?: number; stderr?: string };
      if (failure.code !== 1 || (failure.stderr ?? "").trim() !== "") throw error;
    }
  }
  const after = readTree(dir);
  rmSync(dir, { recursive: true, force: true });
  return after;
}

/** Runs the tool as the runtime does; returns the files as its pending action would leave them. */
async function toolRewrite(files: Map<string, Buffer>, params: Record<string, unknown>) {
  const workspace = new MemoryWorkspace(files);
  const { result, actions } = await executeTool(tool, params, workspace, "parity");
  expect(result.isError).toBeFalsy();
  const after = new Map(files);
  for (const action of actions) {
    for (const change of await action.changes!.resolveChanges()) {
      if (change.kind !== "write") throw new Error(`unexpected ${change.kind} of ${change.path}`);
      after.set(change.path, Buffer.from(change.content));
    }
  }
  return { after, text: resultText(result), actions, details: result.details as { replacements: number } | undefined };
}

function expectSameTrees(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  const differing = [...expected].filter(([file, bytes]) => !actual.get(file)!.equals(bytes)).map(([file]) => file);
  if (differing.length > 0) {
    const file = differing[0]!;
    // show the first difference as text for a readable failure
    expect({ file, text: actual.get(file)!.toString("utf8") }).toEqual({ file, text: expected.get(file)!.toString("utf8") });
  }
  expect(differing).toEqual([]);
}

function changedFiles(before: Map<string, Buffer>, after: Map<string, Buffer>): number {
  return [...before].filter(([file, bytes]) => !after.get(file)!.equals(bytes)).length;
}

interface Case {
  name: string;
  ops: Array<{ pat: string; out: string }>;
  /** Cases that run on the generated JS/JSX/TSX/MJS files instead of rxjs. */
  mixed?: boolean;
  lang?: string;
}

const CASES: Case[] = [
  { name: "$$$ capture in a call", ops: [{ pat: "subscriber.next($$$A)", out: "logger.debug($$$A)" }] },
  { name: "repeated metavariable", ops: [{ pat: "this.$A = $A", out: "Object.assign(this, { $A })" }] },
  { name: "repeated metavariable in a logical expression", ops: [{ pat: "$A && $A.$B", out: "$A?.$B" }] },
  {
    name: "multi-line if body into a multi-line replacement",
    ops: [{ pat: "if ($C) { $$$B }", out: "if (!($C)) {\n  // skipped\n} else {\n  $$$B\n}" }],
  },
  {
    name: "whole function declarations, re-indented",
    ops: [{ pat: "export function $F($$$P): $R { $$$B }", out: "export const $F = ($$$P): $R => {\n  $$$B\n};" }],
  },
  { name: "deletion with an empty out", ops: [{ pat: "subscriber.complete();", out: "" }] },
  { name: "several captures reordered", ops: [{ pat: "$A ? $B : $C", out: "!($A) ? $C : $B" }] },
  { name: "arrow functions", ops: [{ pat: "($$$P) => $B", out: "function ($$$P) {\n  return $B;\n}" }] },
  { name: "object literals", ops: [{ pat: "{ next: $N }", out: "{\n  next: $N,\n  error: undefined,\n}" }] },
  {
    name: "try/catch with two multi-line bodies",
    ops: [{ pat: "try { $$$A } catch ($E) { $$$B }", out: "try {\n    $$$A\n} catch ($E) {\n    report($E);\n    $$$B\n}" }],
  },
  { name: "nested matches keep the outermost", ops: [{ pat: "new Observable($$$A)", out: "Observable.create(\n  $$$A\n)" }] },
  { name: "statement patterns", ops: [{ pat: "return new Observable($$$A);", out: "return create($$$A);" }] },
  { name: "the JavaScript file in rxjs", ops: [{ pat: "function ($$$P) { $$$B }", out: "($$$P) => {\n  $$$B\n}" }] },
  {
    name: "several ops run in sequence",
    ops: [
      { pat: "isFunction($A)", out: "typeof $A === 'function'" },
      { pat: "typeof $X === 'function'", out: "isCallable($X)" },
      { pat: "for (const $X of $Y) { $$$B }", out: "$Y.forEach(($X) => {\n  $$$B\n});" },
    ],
  },
  { name: "JS/JSX/MJS/TSX: console calls", mixed: true, ops: [{ pat: "console.log($$$A)", out: "logger.debug(\n  $$$A\n)" }] },
  { name: "JS/JSX/MJS/TSX: if bodies with tabs, CRLF, long lines", mixed: true, ops: [{ pat: "if ($C) { $$$B }", out: "when($C, () => {\n  $$$B\n});" }] },
  { name: "JS/JSX/MJS/TSX: nested calls", mixed: true, ops: [{ pat: "add($A, $B)", out: "plus($B, $A)" }] },
  { name: "JS/JSX/MJS/TSX: repeated metavariable", mixed: true, ops: [{ pat: "$A === $A", out: "!Number.isNaN($A)" }] },
  { name: "TSX only, with --lang", mixed: true, lang: "tsx", ops: [{ pat: "<span title={$T}>{$C}</span>", out: "<Label text={$C}\n  hint={$T} />" }] },
];

describe("ast_edit output is byte-identical to ast-grep run -U", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, testCase) => {
    const source = testCase.mixed ? mixedDir : RXJS;
    const before = testCase.mixed ? readTree(mixedDir) : rxjsFiles;
    const expected = await cliRewrite(source, testCase.ops, testCase.lang);
    const params = { ops: testCase.ops, paths: ["."], ...(testCase.lang ? { lang: testCase.lang } : {}) };
    const { after, details, actions } = await toolRewrite(before, params);
    // the case must exercise something: the CLI changed files and the tool counted replacements
    expect(changedFiles(before, expected)).toBeGreaterThan(0);
    expect(details?.replacements ?? 0).toBeGreaterThan(0);
    expect(actions).toHaveLength(1);
    expectSameTrees(after, expected);
  });

  test("a file that does not parse cleanly is left alone and named; the others match the CLI", async () => {
    const dir = path.join(scratch, "syntax-error-src");
    const files: Record<string, string> = {
      // `in out` variance annotations: tree-sitter-typescript parses this with ERROR nodes
      "bad.ts": "class A<in out T> {}\nconsole.log(1);\n",
      "good.ts": "export function f() {\n  console.log(2, 3);\n}\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const before = readTree(dir);
    const ops = [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }];
    const expected = await cliRewrite(dir, ops);
    const { after, text, details, actions } = await toolRewrite(before, { ops, paths: ["."] });
    expect(text).toBe(
      "AST Edit: 1 replacement in 1 file\n- good.ts: 1 replacement\n" +
        "Skipped 1 file that does not parse cleanly (resolve-bot does not edit code its parser cannot read): bad.ts",
    );
    expect(details).toMatchObject({ replacements: 1, files: [{ path: "good.ts", replacements: 1 }], skipped: ["bad.ts"] });
    expect(actions).toHaveLength(1);
    expect(after.get("bad.ts")!.equals(before.get("bad.ts")!)).toBe(true);
    expect(changedFiles(before, after)).toBe(1);
    expectSameTrees(new Map([...after].filter(([file]) => file !== "bad.ts")), new Map([...expected].filter(([file]) => file !== "bad.ts")));

    // every matching file skipped: nothing pushed, the skipped line after "No replacements made"
    const only = await toolRewrite(before, { ops, paths: ["bad.ts"] });
    expect(only.text).toBe(
      "No replacements made\nSkipped 1 file that does not parse cleanly (resolve-bot does not edit code its parser cannot read): bad.ts",
    );
    expect(only.actions).toEqual([]);
    expect(changedFiles(before, only.after)).toBe(0);
  });

  test("the command-line form (--pat/--out pairs) gives the same result as ops", async () => {
    const ops = [
      { pat: "isFunction($A)", out: "typeof $A === 'function'" },
      { pat: "Array.isArray($A)", out: "isArray($A)" },
    ];
    const expected = await cliRewrite(RXJS, ops);
    const { after } = await toolRewrite(rxjsFiles, { pat: ops.map((op) => op.pat), out: ops.map((op) => op.out) });
    expectSameTrees(after, expected);
  });
});
