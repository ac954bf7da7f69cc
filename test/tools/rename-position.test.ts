/**
 * /rename-symbol as an editor's F2: by position (--at path:line[:col]), every declaration kind by
 * name, the editor's options with its defaults, and the language service's refusals verbatim.
 */
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { UserError, resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import renameFactory from "../../src/tools/rename-symbol.js";
import { textAfter } from "../helpers/changes.js";

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await renameFactory(pi);
});

type Params = Record<string, unknown>;

async function rename(files: Record<string, string>, params: Params) {
  const execution = await executeTool(tool, params, new MemoryWorkspace(files), "call-1");
  const action = execution.actions[0]!;
  const after: Record<string, string> = {};
  for (const file of (action.details as { files: string[] }).files) after[file] = await textAfter(action.changes!, file);
  return { label: action.label, reply: resultText(execution.result), after };
}

async function refusal(files: Record<string, string>, params: Params): Promise<string> {
  const error = await executeTool(tool, params, new MemoryWorkspace(files), "call-1").then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as Error).message;
}

const shapes = {
  "src/shapes.ts": [
    "export function area(width: number, height: number): number {",
    "  const size = width * height;",
    "  return size;",
    "}",
    "export function perimeter(width: number, height: number): number {",
    "  return 2 * (width + height);",
    "}",
    "",
  ].join("\n"),
  "src/use.ts": 'import { area } from "./shapes";\nexport const a = area(1, 2);\n',
};

describe("rename_symbol --at: the symbol under a position", () => {
  it("renames the parameter at line:column only in its own function", async () => {
    const { label, after, reply } = await rename(shapes, { from: "w", at: "src/shapes.ts:5:27" });
    expect(label).toBe("Rename Symbol: width → w (2 references in 1 file)");
    expect(after["src/shapes.ts"]).toBe(
      shapes["src/shapes.ts"].replace("perimeter(width: number", "perimeter(w: number").replace("2 * (width + height)", "2 * (w + height)"),
    );
    expect(reply).toBe("Rename preview: width → w, at src/shapes.ts:5 (parameter): 2 references in 1 file.\nFiles: src/shapes.ts.");
  });

  it("without a column, takes the name declared on the line (or the one given as <old>)", async () => {
    expect((await rename(shapes, { from: "measure", at: "src/shapes.ts:1" })).label).toBe(
      "Rename Symbol: area → measure (3 references in 2 files)",
    );
    expect((await rename(shapes, { from: "height", to: "h", at: "src/shapes.ts:1" })).label).toBe(
      "Rename Symbol: height → h (2 references in 1 file)",
    );
    // At a use of an import, as F2 does: the import binding, keeping the exported name.
    const atUse = await rename(shapes, { from: "measure", at: "src/use.ts:2:18" });
    expect(atUse.label).toBe("Rename Symbol: area → measure (2 references in 1 file)");
    expect(atUse.after["src/use.ts"]).toBe('import { area as measure } from "./shapes";\nexport const a = measure(1, 2);\n');
  });

  it.each([
    ["not a name", { from: "x", at: "src/shapes.ts:1:33" }, "Cannot rename at src/shapes.ts:1:33: You cannot rename this element."],
    ["a number", { from: "x", at: "src/shapes.ts:6:10" }, "Cannot rename at src/shapes.ts:6:10: You cannot rename this element."],
    ["no such line", { from: "x", at: "src/shapes.ts:40" }, "src/shapes.ts has 8 lines; there is no line 40."],
    ["no such column", { from: "x", at: "src/use.ts:2:80" }, "Line 2 of src/use.ts has no column 80."],
    ["no such file", { from: "x", at: "src/nope.ts:1" }, "src/nope.ts does not exist."],
    ["not a position", { from: "x", at: "src/use.ts" }, '--at takes path:line or path:line:column (1-based), got "src/use.ts".'],
    ["the old name does not match", { from: "size", to: "n", at: "src/shapes.ts:5:27" }, "At src/shapes.ts:5:27 is width, not size."],
  ])("refuses %s, in words", async (_name, params, message) => {
    expect(await refusal(shapes, params)).toBe(message);
  });
});

