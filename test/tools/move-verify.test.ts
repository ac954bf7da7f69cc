/**
 * /move leaves a project that still builds: tsconfig `extends`/`references` follow the move, every
 * import and config entry is checked afterwards (a broken one refuses the move, naming it), and
 * files TypeScript does not know that mention a moved path are listed, never silently ignored.
 */
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { UserError, resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import moveFactory from "../../src/tools/move.js";
import { textAfter } from "../helpers/changes.js";

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await moveFactory(pi);
});

async function run(files: Record<string, string>, paths: string[]) {
  return executeTool(tool, { paths }, new MemoryWorkspace(files), "call-1");
}

async function refusal(files: Record<string, string>, paths: string[]): Promise<string> {
  const error = await run(files, paths).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  return (error as Error).message;
}

describe("move: tsconfig extends and references follow the move", () => {
  it("moving the base config rewrites every extends that named it (with or without .json), comments kept", async () => {
    const files = {
      "tsconfig.base.json": '{ "compilerOptions": { "strict": true } }\n',
      "tsconfig.json": '{\n  // shared options\n  "extends": "./tsconfig.base.json",\n  "include": ["src"]\n}\n',
      "packages/a/tsconfig.json": '{ "extends": "../../tsconfig.base", "include": ["src"] }\n',
      "packages/a/src/a.ts": "export const a = 1;\n",
      "src/main.ts": "export const main = 1;\n",
    };
    const { actions, result } = await run(files, ["tsconfig.base.json", "config/tsconfig.base.json"]);
    const changes = actions[0]!.changes!;
    expect(await textAfter(changes, "tsconfig.json")).toBe(
      '{\n  // shared options\n  "extends": "./config/tsconfig.base.json",\n  "include": ["src"]\n}\n',
    );
    expect(await textAfter(changes, "packages/a/tsconfig.json")).toBe('{ "extends": "../../config/tsconfig.base", "include": ["src"] }\n');
    expect(actions[0]!.label).toBe("Move: 1 file (2 imports updated)");
    expect(resultText(result)).toBe(
      "Move preview: 1 file to move, 2 imports to update in 2 files.\n- tsconfig.base.json → config/tsconfig.base.json\nImports updated in: packages/a/tsconfig.json, tsconfig.json.",
    );
  });

  it("moving a referenced project rewrites references; its own config moves with it and keeps pointing outside", async () => {
    const files = {
      "tsconfig.base.json": '{ "compilerOptions": { "composite": true } }\n',
      "tsconfig.json": '{ "files": [], "references": [{ "path": "./packages/core" }, { "path": "./packages/app/tsconfig.json" }] }\n',
      "packages/core/tsconfig.json": '{ "extends": "../../tsconfig.base.json", "include": ["src"] }\n',
      "packages/core/src/index.ts": "export const core = 1;\n",
      "packages/app/tsconfig.json": '{ "extends": "../../tsconfig.base.json", "references": [{ "path": "../core" }] }\n',
      "packages/app/src/app.ts": 'import { core } from "../../core/src/index";\nexport const app = core;\n',
    };
    const { actions } = await run(files, ["packages/core", "libs/core"]);
    const changes = actions[0]!.changes!;
    expect(await textAfter(changes, "tsconfig.json")).toBe(
      '{ "files": [], "references": [{ "path": "./libs/core" }, { "path": "./packages/app/tsconfig.json" }] }\n',
    );
    expect(await textAfter(changes, "packages/app/tsconfig.json")).toBe(
      '{ "extends": "../../tsconfig.base.json", "references": [{ "path": "../../libs/core" }] }\n',
    );
    // Same depth: the moved config's extends still resolves unchanged.
    expect(await textAfter(changes, "libs/core/tsconfig.json")).toBe(files["packages/core/tsconfig.json"]);
    expect(await textAfter(changes, "packages/app/src/app.ts")).toBe(
      'import { core } from "../../../libs/core/src/index";\nexport const app = core;\n',
    );
  });

  it("a config moved to another depth keeps naming what it named", async () => {
    const files = {
      "tsconfig.base.json": "{}\n",
      "packages/core/tsconfig.json":
        '{ "extends": "../../tsconfig.base.json", "include": ["src"], "compilerOptions": { "typeRoots": ["../../types"] } }\n',
      "packages/core/src/index.ts": "export const core = 1;\n",
      "types/env.d.ts": "declare const ENV: string;\n",
    };
    const { actions } = await run(files, ["packages/core", "core"]);
    expect(await textAfter(actions[0]!.changes!, "core/tsconfig.json")).toBe(
      '{ "extends": "../tsconfig.base.json", "include": ["src"], "compilerOptions": { "typeRoots": ["../types"] } }\n',
    );
  });
});

