/**
 * TypeScript's own fourslash rename tests (microsoft/TypeScript, Apache-2.0, tests/cases/fourslash/),
 * ported as data for `/rename-symbol <new> --at path:line:col`. Each case names its source.
 *
 * The files keep fourslash's markup: `[|…|]` is a range, `{| … |}` range data and `/*n*\/` markers
 * are dropped. Ranges are numbered as fourslash's `test.ranges()` numbers them (file order, then
 * position, an enclosing "context" range before the name inside it). A check renames from each range
 * in `at` and expects exactly the ranges in `expect` to change — to the new name with the location's
 * prefix/suffix text (`{ range, prefix, suffix }`) — and nothing else, in any file. `verify.renameLocations`
 * calls map one to one; loops over `goTo.position(range.start)` become one check with every range in `at`.
 */
export type ExpectedLocation = number | { range: number; prefix?: string; suffix?: string };

export interface RenameCheck {
  at: number[];
  expect: ExpectedLocation[];
  findInComments?: boolean;
  findInStrings?: boolean;
  providePrefixAndSuffixTextForRename?: boolean;
}

export interface RenameCase {
  source: string;
  /** Files in the test's order, as fourslash text (the `////` lines). */
  files: Array<[string, string]>;
  checks: RenameCheck[];
  adapted?: string;
}

const lines = (...text: string[]) => text.join("\n");

/**
 * The file tsxRename10 to tsxRename13 share, each marking other names as ranges (`marks`: text and its
 * marked form, everywhere it occurs). tsxRename10 and 11 also declare `type StatelessElement`, and 10 has
 * one more element, `<MainButton goTo />`.
 */
function mainButtonFile(variant: { stateless: boolean; goToShorthand: boolean }, marks: Array<[string, string]>): string {
  const text = lines(
    " declare module JSX {",
    ...(variant.stateless ? ["     type StatelessElement = JSX.Element | null;"] : []),
    "     interface Element { }",
    "     interface IntrinsicElements {",
    "     }",
    "     interface ElementAttributesProperty { props; }",
    " }",
    " interface ClickableProps {",
    "     children?: string;",
    "     className?: string;",
    " }",
    " interface ButtonProps extends ClickableProps {",
    "     onClick(event?: React.MouseEvent<HTMLButtonElement>): void;",
    " }",
    " interface LinkProps extends ClickableProps {",
    "     goTo: string;",
    " }",
    " declare function MainButton(buttonProps: ButtonProps): JSX.Element;",
    " declare function MainButton(linkProps: LinkProps): JSX.Element;",
    " declare function MainButton(props: ButtonProps | LinkProps): JSX.Element;",
    " let opt = <MainButton />;",
    ' let opt = <MainButton children="chidlren" />;',
    " let opt = <MainButton onClick={()=>{}} />;",
    " let opt = <MainButton onClick={()=>{}} ignore-prop />;",
    ' let opt = <MainButton goTo="goTo" />;',
    ...(variant.goToShorthand ? [" let opt = <MainButton goTo />;"] : []),
    " let opt = <MainButton wrong />;",
  );
  return marks.reduce((marked, [from, to]) => marked.replaceAll(from, to), text);
}

const JSX_PRESERVE_NO_LIB: [string, string] = ["tsconfig.json", '{"compilerOptions":{"jsx":"preserve","noLib":true}}'];
const JSX_ADAPTED = "the test's `// @jsx: preserve` and `// @noLib: true` as the project's tsconfig.json";

