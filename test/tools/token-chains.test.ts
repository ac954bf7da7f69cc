import { Lang, parse, type SgRoot } from "@ast-grep/napi";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { GAP_KEYWORDS, holdsChain, tokenChains } from "../../src/tools/ast-grep/token-chains.js";
import { compileOp, holdsNeedles, mayMatchOp, opJob, prepareOp } from "../../src/tools/ast-grep/rewrite.js";
import type { AstLang } from "../../src/tools/ast-grep/languages.js";

const chainsOf = (pattern: string, lang: Lang = Lang.TypeScript) => tokenChains(parse(lang, pattern).root());

describe("token chains of a pattern", () => {
  test("consecutive sibling leaves, metavariables excluded", () => {
    expect(chainsOf("$A === undefined")).toEqual([["===", "undefined"]]);
    expect(chainsOf("console.log($$$A)")).toEqual([["console", ".", "log"]]);
    expect(chainsOf("new Error($$$A)")).toEqual([["new", "Error"]]);
    expect(chainsOf("this.destination.next($A)")).toEqual([
      ["this", ".", "destination"],
      [".", "next"],
    ]);
    expect(chainsOf("Option.none()")).toEqual([
      ["Option", ".", "none"],
      ["(", ")"],
    ]);
  });

  test("leaves a match may lack are left out", () => {
    // `;` may be an automatic (empty) semicolon
    expect(chainsOf("return $A;")).toEqual([]);
    // after $$$ the matcher skips unnamed leaves: `foo($$$A, b)` matches `foo(b)`, without a `,`
    expect(chainsOf("foo($$$A, b)")).toEqual([["b", ")"]]);
    expect(chainsOf("foo(a, $$$B)")).toEqual([["(", "a", ","]]);
    expect(chainsOf("$F($$$A, undefined)")).toEqual([["undefined", ")"]]);
    // `$foo` is not a metavariable for ast-grep, but is left out anyway
    expect(chainsOf("$foo.bar")).toEqual([[".", "bar"]]);
    // the pattern reduces to its single node: nothing from the wrapping statement
    expect(chainsOf("a.b")).toEqual([["a", ".", "b"]]);
  });
});