describe("move: refuses what would not resolve afterwards", () => {
  it("a paths mapping whose directory the move empties", async () => {
    const files = {
      "tsconfig.json": '{\n  "compilerOptions": {\n    "baseUrl": ".",\n    "paths": { "@lib/*": ["lib/*"] }\n  }\n}\n',
      "lib/l.ts": "export const l = 1;\n",
      "src/a.ts": 'import { l } from "@lib/l";\nexport const a = l;\n',
    };
    expect(await refusal(files, ["lib/l.ts", "src/l.ts"])).toBe(
      'Cannot move lib/l.ts to src/l.ts: afterwards this would be broken, so nothing was changed:\n- tsconfig.json:4: paths "lib/*" would not resolve',
    );
  });

  it("a relative import that can only reach a different file", async () => {
    // lib/b.ts exists: "../lib/b" from src/a.ts would find it, not the moved lib/b.tsx.
    const files = {
      "src/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
      "src/b.ts": "export const b = 1;\n",
      "lib/b.ts": "export const other = 2;\n",
    };
    expect(await refusal(files, ["src/b.ts", "lib/b.tsx"])).toBe(
      'Cannot move src/b.ts to lib/b.tsx: afterwards this would be broken, so nothing was changed:\n- src/a.ts: "../lib/b" would not resolve to lib/b.tsx',
    );
  });

  it("a config that would lose a file from its program", async () => {
    const files = {
      "tsconfig.json": '{ "include": ["src"] }\n',
      "tsconfig.build.json": '{ "include": ["src"], "exclude": ["src/**/*.test.ts", "tools"] }\n',
      "src/a.ts": "export const a = 1;\n",
    };
    expect(await refusal(files, ["src/a.ts", "tools/a.ts"])).toBe(
      [
        "Cannot move src/a.ts to tools/a.ts: afterwards these would be broken, so nothing was changed:",
        '- tsconfig.build.json:1: include "src" matched 1 file before and would match none after',
        "- tsconfig.build.json would no longer include tools/a.ts",
      ].join("\n"),
    );
  });

  it("an exclude pattern that would match nothing (its file would enter the program)", async () => {
    const files = {
      "tsconfig.json": '{\n  "include": ["src"],\n  "exclude": ["src/fixtures"]\n}\n',
      "src/fixtures/broken.ts": "export const x: number = 'not a number';\n",
      "src/a.ts": "export const a = 1;\n",
    };
    expect(await refusal(files, ["src/fixtures/broken.ts", "src/broken-fixture.ts"])).toBe(
      [
        "Cannot move src/fixtures/broken.ts to src/broken-fixture.ts: afterwards this would be broken, so nothing was changed:",
        '- tsconfig.json:3: exclude "src/fixtures" matched 1 file before and would match none after',
      ].join("\n"),
    );
  });

  it("an include pattern left matching nothing is fine when another include still matches its files", async () => {
    const files = {
      "tsconfig.json": '{ "include": ["src", "lib/*.ts"] }\n',
      "lib/x.ts": "export const x = 1;\n",
      "src/a.ts": 'import { x } from "../lib/x";\nexport const a = x;\n',
    };
    const { actions } = await run(files, ["lib/x.ts", "src/x.ts"]);
    expect(await textAfter(actions[0]!.changes!, "src/a.ts")).toBe('import { x } from "./x";\nexport const a = x;\n');
    expect(await textAfter(actions[0]!.changes!, "tsconfig.json")).toBe(files["tsconfig.json"]);
  });

  it("rootDir and paths follow a moved directory (TypeScript's own edits)", async () => {
    const files = {
      "tsconfig.json":
        '{\n  "compilerOptions": { "rootDir": "src/app", "paths": { "#x": ["./src/app/x.ts"], "@app/*": ["./src/app/*"] } }\n}\n',
      "src/app/x.ts": "export const x = 1;\n",
    };
    const { actions } = await run(files, ["src/app", "app"]);
    expect(await textAfter(actions[0]!.changes!, "tsconfig.json")).toBe(
      '{\n  "compilerOptions": { "rootDir": "app", "paths": { "#x": ["app/x.ts"], "@app/*": ["app/*"] } }\n}\n',
    );
  });

  it("lists every broken import and entry when there are several", async () => {
    const files = {
      "tsconfig.json": '{\n  "compilerOptions": {\n    "baseUrl": ".",\n    "paths": { "@lib/*": ["lib/*"] }\n  }\n}\n',
      "lib/l.ts": "export const l = 1;\n",
      "src/a.ts": 'import { l } from "../lib/l";\nexport const a = l;\n',
      "src/l.ts": "export const shadow = 1;\n",
    };
    expect(await refusal(files, ["lib/l.ts", "src/l.tsx"])).toBe(
      [
        "Cannot move lib/l.ts to src/l.tsx: afterwards these would be broken, so nothing was changed:",
        '- src/a.ts: "./l" would not resolve to src/l.tsx',
        '- tsconfig.json:4: paths "lib/*" would not resolve',
        // tsc drops src/l.tsx next to src/l.ts (same name, lower-priority extension).
        "- tsconfig.json would no longer include src/l.tsx",
      ].join("\n"),
    );
  });
});

describe("move: files TypeScript does not know are listed, not ignored", () => {
  it("names package.json main/types/exports/bin and jest.config lines with path:line", async () => {
    const files = {
      "package.json": JSON.stringify(
        {
          name: "x",
          main: "src/index.js",
          types: "./src/index.d.ts",
          bin: { x: "src/cli.js" },
          exports: { ".": "./src/index.js" },
          files: ["lib/src/index.js"],
        },
        null,
        2,
      ),
      "jest.config.cjs": 'module.exports = { roots: ["<rootDir>/src"], setupFiles: ["<rootDir>/src/index.ts"] };\n',
      "src/index.ts": "export const x = 1;\n",
      "src/use.ts": 'import { x } from "./index";\nexport const y = x;\n',
    };
    const { result, actions } = await run(files, ["src/index.ts", "src/main.ts"]);
    expect(resultText(result)).toBe(
      [
        "Move preview: 1 file to move, 1 import to update in 1 file.",
        "- src/index.ts → src/main.ts",
        "Imports updated in: src/use.ts.",
        "Not updated, check these (files TypeScript does not know that mention a moved path):",
        '- jest.config.cjs:1: module.exports = { roots: ["<rootDir>/src"], setupFiles: ["<rootDir>/src/index.ts"] };',
        '- package.json:3: "main": "src/index.js",',
        '- package.json:4: "types": "./src/index.d.ts",',
        '- package.json:9: ".": "./src/index.js"',
      ].join("\n"),
    );
    expect((actions[0]!.details as { notUpdated: unknown[] }).notUpdated).toHaveLength(4);
  });
});