export const RENAME_CASES: RenameCase[] = [
  {
    source: "tests/cases/fourslash/renameReExportDefault.ts",
    files: [
      [
        "a.ts",
        lines(
          'export { default } from "./b";',
          '[|export { default as [|{| "contextRangeIndex": 0 |}b|] } from "./b";|]',
          'export { default as bee } from "./b";',
          '[|import { default as [|{| "contextRangeIndex": 2 |}b|] } from "./b";|]',
          'import { default as bee } from "./b";',
          '[|import [|{| "contextRangeIndex": 4 |}b|] from "./b";|]',
        ),
      ],
      ["b.ts", lines('[|const [|{| "contextRangeIndex": 6 |}b|] = 0;|]', '[|export default [|{| "contextRangeIndex": 8 |}b|];|]')],
    ],
    // [r0Def, r0, r1Def, r1, r2Def, r2, r3Def, r3, r4Def, r4] = 0..9
    checks: [
      { at: [1], expect: [1] },
      { at: [3], expect: [3] },
      { at: [5], expect: [5] },
      { at: [7, 9], expect: [1, 3, 5, 7, 9] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameCrossJsTs01.ts",
    files: [
      ["a.js", '[|exports.[|{| "contextRangeIndex": 0 |}area|] = function (r) { return r * r; }|]'],
      ["b.ts", lines("[|import { [|{| \"contextRangeIndex\": 2 |}area|] } from './a';|]", "var t = [|area|](10);")],
    ],
    // [r0Def, r0, r1Def, r1, r2] = 0..4
    checks: [
      { at: [1], expect: [1, 3, 4] },
      { at: [3, 4], expect: [{ range: 3, prefix: "area as " }, 4] },
    ],
  },
  {
    source: "tests/cases/fourslash/findAllReferencesDynamicImport3.ts",
    files: [
      [
        "foo.ts",
        lines(
          '[|export function /*0*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 0 |}bar|]() { return "bar"; }|]',
          'import(\'./foo\').then(([|{ /*1*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 2 |}bar|] }|]) => undefined);',
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1] = 0..3
    checks: [
      { at: [1], expect: [1, { range: 3, suffix: ": bar" }] },
      { at: [3], expect: [{ range: 3, prefix: "bar: " }] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringDeclarationInForOf.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          '    [|[|{| "declarationRangeIndex": 0 |}property1|]: number;|]',
          "    property2: string;",
          "}",
          "var elems: I[];",
          "",
          'for ([|let { [|{| "declarationRangeIndex": 2 |}property1|] } of elems|]) {',
          "    [|property1|]++;",
          "}",
          'for ([|let { [|{| "declarationRangeIndex": 5 |}property1|]: p2 } of elems|]) {',
          "}",
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1, r2, r3Def, r3] = 0..6
    checks: [
      { at: [1, 6], expect: [1, { range: 3, suffix: ": property1" }, 6] },
      { at: [3, 4], expect: [{ range: 3, prefix: "property1: " }, 4] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameUMDModuleAlias1.ts",
    files: [
      [
        "0.d.ts",
        lines(" export function doThing(): string;", " export function doTheOtherThing(): void;", " export as namespace [|myLib|];"),
      ],
      ["1.ts", lines(' /// <reference path="0.d.ts" />', " [|myLib|].doThing();")],
    ],
    checks: [{ at: [0, 1], expect: [0, 1] }],
  },
  {
    source: "tests/cases/fourslash/renameLocationsForFunctionExpression02.ts",
    files: [
      [
        "test.ts",
        lines(
          "function f() {",
          "    ",
          "}",
          "var x = function [|f|](g: any, h: any) {",
          "",
          "    let helper = function f(): any { f(); }",
          "",
          "    let foo = () => [|f|]([|f|], g);",
          "}",
        ),
      ],
    ],
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2] }],
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport02.ts",
    files: [
      [
        "test.ts",
        lines(
          "export default function /*1*/[|DefaultExportedFunction|]() {",
          "    return /*2*/[|DefaultExportedFunction|]",
          "}",
          "/**",
          ' *  Commenting [|{| "inComment": true |}DefaultExportedFunction|]',
          " */",
          "",
          "var x: typeof /*3*/[|DefaultExportedFunction|];",
          "",
          "var y = /*4*/[|DefaultExportedFunction|]();",
        ),
      ],
    ],
    checks: [{ at: [0, 1, 3, 4], expect: [0, 1, 2, 3, 4], findInComments: true }],
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport03.ts",
    files: [
      [
        "test.ts",
        lines(
          "/**",
          " *  Commenting [|f|]",
          " */",
          "function /*1*/[|f|]() {",
          "    return 100;",
          "}",
          "",
          "export default /*2*/[|f|];",
          "",
          "var x: typeof /*3*/[|f|];",
          "",
          "var y = /*4*/[|f|]();",
          "",
          "namespace /*5*/[|f|] {",
          "    var local = 100;",
          "}",
        ),
      ],
    ],
    // The test renames from each marker, which sit at ranges 1–5.
    checks: [{ at: [1, 2, 3, 4, 5], expect: [0, 1, 2, 3, 4, 5], findInComments: true }],
  },
  {
    source: "tests/cases/fourslash/renameInheritedProperties1.ts",
    files: [
      ["test.ts", lines(" class class1 extends class1 {", "    [|propName|]: string;", " }", "", " var v: class1;", " v.[|propName|];")],
    ],
    checks: [{ at: [0, 1], expect: [0, 1] }],
  },
  {
    source: "tests/cases/fourslash/renameInheritedProperties6.ts",
    files: [
      [
        "test.ts",
        lines(
          " interface C extends D {",
          "     propD: number;",
          " }",
          " interface D extends C {",
          "     [|propC|]: number;",
          " }",
          " var d: D;",
          " d.[|propC|];",
        ),
      ],
    ],
    checks: [{ at: [0, 1], expect: [0, 1] }],
  },
  {
    source: "tests/cases/fourslash/renameModuleExportsProperties3.ts",
    files: [["a.js", lines('[|class [|{| "contextRangeIndex": 0 |}A|] {}|]', "module.exports = { [|A|] }")]],
    // [r0Def, r0, r1] = 0..2
    checks: [
      { at: [1], expect: [1, { range: 2, prefix: "A: " }], providePrefixAndSuffixTextForRename: true },
      { at: [2], expect: [1, { range: 2, prefix: "A: " }], providePrefixAndSuffixTextForRename: true },
    ],
  },
  {
    source: "tests/cases/fourslash/renameAliasExternalModule.ts",
    files: [
      ["a.ts", lines("module SomeModule { export class SomeClass { } }", "export = SomeModule;")],
      ["b.ts", lines('import [|M|] = require("./a");', "import C = [|M|].SomeClass;")],
    ],
    checks: [{ at: [0, 1], expect: [0, 1] }],
  },
  {
    source: "tests/cases/fourslash/renameDefaultImport.ts",
    files: [
      [
        "B.ts",
        lines(
          '[|export default class /*1*/[|{| "isWriteAccess": true, "isDefinition": true, "declarationRangeIndex": 0 |}B|] {',
          "    test() {",
          "    }",
          "}|]",
        ),
      ],
      [
        "A.ts",
        lines(
          '[|import [|{| "isWriteAccess": true, "isDefinition": true, "declarationRangeIndex": 2 |}B|] from "./B";|]',
          "let b = new [|B|]();",
          "b.test();",
        ),
      ],
    ],
    // [CDef, C, B0Def, B0, B1] = 0..4
    checks: [
      { at: [1], expect: [1, 3, 4] },
      { at: [3, 4], expect: [3, 4] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameJsExports01.ts",
    files: [
      ["a.js", '[|exports.[|{| "contextRangeIndex": 0 |}area|] = function (r) { return r * r; }|]'],
      ["b.js", lines("var mod = require('./a');", "var t = mod./*1*/[|area|](10);")],
      ["tsconfig.json", '{"compilerOptions":{"allowJs":true}}'],
    ],
    // rangesWithSameTextAreRenameLocations("area"): ranges 1 and 2 (range 0 is the context).
    checks: [{ at: [1, 2], expect: [1, 2] }],
    adapted: "the test's `// @allowJs: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/transitiveExportImports3.ts",
    files: [
      ["a.ts", '[|export function /*f*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 0 |}f|]() {}|]'],
      [
        "b.ts",
        lines(
          '[|export { [|{| "contextRangeIndex": 2 |}f|] as /*g0*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 2 |}g|] } from "./a";|]',
          '[|import { /*f2*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 5 |}f|] } from "./a";|]',
          '[|import { /*g1*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 7 |}g|] } from "./b";|]',
        ),
      ],
    ],
    // [f0Def, f0, f1Def, f1, g0, f2Def, f2, g1Def, g1] = 0..8
    checks: [
      { at: [1, 3], expect: [1, 3, 6] },
      { at: [6], expect: [{ range: 6, prefix: "f as " }] },
      { at: [4], expect: [4, 8] },
      { at: [8], expect: [{ range: 8, prefix: "g as " }] },
    ],
  },
  {
    source: "tests/cases/fourslash/findAllRefsReExportRightNameWrongSymbol.ts",
    files: [
      ["a.ts", '[|export const /*a*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 0 |}x|] = 0;|]'],
      ["b.ts", '[|export const /*b*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 2 |}x|] = 0;|]'],
      [
        "c.ts",
        lines(
          '[|export { /*cFromB*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 4 |}x|] } from "./b";|]',
          '[|import { /*cFromA*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 6 |}x|] } from "./a";|]',
          "/*cUse*/[|x|];",
        ),
      ],
      ["d.ts", '[|import { /*d*/[|{| "isWriteAccess": true, "isDefinition": true, "contextRangeIndex": 9 |}x|] } from "./c";|]'],
    ],
    // [aDef, a, bDef, b, cFromBDef, cFromB, cFromADef, cFromA, cUse, dDef, d] = 0..10
    checks: [
      { at: [1], expect: [1, 7, 8] },
      { at: [7, 8], expect: [{ range: 7, prefix: "x as " }, 8] },
      { at: [3], expect: [3, { range: 5, suffix: " as x" }] },
      { at: [5], expect: [{ range: 5, prefix: "x as " }, 10] },
      { at: [10], expect: [{ range: 10, prefix: "x as " }] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameJsThisProperty02.ts",
    files: [
      ["a.js", lines("function bar() {", "    this./**/[|x|] = 10;", "}", "var t = new bar();", "t.[|x|] = 11;")],
      ["tsconfig.json", '{"compilerOptions":{"allowJs":true}}'],
    ],
    checks: [{ at: [0], expect: [0, 1] }],
    adapted: "the test's `// @allowJs: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/renameJsThisProperty04.ts",
    files: [
      ["a.js", lines("class C {", "  constructor(y) {", "    this.[|x|] = y;", "  }", "}", "var t = new C(12);", "t./**/[|x|] = 11;")],
      ["tsconfig.json", '{"compilerOptions":{"allowJs":true}}'],
    ],
    // The marker is at range 1.
    checks: [{ at: [1], expect: [0, 1] }],
    adapted: "the test's `// @allowJs: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/renameCrossJsTs02.ts",
    files: [
      ["a.js", "exports./**/[|area|] = function (r) { return r * r; }"],
      ["b.ts", lines("import { [|area|] } from './a';", "var t = [|area|](10);")],
      ["tsconfig.json", '{"compilerOptions":{"allowJs":true}}'],
    ],
    // The marker is at range 0.
    checks: [{ at: [0], expect: [0, 1, 2] }],
    adapted: "the test's `// @allowJs: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentInForOf.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          '    [|[|{| "declarationRangeIndex": 0 |}property1|]: number;|]',
          "    property2: string;",
          "}",
          "var elems: I[];",
          "",
          'var [|[|{| "declarationRangeIndex": 2 |}property1|]: number|], p2: number;',
          'for ([|{ [|{| "declarationRangeIndex": 4 |}property1|] } of elems|]) {',
          "    [|property1|]++;",
          "}",
          'for ([|{ [|{| "declarationRangeIndex": 7 |}property1|]: p2 } of elems|]) {',
          "}",
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1, r2Def, r2, r3, r4Def, r4] = 0..8
    checks: [
      { at: [1, 8], expect: [1, { range: 5, suffix: ": property1" }, 8] },
      { at: [3, 5, 6], expect: [3, { range: 5, prefix: "property1: " }, 6] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentNestedInFor.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface MultiRobot {",
          "    name: string;",
          "    skills: {",
          '        [|[|{| "declarationRangeIndex": 0 |}primary|]: string;|]',
          "        secondary: string;",
          "    };",
          "}",
          'let multiRobot: MultiRobot, [|[|{| "declarationRangeIndex": 2 |}primary|]: string|], secondary: string, primaryA: string, secondaryA: string, i: number;',
          'for ([|{ skills: { [|{| "declarationRangeIndex": 4 |}primary|]: primaryA, secondary: secondaryA } } = multiRobot|], i = 0; i < 1; i++) {',
          "    primaryA;",
          "}",
          'for ([|{ skills: { [|{| "declarationRangeIndex": 6 |}primary|], secondary } } = multiRobot|], i = 0; i < 1; i++) {',
          "    [|primary|];",
          "}",
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1, r2Def, r2, r3Def, r3, r4] = 0..8
    checks: [
      { at: [1, 5], expect: [1, 5, { range: 7, suffix: ": primary" }] },
      { at: [3, 7, 8], expect: [3, { range: 7, prefix: "primary: " }, 8] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentNestedInFor2.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface MultiRobot {",
          "    name: string;",
          "    skills: {",
          "        primary: string;",
          "        secondary: string;",
          "    };",
          "}",
          "let multiRobot: MultiRobot, [|primary|]: string;",
          "for ({ skills: { primary: primaryA, secondary: secondaryA } } = multiRobot, i = 0; i < 1; i++) {",
          "    console.log(primaryA);",
          "}",
          "for ({ skills: { [|primary|], secondary } } = multiRobot, i = 0; i < 1; i++) {",
          "    console.log([|primary|]);",
          "}",
        ),
      ],
    ],
    // The test predates prefix and suffix text: `verify.renameLocations(false, false)` from each range expects exactly the ranges.
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2], providePrefixAndSuffixTextForRename: false }],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentNestedInForOf2.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface MultiRobot {",
          "    name: string;",
          "    skills: {",
          '        [|[|{| "declarationRangeIndex": 0 |}primary|]: string;|]',
          "        secondary: string;",
          "    };",
          "}",
          'let multiRobots: MultiRobot[], [|[|{| "declarationRangeIndex": 2 |}primary|]: string|];',
          'for ([|{ skills: { [|{| "declarationRangeIndex": 4 |}primary|]: primaryA, secondary: secondaryA } } of multiRobots|]) {',
          "    console.log(primaryA);",
          "}",
          'for ([|{ skills: { [|{| "declarationRangeIndex": 6 |}primary|], secondary } } of multiRobots|]) {',
          "    console.log([|primary|]);",
          "}",
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1, r2Def, r2, r3Def, r3, r4] = 0..8
    checks: [
      { at: [1, 5], expect: [1, 5, { range: 7, suffix: ": primary" }] },
      { at: [3, 7, 8], expect: [3, { range: 7, prefix: "primary: " }, 8] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentNestedInArrayLiteral.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          '    [|[|{| "declarationRangeIndex": 0 |}property1|]: number;|]',
          "    property2: string;",
          "}",
          'var elems: I[], p1: number, [|[|{| "declarationRangeIndex": 2 |}property1|]: number|];',
          '[|[{ [|{| "declarationRangeIndex": 4 |}property1|]: p1 }] = elems;|]',
          '[|[{ [|{| "declarationRangeIndex": 6 |}property1|] }] = elems;|]',
        ),
      ],
    ],
    // [r0Def, r0, r1Def, r1, r2Def, r2, r3Def, r3] = 0..7
    checks: [
      { at: [1, 5], expect: [1, 5, { range: 7, suffix: ": property1" }] },
      { at: [3, 7], expect: [3, { range: 7, prefix: "property1: " }] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentNestedInArrayLiteral2.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          "    property1: number;",
          "    property2: string;",
          "}",
          "var elems: I[], p1: number, [|property1|]: number;",
          "[{ property1: p1 }] = elems;",
          "[{ [|property1|] }] = elems;",
        ),
      ],
    ],
    // The test predates prefix and suffix text: `verify.renameLocations(false, false)` from each range expects exactly the ranges.
    checks: [{ at: [0, 1], expect: [0, 1], providePrefixAndSuffixTextForRename: false }],
  },
  {
    source: "tests/cases/fourslash/renameDestructuringAssignmentInForOf2.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          "    property1: number;",
          "    property2: string;",
          "}",
          "var elems: I[];",
          "",
          "var [|property1|]: number, p2: number;",
          "for ({ [|property1|] } of elems) {",
          "    [|property1|]++;",
          "}",
          "for ({ property1: p2 } of elems) {",
          "}",
        ),
      ],
    ],
    // The test predates prefix and suffix text: `verify.renameLocations(false, false)` from each range expects exactly the ranges.
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2], providePrefixAndSuffixTextForRename: false }],
  },
  {
    source: "tests/cases/fourslash/renameDefaultLibDontWork.ts",
    files: [["file1.ts", lines(' [|var [|{| "declarationRangeIndex": 0 |}test|] = "foo";|]', " console.log([|test|]);")]],
    // [r0Def, ...ranges] = 0..2; from ranges[0], with comments, exactly the ranges (nothing in the default library's comments).
    checks: [{ at: [1], expect: [1, 2], findInComments: true }],
  },
  {
    source: "tests/cases/fourslash/renameDeclarationKeywords.ts",
    files: [
      [
        "test.ts",
        lines(
          '[|{| "id": "baseDecl" |}class [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "baseDecl" |}Base|] {}|]',
          '[|{| "id": "implemented1Decl" |}interface [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "implemented1Decl" |}Implemented1|] {}|]',
          '[|{| "id": "classDecl1" |}[|class|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "classDecl1" |}C1|] [|extends|] [|Base|] [|implements|] [|Implemented1|] {',
          '    [|{| "id": "getDecl" |}[|get|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "getDecl" |}e|]() { return 1; }|]',
          '    [|{| "id": "setDecl" |}[|set|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "setDecl" |}e|](v) {}|]',
          "}|]",
          '[|{| "id": "interfaceDecl1" |}[|interface|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "interfaceDecl1" |}I1|] [|extends|] [|Base|] { }|]',
          '[|{| "id": "typeDecl" |}[|type|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "typeDecl" |}T|] = { }|]',
          '[|{| "id": "enumDecl" |}[|enum|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "enumDecl" |}E|] { }|]',
          '[|{| "id": "namespaceDecl" |}[|namespace|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "namespaceDecl" |}N|] { }|]',
          '[|{| "id": "moduleDecl" |}[|module|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "moduleDecl" |}M|] { }|]',
          '[|{| "id": "functionDecl" |}[|function|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "functionDecl" |}fn|]() {}|]',
          '[|{| "id": "varDecl" |}[|var|] [|{| "isWriteAccess": false, "isDefinition": true, "contextRangeId": "varDecl" |}x|];|]',
          '[|{| "id": "letDecl" |}[|let|] [|{| "isWriteAccess": false, "isDefinition": true, "contextRangeId": "letDecl" |}y|];|]',
          '[|{| "id": "constDecl" |}[|const|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeId": "constDecl" |}z|] = 1;|]',
        ),
      ],
    ],
    // baseDecl 0, its name 1; implemented1Decl 2, name 3; classDecl1 4, class 5, C1 6, extends 7, Base 8, implements 9,
    // Implemented1 10; getDecl 11, get 12, e 13; setDecl 14, set 15, e 16; interfaceDecl1 17, interface 18, I1 19,
    // extends 20, Base 21; then each declaration, its keyword and its name: type 22–24, enum 25–27, namespace 28–30,
    // module 31–33, function 34–36, var 37–39, let 40–42, const 43–45.
    checks: [
      { at: [5], expect: [6] },
      { at: [7], expect: [1, 8, 21] },
      { at: [9], expect: [3, 10] },
      { at: [12, 15], expect: [13, 16] },
      { at: [18], expect: [19] },
      { at: [20], expect: [1, 8, 21] },
      { at: [23], expect: [24] },
      { at: [26], expect: [27] },
      { at: [29], expect: [30] },
      { at: [32], expect: [33] },
      { at: [35], expect: [36] },
      { at: [38], expect: [39] },
      { at: [41], expect: [42] },
      { at: [44], expect: [45] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameModifiers.ts",
    files: [
      [
        "test.ts",
        lines(
          '[|[|declare|] [|abstract|] class [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -3 |}C1|] {',
          '    [|[|static|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}a|];|]',
          '    [|[|readonly|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}b|];|]',
          '    [|[|public|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}c|];|]',
          '    [|[|protected|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}d|];|]',
          '    [|[|private|] [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}e|];|]',
          "}|]",
          '[|[|const|] enum [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}E|] {',
          "}|]",
          '[|[|async|] function [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -2 |}fn|]() {}|]',
          '[|[|export|] [|default|] class [|{| "isWriteAccess": true, "isDefinition": true, "contextRangeDelta": -3 |}C2|] {}|]',
        ),
      ],
    ],
    // class1Def 0, declare 1, abstract 2, C1 3; then each member's declaration, modifier and name: a 4–6, b 7–9,
    // c 10–12, d 13–15, e 16–18; enum 19–21 (const 20), function 22–24 (async 23); class2Def 25, export 26, default 27, C2 28.
    checks: [
      { at: [1, 2], expect: [3] },
      { at: [5], expect: [6] },
      { at: [8], expect: [9] },
      { at: [11], expect: [12] },
      { at: [14], expect: [15] },
      { at: [17], expect: [18] },
      { at: [20], expect: [21] },
      { at: [23], expect: [24] },
      { at: [26, 27], expect: [28] },
    ],
  },
  {
    source: "tests/cases/fourslash/renameTemplateLiteralsDefinePropertyJs.ts",
    files: [
      [
        "a.js",
        lines(
          "let obj = {};",
          "",
          "Object.defineProperty(obj, `[|prop|]`, { value: 0 });",
          "",
          "obj = {",
          '    [|[`[|{| "contextRangeIndex": 1 |}prop|]`]: 1|]',
          "};",
          "",
          "obj.[|prop|];",
          "obj['[|prop|]'];",
          'obj["[|prop|]"];',
          "obj[`[|prop|]`];",
        ),
      ],
      ["tsconfig.json", '{"compilerOptions":{"allowJs":true}}'],
    ],
    // rangesWithSameTextAreRenameLocations('prop'): every range but the context range 1.
    checks: [{ at: [0, 2, 3, 4, 5, 6], expect: [0, 2, 3, 4, 5, 6] }],
    adapted: "the test's `// @allowJs: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/renamePropertyAccessExpressionHeritageClause.ts",
    files: [
      [
        "test.ts",
        lines(
          " interface I {}",
          " interface CTor {",
          "     new (hour: number, minute: number): I",
          " }",
          " var x: {",
          "     B : CTor",
          " };",
          " class B {}",
          " function foo() {",
          "     return {[|B|]: B};",
          " }",
          " class C extends (foo()).[|B|] {}",
          " class C1 extends foo().[|B|] {}",
        ),
      ],
    ],
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2] }],
  },
  {
    source: "tests/cases/fourslash/renameContextuallyTypedProperties2.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          "    prop1: () => void;",
          "    [|prop2|](): void;",
          "}",
          "",
          "var o1: I = {",
          "    prop1() { },",
          "    [|prop2|]() { }",
          "};",
          "",
          "var o2: I = {",
          "    prop1: () => { },",
          "    [|prop2|]: () => { }",
          "};",
          "",
          "var o3: I = {",
          "    get prop1() { return () => { }; },",
          "    get [|prop2|]() { return () => { }; }",
          "};",
          "",
          "var o4: I = {",
          "    set prop1(v) { },",
          "    set [|prop2|](v) { }",
          "};",
          "",
          "var o5: I = {",
          '    "prop1"() { },',
          '    "[|prop2|]"() { }',
          "};",
          "",
          "var o6: I = {",
          '    "prop1": function () { },',
          '    "[|prop2|]": function () { }',
          "};",
          "",
          "var o7: I = {",
          '    ["prop1"]: function () { },',
          '    ["[|prop2|]"]: function () { }',
          "};",
          "",
          "var o8: I = {",
          '    ["prop1"]() { },',
          '    ["[|prop2|]"]() { }',
          "};",
          "",
          "var o9: I = {",
          '    get ["prop1"]() { return () => { }; },',
          '    get ["[|prop2|]"]() { return () => { }; }',
          "};",
          "",
          "var o10: I = {",
          '    set ["prop1"](v) { },',
          '    set ["[|prop2|]"](v) { }',
          "};",
        ),
      ],
    ],
    checks: [{ at: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], expect: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }],
  },
  {
    source: "tests/cases/fourslash/renameRestBindingElement.ts",
    files: [
      [
        "test.ts",
        lines(
          "interface I {",
          "    a: number;",
          "    b: number;",
          "    c: number;",
          "}",
          'function foo([|{ a, ...[|{| "contextRangeIndex": 0 |}rest|] }: I|]) {',
          "    [|rest|];",
          "}",
        ),
      ],
    ],
    // [r0Def, r0, r1] = 0..2
    checks: [{ at: [1], expect: [1, 2], providePrefixAndSuffixTextForRename: true }],
  },
  {
    source: "tests/cases/fourslash/server/renameInConfiguredProject.ts",
    files: [
      ["referencesForGlobals_1.ts", "var [|globalName|] = 0;"],
      ["referencesForGlobals_2.ts", "var y = /*1*/[|globalName|];"],
      ["tsconfig.json", '{ "files": ["referencesForGlobals_1.ts", "referencesForGlobals_2.ts"] }'],
    ],
    // From the marker (range 1), with strings and comments: exactly the ranges.
    checks: [{ at: [1], expect: [0, 1], findInStrings: true, findInComments: true }],
  },
  {
    source: "tests/cases/fourslash/tsxRename2.ts",
    files: [
      [
        "file.tsx",
        lines(
          " declare module JSX {",
          "     interface Element { }",
          "     interface IntrinsicElements {",
          "         div: {",
          "             [|name|]?: string;",
          "             isOpen?: boolean;",
          "         };",
          "         span: { n: string; };",
          "     }",
          " }",
          ' var x = <div [|na/**/me|]="hello" />;',
        ),
      ],
    ],
    // From the marker, inside range 1: `verify.renameLocations(false, false)` expects exactly the ranges.
    checks: [{ at: [1], expect: [0, 1] }],
  },
  {
    source: "tests/cases/fourslash/tsxRename1.ts",
    files: [
      [
        "file.tsx",
        lines(
          " declare module JSX {",
          "     interface Element { }",
          "     interface IntrinsicElements {",
          '         [|[|{| "contextRangeIndex": 0 |}div|]: {',
          "             name?: string;",
          "             isOpen?: boolean;",
          "         };|]",
          "         span: { n: string; };",
          "     }",
          " }",
          ' var x = [|<[|{| "contextRangeIndex": 2 |}div|] />|];',
        ),
      ],
    ],
    // rangesWithSameTextAreRenameLocations("div"): ranges 1 and 3 (0 and 2 are their contexts).
    checks: [{ at: [1, 3], expect: [1, 3] }],
  },
  {
    source: "tests/cases/fourslash/tsxRename3.ts",
    files: [
      [
        "file.tsx",
        lines(
          " declare module JSX {",
          "     interface Element { }",
          "     interface IntrinsicElements {",
          "     }",
          "     interface ElementAttributesProperty { props }",
          " }",
          " class MyClass {",
          "   props: {",
          '     [|[|{| "contextRangeIndex": 0 |}name|]?: string;|]',
          "     size?: number;",
          " }",
          "",
          "",
          " var x = <MyClass [|[|{| \"contextRangeIndex\": 2 |}name|]='hello'|]/>;",
        ),
      ],
    ],
    // rangesWithSameTextAreRenameLocations("name"): ranges 1 and 3.
    checks: [{ at: [1, 3], expect: [1, 3] }],
  },
  {
    source: "tests/cases/fourslash/tsxRename4.ts",
    files: [
      [
        "file.tsx",
        lines(
          " declare module JSX {",
          "     interface Element { }",
          "     interface IntrinsicElements {",
          "     }",
          "     interface ElementAttributesProperty { props }",
          " }",
          " class [|MyClass|] {",
          "   props: {",
          "     name?: string;",
          "     size?: number;",
          " }",
          " ",
          " ",
          " var x = <[|MyC/**/lass|] name='hello'></[|MyClass|]>;",
        ),
      ],
    ],
    // From the marker, inside range 1: `verify.renameLocations(false, false)` expects exactly the ranges.
    checks: [{ at: [1], expect: [0, 1, 2] }],
  },
  {
    source: "tests/cases/fourslash/tsxRename6.ts",
    files: [
      [
        "file.tsx",
        lines(
          " declare module JSX {",
          "     interface Element { }",
          "     interface IntrinsicElements {",
          "     }",
          "     interface ElementAttributesProperty { props; }",
          " }",
          " interface OptionPropBag {",
          "     propx: number",
          "     propString: string",
          "     optional?: boolean",
          " }",
          ' [|declare function [|{| "contextRangeIndex": 0 |}Opt|](attributes: OptionPropBag): JSX.Element;|]',
          ' let opt = [|<[|{| "contextRangeIndex": 2 |}Opt|] />|];',
          ' let opt1 = [|<[|{| "contextRangeIndex": 4 |}Opt|] propx={100} propString />|];',
          ' let opt2 = [|<[|{| "contextRangeIndex": 6 |}Opt|] propx={100} optional/>|];',
          ' let opt3 = [|<[|{| "contextRangeIndex": 8 |}Opt|] wrong />|];',
          ' let opt4 = [|<[|{| "contextRangeIndex": 10 |}Opt|] propx={100} propString="hi" />|];',
        ),
      ],
      ["tsconfig.json", '{"compilerOptions":{"jsx":"preserve","noLib":true}}'],
    ],
    // rangesWithSameTextAreRenameLocations("Opt"): the odd ranges (the even ones are their contexts).
    checks: [{ at: [1, 3, 5, 7, 9, 11], expect: [1, 3, 5, 7, 9, 11] }],
    adapted: "the test's `// @jsx: preserve` and `// @noLib: true` as the project's tsconfig.json",
  },
  {
    source: "tests/cases/fourslash/tsxRename10.ts",
    files: [
      [
        "file.tsx",
        mainButtonFile({ stateless: true, goToShorthand: true }, [
          ["goTo: string", "[|goTo|]: string"],
          [' goTo="goTo"', ' [|goTo|]="goTo"'],
          ["<MainButton goTo />", "<MainButton [|goTo|] />"],
        ]),
      ],
      JSX_PRESERVE_NO_LIB,
    ],
    // `verify.renameLocations(false, false)` from each range expects exactly the ranges.
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2] }],
    adapted: JSX_ADAPTED,
  },
  {
    source: "tests/cases/fourslash/tsxRename11.ts",
    files: [
      [
        "file.tsx",
        mainButtonFile({ stateless: true, goToShorthand: false }, [
          ["onClick(event", "[|onClick|](event"],
          ["onClick={", "[|onClick|]={"],
        ]),
      ],
      JSX_PRESERVE_NO_LIB,
    ],
    checks: [{ at: [0, 1, 2], expect: [0, 1, 2] }],
    adapted: JSX_ADAPTED,
  },
  {
    source: "tests/cases/fourslash/tsxRename12.ts",
    files: [["file.tsx", mainButtonFile({ stateless: false, goToShorthand: false }, [["wrong", "[|wrong|]"]])], JSX_PRESERVE_NO_LIB],
    checks: [{ at: [0], expect: [0] }],
    adapted: JSX_ADAPTED,
  },
  {
    source: "tests/cases/fourslash/tsxRename13.ts",
    files: [
      ["file.tsx", mainButtonFile({ stateless: false, goToShorthand: false }, [["ignore-prop", "[|ignore-prop|]"]])],
      JSX_PRESERVE_NO_LIB,
    ],
    checks: [{ at: [0], expect: [0] }],
    adapted: JSX_ADAPTED,
  },
];