describe("holdsChain", () => {
  test("only whitespace, comments, punctuation and keywords may sit between the tokens", () => {
    const chain = ["===", "undefined"];
    expect(holdsChain("if (x === undefined) {}", chain)).toBe(true);
    expect(holdsChain("x ===\n  /* c */ // d\n undefined", chain)).toBe(true);
    expect(holdsChain("x === <!-- old\n undefined", chain)).toBe(true);
    expect(holdsChain("x === // c\r undefined", chain)).toBe(true);
    expect(holdsChain("x === // c\u2028undefined", chain)).toBe(true);
    expect(holdsChain("a === b; c = undefined;", chain)).toBe(false);
    expect(holdsChain("a === b ? c : undefined", chain)).toBe(false);
    expect(holdsChain("x === /* open undefined", chain)).toBe(false);
    expect(holdsChain("x === undefinedValue", chain)).toBe(false);
    expect(holdsChain("import type { A } from 'x'", ["import", "{"])).toBe(true);
    expect(holdsChain("import Foo, { A } from 'x'", ["import", "{"])).toBe(false);
  });

  test("word tokens must stand alone", () => {
    expect(holdsChain("renew Error()", ["new", "Error"])).toBe(false);
    expect(holdsChain("new Errors()", ["new", "Error"])).toBe(false);
    expect(holdsChain("x = new Errors(); throw new\tError()", ["new", "Error"])).toBe(true);
  });

  test("hostile texts are decided in linear time (a quadratic scan would outlast the test's timeout)", () => {
    // every `(` starts a try that reads on to the end: the first try's reading covers the others
    expect(holdsChain("(".repeat(400_000), ["(", ")"])).toBe(false);
    expect(holdsChain(`${"( ".repeat(10_000)}${"a".repeat(300_000)}`, ["(", ")"])).toBe(false);
    // each try looks for the end of an unterminated comment: the budget runs out, the answer is "maybe"
    expect(holdsChain("(/*".repeat(100_000), ["(", ")"])).toBe(true);
    // a short text is still decided exactly
    expect(holdsChain("((((x", ["(", ")"])).toBe(false);
    // comment banners (// ====…, as effect has) hold 75 `===` a line: decided exactly, not by the budget
    const rule = "// =============================================================================\n";
    const banners = Array.from({ length: 300 }, (_, i) => `${rule}// Section ${i}\n${rule}export const x${i} = a === b;\n`).join("");
    expect(holdsChain(banners, ["===", "undefined"])).toBe(false);
    expect(holdsChain(`${banners}x === undefined;\n`, ["===", "undefined"])).toBe(true);
  });

  test("occurrences a failed try read past are skipped only where that is safe", () => {
    // a word that ends a try can itself start a match
    expect(holdsChain("Effect Effect.gen(f)", ["Effect", ".", "gen"])).toBe(true);
    // a later step reading past an occurrence says nothing about a try from there
    expect(holdsChain("a(exports((exports, 1)", ["(", "exports", ","])).toBe(true);
    // a try from inside a string may take `/*` for a comment and jump over the real match
    expect(holdsChain('x = "(/*"; f(exports, 1); // */', ["(", "exports", ","])).toBe(true);
    expect(holdsChain('x = "=== /*"; y === undefined; // */', ["===", "undefined"])).toBe(true);
  });

  test("in TypeScript, a chain that occurs only in comments does not count", () => {
    // the words (`console`, `log`) are in code here; only the chain `console . log` is not
    const op = compileOp("console.log($$$A)", "logger.debug($$$A)");
    const docs =
      "/**\n * @example\n * console.log(Effect.runSync(program))\n */\nexport const log = (x: string) => console.error(x); // console.log(x)\n";
    const code = `${docs}console . log(1);\n`;
    const text = 'const s = "/* not a comment"; console.log(s); // */\n';
    for (const lang of [Lang.TypeScript, Lang.JavaScript, Lang.Tsx]) prepareOp(op, lang);
    expect(mayMatchOp(op, Lang.TypeScript, docs)).toBe(false);
    expect(mayMatchOp(op, Lang.TypeScript, code)).toBe(true);
    expect(mayMatchOp(op, Lang.TypeScript, text)).toBe(true);
    // JSX text can hold `//` that is no comment, so JavaScript and TSX files are not lexed
    expect(mayMatchOp(op, Lang.JavaScript, docs)).toBe(true);
    expect(mayMatchOp(op, Lang.Tsx, docs)).toBe(true);
    // the comment ranges only take tries away: occurrences in code are still tried
    expect(holdsChain("/* === undefined */ x === undefined", ["===", "undefined"], [0, 19])).toBe(true);
    expect(holdsChain("/* === undefined */ x === y", ["===", "undefined"], [0, 19])).toBe(false);
  });

  test("the keywords cover every keyword TypeScript knows", () => {
    const keywords: string[] = [];
    for (let kind = ts.SyntaxKind.FirstKeyword; kind <= ts.SyntaxKind.LastKeyword; kind++) keywords.push(ts.tokenToString(kind)!);
    expect(keywords.length).toBeGreaterThan(80);
    expect(keywords.filter((keyword) => !GAP_KEYWORDS.has(keyword))).toEqual([]);
  });
});

/** Real code nobody here wrote: pinned devDependencies, every file parsed once. */
const CORPORA = [
  { name: "rxjs src (TypeScript)", dir: "node_modules/rxjs/src", ext: ".ts", lang: Lang.TypeScript },
  { name: "effect src (TypeScript)", dir: "node_modules/effect/src", ext: ".ts", lang: Lang.TypeScript },
  { name: "rxjs dist/cjs (JavaScript)", dir: "node_modules/rxjs/dist/cjs", ext: ".js", lang: Lang.JavaScript },
];

