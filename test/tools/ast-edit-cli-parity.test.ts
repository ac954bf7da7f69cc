/**
 * CLI parity: ast_edit's output must be byte-identical to `ast-grep run -p PAT -r OUT -U` on the
 * same files. The corpus is rxjs@7.8.2's src (a pinned devDependency: 251 .ts files and one .js
 * nobody here wrote) plus a few generated JS/JSX/TSX/MJS files with unicode, tabs, CRLF, long
 * lines and nested matches, and a file with ERROR nodes. Every case must match something, so no
 * case passes vacuously. Other languages and effect@3: ast-edit-languages-parity.test.ts.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  changedFiles,
  cliRewrite as cliRewriteIn,
  expectSameTrees,
  filesWithErrors,
  readTree,
  toolRewrite,
  type Op,
} from "../helpers/ast-grep-parity.js";

const ROOT = process.cwd();
const RXJS = path.join(ROOT, "node_modules/rxjs/src");

/** Generated non-TypeScript cases (kept inline: tsc would type-check a .tsx fixture). */
const MIXED: Record<string, string> = {
  "app.jsx":
    '// A small React-ish module: JSX, arrow functions, console calls.\nimport React from "react";\n\nexport function Greeting({ name, items }) {\n  console.log("render", name,\n    items.length);\n  const list = items.map((item) => <li key={item.id}>{item.label}</li>);\n  if (!name) {\n    console.log("no name");\n    return null;\n  }\n  return (\n    <div className="greeting">\n      <h1>Héllo, {name} — ünïcödé ✓ 😀</h1>\n      <ul>{list}</ul>\n    </div>\n  );\n}\n\nexport const double = (x) => x * 2;\nexport const same = (a) => a === a;\n',
  "nested/long-lines.ts":
    'const filler = ["item0", "item1", "item2", "item3", "item4", "item5", "item6", "item7", "item8", "item9", "item10", "item11", "item12", "item13", "item14", "item15", "item16", "item17", "item18", "item19", "item20", "item21", "item22", "item23", "item24", "item25", "item26", "item27", "item28", "item29", "item30", "item31", "item32", "item33", "item34", "item35", "item36", "item37", "item38", "item39", "item40", "item41", "item42", "item43", "item44", "item45", "item46", "item47", "item48", "item49", "item50", "item51", "item52", "item53", "item54", "item55", "item56", "item57", "item58", "item59", "item60", "item61", "item62", "item63", "item64", "item65", "item66", "item67", "item68", "item69", "item70", "item71", "item72", "item73", "item74", "item75", "item76", "item77", "item78", "item79"]; if (filler.length) {\n    console.log(filler,\n        filler.length);\n}\nexport function crlf(a) {\r\n    console.log(a,\r\n        a);\r\n}\r\n',
  "util.mjs":
    "export function add(a, b) { return a + b; }\nexport function nested(x) {\n    if (x) {\n        if (x.y) {\n            console.log(x.y,\n                        x.z);\n        }\n    }\n    return add(add(1, 2), add(3, add(4, 5)));\n}\n",
  "widget.tsx":
    'type Props = { title: string; count: number };\n\nexport const Widget = ({ title, count }: Props) => {\n  const label = count === count ? `${title} (${count})` : title;\n  console.log("widget", { title,\n                         count });\n\tif (count > 10) {\n\t\tconsole.log("big");\n\t}\n  return <span title={label}>{label}</span>;\n};\n',
};

let scratch: string;
let rxjsFiles: Map<string, Buffer>;
let mixedDir: string;

beforeAll(async () => {
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

function cliRewrite(source: string, ops: Op[], lang?: string): Promise<Map<string, Buffer>> {
  return cliRewriteIn(scratch, source, ops, lang);
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
  {
    name: "JS/JSX/MJS/TSX: if bodies with tabs, CRLF, long lines",
    mixed: true,
    ops: [{ pat: "if ($C) { $$$B }", out: "when($C, () => {\n  $$$B\n});" }],
  },
  { name: "JS/JSX/MJS/TSX: nested calls", mixed: true, ops: [{ pat: "add($A, $B)", out: "plus($B, $A)" }] },
  { name: "JS/JSX/MJS/TSX: repeated metavariable", mixed: true, ops: [{ pat: "$A === $A", out: "!Number.isNaN($A)" }] },
  {
    name: "TSX only, with --lang",
    mixed: true,
    lang: "tsx",
    ops: [{ pat: "<span title={$T}>{$C}</span>", out: "<Label text={$C}\n  hint={$T} />" }],
  },
];

describe("ast_edit output is byte-identical to ast-grep run -U", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, testCase) => {
    const source = testCase.mixed ? mixedDir : RXJS;
    const before = testCase.mixed ? readTree(mixedDir) : rxjsFiles;
    const expected = await cliRewrite(source, testCase.ops, testCase.lang);
    const params = { ops: testCase.ops, paths: ["."], ...(testCase.lang ? { lang: testCase.lang } : {}) };
    const { after, details, actions } = await toolRewrite(before, params);
    // the case must exercise something: the CLI changed files and the tool counted replacements
    expect(changedFiles(before, expected).length).toBeGreaterThan(0);
    expect(details?.replacements ?? 0).toBeGreaterThan(0);
    expect(actions).toHaveLength(1);
    expectSameTrees(after, expected);
  });

  test("a file whose tree holds ERROR nodes is rewritten exactly as the CLI rewrites it", async () => {
    const dir = path.join(scratch, "syntax-error-src");
    const files: Record<string, string> = {
      // `in out` variance annotations: tree-sitter-typescript parses this with ERROR nodes
      "bad.ts": "class A<in out T> {}\nconsole.log(1);\nfunction f( { console.log(2, 3) }\n",
      "good.ts": "export function f() {\n  console.log(2, 3);\n}\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    expect([...(await filesWithErrors(dir, ["typescript"]))]).toEqual(["bad.ts"]);
    const before = readTree(dir);
    const ops = [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }];
    const expected = await cliRewrite(dir, ops);
    const { after, text, details, actions } = await toolRewrite(before, { ops, paths: ["."] });
    expect(changedFiles(before, expected)).toEqual(["bad.ts", "good.ts"]);
    expect(text).toBe("AST Edit: 2 replacements in 2 files\n- bad.ts: 1 replacement\n- good.ts: 1 replacement");
    expect(details?.skipped).toBeUndefined();
    expect(actions).toHaveLength(1);
    expectSameTrees(after, expected);
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