describe("rename_symbol --at on a string literal type", () => {
  const files = {
    "src/anim.ts": [
      'export type Easing = "ease-in" | "ease-in-out";',
      "export const animate = (easing: Easing) => easing;",
      'animate("ease-in-out");',
      "",
    ].join("\n"),
  };

  it("renames it in its quotes everywhere, to any text a string can hold", async () => {
    const { label, after } = await rename(files, { from: "smooth-both", at: "src/anim.ts:1:36" });
    expect(label).toBe("Rename Symbol: ease-in-out → smooth-both (2 references in 1 file)");
    expect(after["src/anim.ts"]).toBe(files["src/anim.ts"].replaceAll('"ease-in-out"', '"smooth-both"'));
  });

  it("refuses text that would end or escape the string", async () => {
    expect(await refusal(files, { from: 'a"b', at: "src/anim.ts:1:36" })).toBe(
      '"a"b" cannot be written inside a string as it is: no quotes, backslashes, line breaks or ${.',
    );
  });
});

describe("rename_symbol --at on a name written in quotes wherever it occurs", () => {
  // As TypeScript's renameStringLiteralTypes6: a quoted property name, here read by element access.
  const files = {
    "src/cases.ts": ["interface Case_1 {", '  "Att 2": string', "}", "declare const c: Case_1;", 'c["Att 2"];', ""].join("\n"),
  };

  it("renames it inside its quotes, to any text a string can hold (an editor's F2 does)", async () => {
    const { after } = await rename(files, { from: "Att 3", at: "src/cases.ts:2:4" });
    expect(after["src/cases.ts"]).toBe(files["src/cases.ts"].replaceAll('"Att 2"', '"Att 3"'));
  });

  it("still asks for an identifier where the name is also written bare", async () => {
    const bare = { "src/o.ts": ['const o = { "prop": 1 };', "o.prop;", ""].join("\n") };
    expect(await refusal(bare, { from: "a b", at: "src/o.ts:1:14" })).toBe('"a b" is not a valid identifier.');
  });
});

describe("rename_symbol --at on a JSX attribute name", () => {
  // As TypeScript's tsxRename9: an attribute no props type declares is renamed where it is written.
  const files = {
    "src/view.tsx": [
      "declare namespace JSX {",
      "  interface Element {}",
      "  interface IntrinsicElements {}",
      "  interface ElementAttributesProperty { props: {} }",
      "}",
      "declare function Button(props: { label?: string }): JSX.Element;",
      "const b = <Button data-id />;",
      "",
    ].join("\n"),
  };

  it("takes a hyphenated name, as JSX does", async () => {
    const { after } = await rename(files, { from: "data-key", at: "src/view.tsx:7:20" });
    expect(after["src/view.tsx"]).toBe(files["src/view.tsx"].replace("<Button data-id />", "<Button data-key />"));
  });

  it("refuses a name JSX cannot write", async () => {
    expect(await refusal(files, { from: "-key", at: "src/view.tsx:7:20" })).toBe('"-key" is not a valid JSX attribute name.');
  });
});

