/**
 * TypeScript's own fourslash tests of getEditsForFileRename (microsoft/TypeScript, Apache-2.0,
 * tests/cases/fourslash/), ported as data for /move. Each case names its source.
 *
 * How a case is ported: a fourslash test describes the editor's moment *after* the file was renamed
 * on disk (the moved file is often written at its new path, the old one may not exist); /move does
 * the rename itself, so the moved file starts at the old path with the same text. `expect` is the
 * test's `newFileContents`, keyed by path after the move; every other file must come out unchanged.
 * Other adaptations are written in `adapted`.
 */
export interface FileRenameCase {
  source: string;
  files: Record<string, string>;
  move: [string, string];
  expect: Record<string, string>;
  preferences?: Record<string, string>;
  adapted?: string;
}

const ABSOLUTE = "tsconfig paths were absolute (/a.ts); the workspace is mounted elsewhere, so they are relative to the root here";

/** Without a tsconfig, /move uses bundler-style defaults; fourslash uses TypeScript's (node10 resolution). */
const TEST_OPTIONS =
  "the test's `// @allowJs: true` is a tsconfig.json here, so that the rest of the options are TypeScript's defaults as in fourslash";

export const FILE_RENAME_CASES: FileRenameCase[] = [
  {
    source: "tests/cases/fourslash/getEditsForFileRename.ts",
    files: {
      "a.ts": '/// <reference path="./src/old.ts" />\nimport old from "./src/old";',
      "src/a.ts": '/// <reference path="./old.ts" />\nimport old from "./old";',
      "src/foo/a.ts": '/// <reference path="../old.ts" />\nimport old from "../old";',
      // Don't update an unrelated import
      "unrelated.ts": 'import { x } from "././src/./foo/./a";',
      "src/old.ts": "export default 0;",
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/old.ts"] }',
    },
    move: ["src/old.ts", "src/new.ts"],
    expect: {
      "a.ts": '/// <reference path="./src/new.ts" />\nimport old from "./src/new";',
      "src/a.ts": '/// <reference path="./new.ts" />\nimport old from "./new";',
      "src/foo/a.ts": '/// <reference path="../new.ts" />\nimport old from "../new";',
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/new.ts"] }',
    },
    adapted: ABSOLUTE,
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_oldFileStillPresent.ts",
    files: {
      "src/old.ts": "stuff",
      "a.ts": '/// <reference path="./src/old.ts" />\nimport old from "./src/old";',
      "src/a.ts": '/// <reference path="./old.ts" />\nimport old from "./old";',
      "src/foo/a.ts": '/// <reference path="../old.ts" />\nimport old from "../old";',
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/old.ts"] }',
    },
    move: ["src/old.ts", "src/new.ts"],
    expect: {
      "a.ts": '/// <reference path="./src/new.ts" />\nimport old from "./src/new";',
      "src/a.ts": '/// <reference path="./new.ts" />\nimport old from "./new";',
      "src/foo/a.ts": '/// <reference path="../new.ts" />\nimport old from "../new";',
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/new.ts"] }',
    },
  },
  ...(["", "_up", "_down"] as const).map((variant): FileRenameCase => {
    const to = { "": "src/new", _up: "newDir/new", _down: "src/newDir/new" }[variant];
    const fromRoot = { "": "./src/new", _up: "./newDir/new", _down: "./src/newDir/new" }[variant];
    const fromSrc = { "": "./new", _up: "../newDir/new", _down: "./newDir/new" }[variant];
    const fromFoo = { "": "../new", _up: "../../newDir/new", _down: "../newDir/new" }[variant];
    const index =
      'import a from "../../a";\nimport a2 from "../b";\nimport a3 from "../foo/c";\nimport f from "./file";\nexport default 0;';
    const movedIndex = {
      "": index,
      _up: 'import a from "../../a";\nimport a2 from "../../src/b";\nimport a3 from "../../src/foo/c";\nimport f from "./file";\nexport default 0;',
      _down:
        'import a from "../../../a";\nimport a2 from "../../b";\nimport a3 from "../../foo/c";\nimport f from "./file";\nexport default 0;',
    }[variant];
    const importer = (from: string) =>
      `/// <reference path="${from}/file.ts" />\nimport old from "${from}";\nimport old2 from "${from}/file";\nexport default 0;`;
    const expect: Record<string, string> = {
      "a.ts": importer(fromRoot),
      "src/b.ts": importer(fromSrc),
      "src/foo/c.ts": importer(fromFoo),
      "tsconfig.json": `{ "files": ["a.ts", "src/b.ts", "src/foo/c.ts", "${to}/index.ts", "${to}/file.ts"] }`,
    };
    // "No change to /src/new" in the plain directory test.
    if (variant !== "") expect[`${to}/index.ts`] = movedIndex;
    return {
      source: `tests/cases/fourslash/getEditsForFileRename_directory${variant}.ts`,
      files: {
        "a.ts": importer("./src/old"),
        "src/b.ts": importer("./old"),
        "src/foo/c.ts": importer("../old"),
        "src/old/index.ts": index,
        "src/old/file.ts": "",
        "tsconfig.json": '{ "files": ["a.ts", "src/b.ts", "src/foo/c.ts", "src/old/index.ts", "src/old/file.ts"] }',
      },
      move: ["src/old", to],
      expect,
      adapted: ABSOLUTE,
    };
  }),
  {
    source: "tests/cases/fourslash/getEditsForFileRename_jsExtension.ts",
    files: { "src/a.js": "export const a = 0;", "b.js": 'import { a } from "./src/a.js";' },
    move: ["b.js", "src/b.js"],
    expect: { "src/b.js": 'import { a } from "./a.js";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_renameFromIndex.ts",
    files: {
      "a.ts": '/// <reference path="./src/index.ts" />\nimport old from "./src";\nimport old2 from "./src/index";',
      "src/a.ts": '/// <reference path="./index.ts" />\nimport old from ".";\nimport old2 from "./index";',
      "src/foo/a.ts": '/// <reference path="../index.ts" />\nimport old from "..";\nimport old2 from "../index";',
      "src/index.ts": "",
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/index.ts"] }',
    },
    move: ["src/index.ts", "src/new.ts"],
    expect: {
      "a.ts": '/// <reference path="./src/new.ts" />\nimport old from "./src/new";\nimport old2 from "./src/new";',
      "src/a.ts": '/// <reference path="./new.ts" />\nimport old from "./new";\nimport old2 from "./new";',
      "src/foo/a.ts": '/// <reference path="../new.ts" />\nimport old from "../new";\nimport old2 from "../new";',
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/new.ts"] }',
    },
    adapted: ABSOLUTE,
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_renameToIndex.ts",
    files: {
      "a.ts": '/// <reference path="./src/old.ts" />\nimport old from "./src/old";',
      "src/a.ts": '/// <reference path="./old.ts" />\nimport old from "./old";',
      "src/foo/a.ts": '/// <reference path="../old.ts" />\nimport old from "../old";',
      "src/old.ts": "",
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/old.ts"] }',
    },
    move: ["src/old.ts", "src/index.ts"],
    expect: {
      "a.ts": '/// <reference path="./src/index.ts" />\nimport old from "./src";',
      "src/a.ts": '/// <reference path="./index.ts" />\nimport old from ".";',
      "src/foo/a.ts": '/// <reference path="../index.ts" />\nimport old from "..";',
      "tsconfig.json": '{ "files": ["a.ts", "src/a.ts", "src/foo/a.ts", "src/index.ts"] }',
    },
    adapted: ABSOLUTE,
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_resolveJsonModule.ts",
    files: { "a.ts": 'import text from "./message.json";', "message.json": "{}" },
    move: ["a.ts", "src/a.ts"],
    expect: { "src/a.ts": 'import text from "../message.json";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_subDir.ts",
    files: { "src/old.ts": 'import a from "./foo/a";' },
    move: ["src/old.ts", "src/dir/new.ts"],
    expect: { "src/dir/new.ts": 'import a from "../foo/a";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_shortenRelativePaths.ts",
    files: { "src/foo/x.ts": "", "src/old.ts": 'import { x } from "./foo/x";' },
    move: ["src/old.ts", "src/foo/new.ts"],
    expect: { "src/foo/new.ts": 'import { x } from "./x";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_keepFileExtensions.ts",
    files: {
      "tsconfig.json": '{\n  "compilerOptions": {\n    "module": "Node16",\n    "rootDirs": ["src"]\n  }\n}',
      "src/person.ts": "export const name = 0;",
      "src/index.ts": 'import {name} from "./person.js";',
    },
    move: ["src/person.ts", "src/vip.ts"],
    expect: { "src/index.ts": 'import {name} from "./vip.js";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_preservePathEnding.ts",
    files: {
      "tsconfig.json": '{ "compilerOptions": { "allowJs": true } }',
      "index.js": "export const x = 0;",
      "a.js": 'import { x as x0 } from ".";\nimport { x as x1 } from "./index";\nimport { x as x2 } from "./index.js";',
    },
    move: ["a.js", "b.js"],
    expect: {},
    adapted: TEST_OPTIONS,
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_preservePathEnding.ts",
    files: {
      "tsconfig.json": '{ "compilerOptions": { "allowJs": true } }',
      "index.js": "export const x = 0;",
      "a.js": 'import { x as x0 } from ".";\nimport { x as x1 } from "./index";\nimport { x as x2 } from "./index.js";',
    },
    move: ["a.js", "src/b.js"],
    expect: { "src/b.js": 'import { x as x0 } from "..";\nimport { x as x1 } from "../index";\nimport { x as x2 } from "../index.js";' },
    adapted: `the test's two renames (a.js → b.js, then b.js → src/b.js) as one move; ${TEST_OPTIONS}`,
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_tsconfig.ts",
    files: {
      "src/tsconfig.json": [
        "{",
        '    "compilerOptions": {',
        '        "baseUrl": "./old",',
        '        "paths": {',
        '            "foo": ["old"],',
        "        },",
        '        "rootDir": "old",',
        '        "rootDirs": ["old"],',
        '        "typeRoots": ["old"],',
        "    },",
        '    "files": ["old/a.ts"],',
        '    "include": ["old/*.ts"],',
        '    "exclude": ["old"],',
        "}",
      ].join("\n"),
      "src/old/a.ts": "",
    },
    move: ["src/old", "src/new"],
    expect: {
      "src/tsconfig.json": [
        "{",
        '    "compilerOptions": {',
        '        "baseUrl": "new",',
        '        "paths": {',
        '            "foo": ["new"],',
        "        },",
        '        "rootDir": "new",',
        '        "rootDirs": ["new"],',
        '        "typeRoots": ["new"],',
        "    },",
        '    "files": ["new/a.ts"],',
        '    "include": ["new/*.ts"],',
        '    "exclude": ["new"],',
        "}",
      ].join("\n"),
    },
    adapted: "src/old/a.ts is created (the test moves a directory that does not exist; /move needs it to)",
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_tsconfig_include_add.ts",
    files: { "src/tsconfig.json": '{\n    "include": ["dir"],\n}', "src/dir/a.ts": "" },
    move: ["src/dir/a.ts", "src/newDir/b.ts"],
    expect: { "src/tsconfig.json": '{\n    "include": ["dir", "newDir/b.ts"],\n}' },
    adapted: "src/dir/a.ts is created (the test renames a file that does not exist; /move needs it to)",
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_tsconfig_include_noChange.ts",
    files: { "src/tsconfig.json": '{\n    "include": ["dir"],\n}', "src/dir/a.ts": "" },
    move: ["src/dir/a.ts", "src/dir/b.ts"],
    expect: {},
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_tsconfig_empty_include.ts",
    files: { "a/foo.ts": "const x = 1", "a/tsconfig.json": '{ "include": [] }' },
    move: ["a/foo.ts", "a/bar.ts"],
    expect: {},
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_unaffectedNonRelativePath.ts",
    files: {
      "sub/a.ts": "export const a = 1;",
      "sub/b.ts": 'import { a } from "sub/a";',
      "tsconfig.json": '{\n    "compilerOptions": {\n        "baseUrl": "."\n    }\n}',
    },
    move: ["sub/b.ts", "sub/c/d.ts"],
    expect: {},
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_ambientModule.ts",
    files: {
      "tsconfig.json": "{}",
      "sub/types.d.ts": 'declare module "sub" {\n    declare export const abc: number\n}',
      "sub/package.json": '{ "types": "types.d.ts" }',
      "a.ts": 'import { abc } from "sub";',
    },
    move: ["a.ts", "b.ts"],
    expect: {},
    adapted: "without the test's symlinks into node_modules (a workspace has no symlinks); the ambient module still resolves",
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_notAffectedByJsFile.ts",
    files: { "a.ts": "export const x = 0;", "a.js": "exports.x = 0;", "b.ts": 'import { x } from "./a";' },
    move: ["a.ts", "a2.ts"],
    expect: { "b.ts": 'import { x } from "./a2";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_js_simple.ts",
    files: { "a.js": 'import b from "./b.js";', "b.js": "module.exports = 1;" },
    move: ["b.js", "c.js"],
    expect: { "a.js": 'import b from "./c.js";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_amd.ts",
    files: {
      "tsconfig.json": '{ "compilerOptions": { "moduleResolution": "classic" } }',
      "src/user.ts": 'import { x } from "old";',
      "src/old.ts": "",
    },
    move: ["src/old.ts", "src/new.ts"],
    expect: { "src/user.ts": 'import { x } from "./new";' },
    adapted: "the test's `// @moduleResolution: classic` is a tsconfig.json here",
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_preferences.ts",
    files: {
      "dir/a.ts": "export const a = 0;",
      "dir/b.ts": "import {} from \"dir/a\";\nimport {} from 'dir/a';",
      "tsconfig.json": '{ "compilerOptions": { "baseUrl": "." } }',
    },
    move: ["dir/a.ts", "dir/a1.ts"],
    preferences: { importModuleSpecifierPreference: "non-relative", quotePreference: "single" },
    expect: { "dir/b.ts": "import {} from \"dir/a1\";\nimport {} from 'dir/a1';" },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_unresolvableImport.ts",
    files: {
      "tsconfig.json": [
        " {",
        '   "compilerOptions": {',
        '     "allowJs": true,',
        '     "paths": {',
        '       "*": ["./next/src/*"],',
        '       "@app": ["./modules/@app/*"],',
        '       "@app/*": ["./modules/@app/*"],',
        '       "@local": ["./modules/@local/*"],',
        '       "@local/*": ["./modules/@local/*"]',
        "     }",
        "   }",
        " }",
      ].join("\n"),
      "modules/@app/something/index.js": ' import "@local/some-other-import";',
      "modules/@local/index.js": ' import "@local/some-other-import";',
    },
    move: ["modules/@app/something", "modules/@app/something-2"],
    expect: {},
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_unresolvableNodeModule.ts",
    files: { "modules/@app/something/index.js": ' import "doesnt-exist";', "modules/@local/foo.js": ' import "doesnt-exist"; ' },
    move: ["modules/@app/something", "modules/@app/something-2"],
    expect: {},
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_directory_noUpdateNodeModulesImport.ts",
    files: { "a/b/file1.ts": 'import { foo } from "foo";', "a/b/node_modules/foo/index.d.ts": "export const foo = 0;" },
    move: ["a/b", "a/d"],
    expect: { "a/d/file1.ts": 'import { foo } from "foo";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_casing.ts",
    files: { "a.ts": 'import { foo } from "./dir/fOo";', "dir/fOo.ts": "export const foo = 0;" },
    move: ["dir", "newDir"],
    expect: { "a.ts": 'import { foo } from "./newDir/fOo";' },
  },
  {
    source: "tests/cases/fourslash/getEditsForFileRename_symlink.ts",
    files: {
      "foo.ts": "export const x = 0;",
      "node_modules/foo/index.ts": "export const x = 0;",
      "user.ts": "import { x } from 'foo';",
    },
    move: ["user.ts", "luser.ts"],
    expect: {},
    adapted:
      "the test's symlink /node_modules/foo/index.ts → /foo.ts is a copy (a workspace has no symlinks); 'foo' still resolves into node_modules",
  },
];

/** Tests of getEditsForFileRename that cannot be run through /move, each with the reason. */
export const FILE_RENAME_NOT_PORTED: Array<{ source: string; reason: string }> = [
  {
    source: "tests/cases/fourslash/getEditsForFileRename_caseInsensitive.ts",
    reason:
      'needs a case-insensitive file system (fourslash\'s default): "./A" names /a.ts there; a repository checkout is case-sensitive, where "./A" resolves to nothing and /move rightly leaves it',
  },
];