const PATTERNS = [
  "$A === undefined",
  "new Error($$$A)",
  "console.log($$$A)",
  "$A.pipe($$$B)",
  "this.$A = $B",
  "$A !== null",
  "typeof $A === 'function'",
  "Symbol.iterator",
  "() => {}",
  "for (const $A of $B) $C",
  "yield* $A",
  "$A.length === 0",
  "new Subscription()",
  "this.destination.next($A)",
  "$A ? $B : undefined",
  "void 0",
  "try { $$$A } catch ($E) { $$$B }",
  "Object.keys($A)",
  "$A.subscribe({ $$$B })",
  "function* $F($$$P) { $$$B }",
  "arguments.length",
  "$F($$$A, undefined)",
  "export const $A = $B",
  "isFunction($A)",
  "subscriber.next($A)",
  "if ($A) { $$$B }",
  "return;",
  "$A?.$B",
  "!$A",
  "operate(($S, $D) => { $$$B })",
  "createOperatorSubscriber($$$A)",
  "export function $F($$$P): $R { $$$B }",
  "Effect.gen(function* () { $$$B })",
  "dual($A, $B)",
  "pipe($$$A)",
  "exports.$A = $B",
  "Object.defineProperty(exports, $A, $B)",
  "var $A = require($B)",
  "$A.call(this, $$$B)",
  "'use strict'",
  "for (var $A = 0; $A < $B; $A++) $C",
];

describe.each(CORPORA)("the prefilter never drops a file a pattern matches in: $name", ({ dir, ext, lang }) => {
  let files: Array<{ text: string; bytes: Buffer; tree: SgRoot }> = [];

  beforeAll(() => {
    const root = path.join(process.cwd(), dir);
    files = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(ext))
      .map((file) => {
        const bytes = readFileSync(path.join(root, file));
        const text = bytes.toString("utf8");
        return { text, bytes, tree: parse(lang, text) };
      });
  });

  test("every pattern, every file", () => {
    expect(files.length).toBeGreaterThan(200);
    let matchedAnywhere = 0;
    for (const pattern of PATTERNS) {
      const op = compileOp(pattern, "x");
      prepareOp(op, lang);
      const job = opJob(op);
      const dropped: string[] = [];
      /** Files the bytes check turns down although the text prefilter lets them through: it must be weaker. */
      const strongerOnBytes: string[] = [];
      let matched = 0;
      for (const file of files) {
        if (!holdsNeedles(file.bytes, job.needles(lang as AstLang)) && mayMatchOp(op, lang, file.text))
          strongerOnBytes.push(file.text.slice(0, 120));
        if (file.tree.root().findAll(pattern).length === 0) continue;
        matched++;
        if (!mayMatchOp(op, lang, file.text)) dropped.push(file.text.slice(0, 120));
      }
      expect({ pattern, dropped, strongerOnBytes }).toEqual({ pattern, dropped: [], strongerOnBytes: [] });
      if (matched > 0) matchedAnywhere++;
    }
    expect(matchedAnywhere).toBeGreaterThan(PATTERNS.length / 2); // the check is not vacuous
  });
});

describe("the token chains sharpen the prefilter", () => {
  test("most rxjs files that hold the words hold no chain", () => {
    const dir = path.join(process.cwd(), "node_modules/rxjs/src");
    const texts = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => readFileSync(path.join(dir, file), "utf8"));
    const op = compileOp("$A === undefined", "x");
    prepareOp(op, Lang.TypeScript);
    const withWord = texts.filter((text) => text.includes("undefined")).length;
    const passing = texts.filter((text) => mayMatchOp(op, Lang.TypeScript, text)).length;
    expect(withWord).toBeGreaterThan(50);
    expect(passing).toBeLessThan(withWord / 4);
  });
});