describe("rename_symbol by name: every declaration kind an editor renames", () => {
  const kinds = {
    "src/lib.ts": [
      "export default function greet(): string {",
      '  return "hi";',
      "}",
      'export const config = { retries: 3, "timeout": 10 };',
      "export enum Color {",
      "  Red,",
      "  Green,",
      "}",
      "/**",
      " * @param payload what to send",
      " */",
      "export function send(payload: string): string {",
      "  return payload;",
      "}",
      "export as namespace LibGlobal;",
      "",
    ].join("\n"),
    "src/app.ts": [
      'import hello from "./lib";',
      'import * as lib from "./lib";',
      'import { send as post } from "./lib";',
      'import fs = require("./lib");',
      "const { retries, timeout: wait } = lib.config;",
      "export const out = [hello(), post(String(retries + wait)), lib.Color.Green, fs.config.timeout];",
      "",
    ].join("\n"),
  };
  const cases: Array<[string, string, string, string]> = [
    ["a default import binding", "hello", "hi", "Rename Symbol: hello → hi (2 references in 1 file)"],
    ["a namespace import", "lib", "library", "Rename Symbol: lib → library (3 references in 1 file)"],
    ["an aliased import", "post", "postIt", "Rename Symbol: post → postIt (2 references in 1 file)"],
    ["an import = require()", "fs", "files", "Rename Symbol: fs → files (2 references in 1 file)"],
    ["a parameter (and its JSDoc @param)", "payload", "body", "Rename Symbol: payload → body (3 references in 1 file)"],
    ["a destructured binding", "wait", "delay", "Rename Symbol: wait → delay (2 references in 1 file)"],
    ["a string-keyed property", "timeout", "limit", "Rename Symbol: timeout → limit (3 references in 2 files)"],
    ["an enum member", "Green", "Lime", "Rename Symbol: Green → Lime (2 references in 2 files)"],
  ];
  it.each(cases)("%s", async (_kind, from, to, label) => {
    expect((await rename(kinds, { from, to })).label).toBe(label);
  });

  it("an object-literal property: the destructured variable of the same name is another symbol, so both are listed", async () => {
    expect(await refusal(kinds, { from: "retries", to: "attempts" })).toBe(
      "retries is declared 2 times; repeat with --at <path:line> (or --file <path>, or Container.name) to say which:\n- src/app.ts:5 (const)\n- src/lib.ts:4 (property in config)",
    );
    const { label, after } = await rename(kinds, { from: "attempts", at: "src/lib.ts:4:25" });
    expect(label).toBe("Rename Symbol: retries → attempts (2 references in 2 files)");
    expect(after["src/lib.ts"]).toContain('export const config = { attempts: 3, "timeout": 10 };');
    expect(after["src/app.ts"]).toContain("const { attempts: retries, timeout: wait } = lib.config;");
  });

  it("export as namespace is found, and TypeScript's refusal is quoted", async () => {
    expect(await refusal(kinds, { from: "LibGlobal", to: "Lib" })).toBe("Cannot rename LibGlobal: You cannot rename this element.");
  });

  it("renames exactly the right spots for a parameter, its JSDoc and a string-keyed property", async () => {
    const { after } = await rename(kinds, { from: "payload", to: "body" });
    expect(after["src/lib.ts"]).toContain(
      " * @param body what to send\n */\nexport function send(body: string): string {\n  return body;\n}",
    );
    const keyed = await rename(kinds, { from: "timeout", to: "limit" });
    expect(keyed.after["src/lib.ts"]).toContain('export const config = { retries: 3, "limit": 10 };');
    expect(keyed.after["src/app.ts"]).toContain("const { retries, limit: wait } = lib.config;");
    expect(keyed.after["src/app.ts"]).toContain("fs.config.limit];");
  });

  it("lists ambiguous locals with path:line; --at picks one", async () => {
    expect(await refusal(shapes, { from: "width", to: "w" })).toBe(
      "width is declared 2 times; repeat with --at <path:line> (or --file <path>, or Container.name) to say which:\n- src/shapes.ts:1 (parameter in area)\n- src/shapes.ts:5 (parameter in perimeter)",
    );
    expect((await rename(shapes, { from: "width", to: "w", at: "src/shapes.ts:1" })).label).toBe(
      "Rename Symbol: width → w (2 references in 1 file)",
    );
  });
});