/** Rename tests that cannot be run through /rename-symbol, each with the reason. */
export const RENAME_NOT_PORTED: Array<{ source: string; reason: string }> = [
  {
    source: "tests/cases/fourslash/renameNameOnEnumMember.ts",
    reason: 'checks the editor\'s rename info (display name "thirdMember", full name "e.thirdMember"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameNumericalIndex.ts",
    reason:
      'renames the property 0 to "0RENAME", quoting it where it is an element access; /rename-symbol deliberately takes only identifiers as the new name of a property (a name that needs quotes in some places is refused, not guessed)',
  },
  {
    source: "tests/cases/fourslash/findAllRefs_importType_exportEquals.ts",
    reason:
      "its renameLocations checks (its renameInfoFailed checks are ported in rename-baselines.json): from `type T` it expects the merged `namespace T` to stay, but the TypeScript /rename-symbol runs (6.0) renames the type and the namespace together, and the tool reports what TypeScript answers",
  },
  {
    source: "tests/cases/fourslash/renameJsExports02.ts",
    reason:
      "despite its name it checks only find-all-references groups (verify.referenceGroups, verify.singleReferenceGroup); it makes no rename request",
  },
  {
    source: "tests/cases/fourslash/renameJsExports03.ts",
    reason: "despite its name it checks only find-all-references groups (verify.referenceGroups); it makes no rename request",
  },
  {
    source: "tests/cases/fourslash/renameForAliasingExport01.ts",
    reason:
      'checks only the editor\'s rename info at `export { x as y }` (verify.renameInfoSucceeded: display name "x"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport04.ts",
    reason:
      'checks only the editor\'s rename info (verify.renameInfoSucceeded: display name "DefaultExportedClass"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameUMDModuleAlias2.ts",
    reason:
      'checks only the editor\'s rename info at `export as namespace myLib` (verify.renameInfoSucceeded: display name "myLib"), not what a rename changes; the rename itself is ported from renameUMDModuleAlias1',
  },
  {
    source: "tests/cases/fourslash/renameForAliasingExport02.ts",
    reason:
      'checks only the editor\'s rename info at `export { x as y }` (verify.renameInfoSucceeded: display name "y", full name \'"/tests/cases/fourslash/foo".y\'), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameInfoForFunctionExpression01.ts",
    reason:
      "checks only the editor's rename info (verify.renameInfoSucceeded: display name \"f\"); the same rename's locations are ported from renameLocationsForFunctionExpression01",
  },
  {
    source: "tests/cases/fourslash/renamePrivateFields.ts",
    reason:
      'checks only the editor\'s rename info at `#foo` (verify.renameInfoSucceeded: display name "#foo"), not what a rename changes; renaming private fields is ported from renamePrivateFields1',
  },
  {
    source: "tests/cases/fourslash/renameNumericalIndexSingleQuoted.ts",
    reason:
      'renames the property 0 to "0RENAME", quoting it (single quotes) where it is an element access; as for renameNumericalIndex, /rename-symbol deliberately takes only identifiers as the new name of a property',
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport05.ts",
    reason:
      'checks only the editor\'s rename info (verify.renameInfoSucceeded: display name "DefaultExportedClass"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport06.ts",
    reason:
      "checks only the editor's rename info (verify.renameInfoSucceeded: display name and full name '\"tests/cases/fourslash/foo\".DefaultExportedClass'), not what a rename changes",
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport07.ts",
    reason:
      'checks only the editor\'s rename info (verify.renameInfoSucceeded: display name "DefaultExportedFunction"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameFromNodeModulesDep2.ts",
    reason:
      "every file of the test is a dependency's own file under node_modules (the test asks whether the dependency's own declarations may be renamed from inside it); /rename-symbol renames in the repository's project, which does not include node_modules",
  },
  {
    source: "tests/cases/fourslash/renameFromNodeModulesDep3.ts",
    reason:
      "needs a symbolic link (`// @link: /packages/foo -> /packages/first/node_modules/foo`), which the in-memory workspace cannot express; and it checks only rename info (renameInfoSucceeded), no rename",
  },
  {
    source: "tests/cases/fourslash/findAllRefsRenameImportWithSameName.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineCommands with findRenameLocations), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport08.ts",
    reason:
      'checks only the editor\'s rename info (verify.renameInfoSucceeded: display name "DefaultExportedFunction"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameForDefaultExport09.ts",
    reason: 'checks only the editor\'s rename info (verify.renameInfoSucceeded: display name and full name "f"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/renameImportAndExportInDiffFiles.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineRename), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
  {
    source: "tests/cases/fourslash/renameImportOfReExport2.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineCommands with findRenameLocations), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
  {
    source: "tests/cases/fourslash/renameStringLiteralTypes6.ts",
    reason:
      'its baseline also renames the argument in `fnc_1("Att 2")` (K extends keyof Case_1), but TypeScript 6.0.2, which /rename-symbol runs, finds only the property itself there (its findRenameLocations returns the one location), and the tool reports what TypeScript answers; the baseline was made by a later TypeScript. Renaming such a quoted name to text with a space is covered in rename-position.test.ts',
  },
  {
    source: "tests/cases/fourslash/renameNoDefaultLib.ts",
    reason:
      'checks only the editor\'s rename info in a JS file with `/// <reference no-default-lib="true" />` (verify.renameInfoSucceeded: display name "foo"), not what a rename changes',
  },
  {
    source: "tests/cases/fourslash/server/jsdocTypedefTagRename04.ts",
    reason:
      "despite its name it checks only quick info before and after an edit (verify.quickInfoExists, edit.insert); it makes no rename request",
  },
  {
    source: "tests/cases/fourslash/findAllRefsReExportLocal.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineRename), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
  {
    source: "tests/cases/fourslash/renameStringLiteralTypes8.ts",
    reason:
      'as renameStringLiteralTypes6: its baseline also renames the argument in `fn("Prop 1")` (K extends keyof T), but TypeScript 6.0.2, which /rename-symbol runs, returns only the property itself; the property is renamed in its quotes as the baseline shows, the argument stays',
  },
  {
    source: "tests/cases/fourslash/jsDocServices.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineRename), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
  {
    source: "tests/cases/fourslash/renameImportOfExportEquals2.ts",
    reason:
      "the stored test asks for its rename locations in its baseline (verify.baselineCommands with findRenameLocations), but the stored baseline is an older one with only its findAllReferences sections, so what the rename should change is not available",
  },
];