describe("rename_symbol: refusals of the language service, verbatim", () => {
  const files = {
    "node_modules/left-pad/index.d.ts": "export declare function leftPad(s: string, n: number): string;\n",
    "node_modules/left-pad/package.json": '{ "name": "left-pad", "types": "index.d.ts" }\n',
    "src/a.ts": 'import { leftPad } from "left-pad";\nexport const x = leftPad("a", 2).length;\n',
  };
  it("a symbol from node_modules: F2 renames the import binding only; without prefix/suffix text it refuses", async () => {
    for (const params of [
      { from: "leftPad", to: "pad" },
      { from: "pad", at: "src/a.ts:2:18" },
    ]) {
      const { after } = await rename(files, params);
      expect(after["src/a.ts"]).toBe('import { leftPad as pad } from "left-pad";\nexport const x = pad("a", 2).length;\n');
    }
    expect(await refusal(files, { from: "leftPad", to: "pad", providePrefixAndSuffixTextForRename: false })).toBe(
      "Cannot rename leftPad: You cannot rename elements that are defined in a 'node_modules' folder.",
    );
    expect(await refusal(files, { from: "pad", at: "src/a.ts:2:18", providePrefixAndSuffixTextForRename: false })).toBe(
      "Cannot rename at src/a.ts:2:18: You cannot rename elements that are defined in a 'node_modules' folder.",
    );
  });
  it("a standard library symbol by position", async () => {
    expect(await refusal(files, { from: "size", at: "src/a.ts:2:34" })).toBe(
      "Cannot rename at src/a.ts:2:34: You cannot rename elements that are defined in the standard TypeScript library.",
    );
  });
});

describe("rename_symbol: editor options, with the editor's defaults", () => {
  const files = {
    "src/a.ts":
      '// uses total\nexport const total = 1;\nexport const label = "total";\nexport const shape = { total };\nexport { total as sum };\n',
  };
  it("defaults: not in comments or strings; shorthand properties and re-exports keep their public name", async () => {
    const { after } = await rename(files, { from: "total", to: "count" });
    expect(after["src/a.ts"]).toBe(
      '// uses total\nexport const count = 1;\nexport const label = "total";\nexport const shape = { total: count };\nexport { count as sum };\n',
    );
  });
  it("--find-in-comments, --find-in-strings, --no-provide-prefix-and-suffix-text-for-rename", async () => {
    const { after } = await rename(files, {
      from: "total",
      to: "count",
      findInComments: true,
      findInStrings: true,
      providePrefixAndSuffixTextForRename: false,
    });
    expect(after["src/a.ts"]).toBe(
      '// uses count\nexport const count = 1;\nexport const label = "count";\nexport const shape = { count };\nexport { count as sum };\n',
    );
  });
});

describe("on a line (a review comment's): oneNameOnLine", () => {
  const util = {
    "src/util.ts": 'export function total(price: number, qty: number) {\n  return price * qty;\n}\nexport const CURRENCY = "EUR";\n',
    "src/use.ts": 'import { total, CURRENCY } from "./util";\nexport const shown = `${total(1, 2)} ${CURRENCY}`;\n',
  };

  test("the new name alone renames the one name on the line", async () => {
    const { label } = await rename(util, { from: "CODE", at: "src/util.ts:4", oneNameOnLine: true });
    expect(label).toBe("Rename Symbol: CURRENCY → CODE (3 references in 2 files)");
  });

  test("a line with several names is refused, naming them; the old name picks one", async () => {
    expect(await refusal(util, { from: "sum", at: "src/util.ts:1", oneNameOnLine: true })).toBe(
      "Line 1 of src/util.ts has 3 names (total, price, qty); say which: `/rename-symbol <from> <to>`.",
    );
    const { label } = await rename(util, { from: "total", to: "sum", at: "src/util.ts:1", oneNameOnLine: true });
    expect(label).toBe("Rename Symbol: total → sum (3 references in 2 files)");
  });
});
