/**
 * Monorepos: several tsconfig.json projects with references. A move or rename updates every
 * project that includes an affected file, each through its own language service (its own `paths`),
 * with the workspace read once per command.
 */
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import moveFactory from "../../src/tools/move.js";
import renameFactory from "../../src/tools/rename-symbol.js";
import { loadTsProject } from "../../src/tools/ts-project.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { textAfter } from "../helpers/changes.js";

const files = {
  "tsconfig.json": '{ "files": [], "references": [{ "path": "packages/core" }, { "path": "packages/app" }] }\n',
  "packages/core/tsconfig.json": '{ "compilerOptions": { "composite": true, "rootDir": "src" }, "include": ["src"] }\n',
  "packages/core/src/util.ts": "export function slug(text: string): string {\n  return text.toLowerCase();\n}\n",
  "packages/core/src/index.ts": 'export { slug } from "./util";\n',
  "packages/app/tsconfig.json":
    '{\n  "compilerOptions": { "baseUrl": ".", "paths": { "@core/*": ["../core/src/*"] } },\n  "include": ["src"],\n  "references": [{ "path": "../core" }]\n}\n',
  "packages/app/src/main.ts": 'import { slug } from "@core/util";\nexport const title = slug("Hello");\n',
};

const pi = createToolAPI();
let move: AnyToolDefinition;
let rename: AnyToolDefinition;
beforeAll(async () => {
  move = await moveFactory(pi);
  rename = await renameFactory(pi);
});

describe("monorepo with project references", () => {
  it("loads one language service per affected project, reading each file once", async () => {
    const workspace = new MemoryWorkspace(files);
    const reads = new Map<string, number>();
    const tryReadText = workspace.tryReadText.bind(workspace);
    workspace.tryReadText = (path: string) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return tryReadText(path);
    };
    const project = await loadTsProject(workspace, { targets: ["packages/core/src/util.ts"] });
    try {
      expect([project.configPath, ...project.others.map((other) => other.configPath)]).toEqual([
        "packages/core/tsconfig.json",
        "packages/app/tsconfig.json",
      ]);
      expect(project.others[0]!.options.paths).toEqual({ "@core/*": ["../core/src/*"] });
      expect([...reads.values()].every((count) => count === 1)).toBe(true);
      expect(reads.get("packages/app/src/main.ts")).toBe(1);
    } finally {
      project.dispose();
    }
  });

  it("a move inside one package updates the other package's path-mapped import", async () => {
    const { actions } = await executeTool(
      move,
      { paths: ["packages/core/src/util.ts", "packages/core/src/text/util.ts"] },
      new MemoryWorkspace(files),
      "call",
    );
    const changes = actions[0]!.changes!;
    expect(await textAfter(changes, "packages/app/src/main.ts")).toBe(
      'import { slug } from "@core/text/util";\nexport const title = slug("Hello");\n',
    );
    expect(await textAfter(changes, "packages/core/src/index.ts")).toBe('export { slug } from "./text/util";\n');
    expect(actions[0]!.label).toBe("Move: 1 file (2 imports updated)");
  });

  it("a rename by position reaches the package that imports through paths", async () => {
    const { actions } = await executeTool(
      rename,
      { from: "toSlug", at: "packages/core/src/util.ts:1:17" },
      new MemoryWorkspace(files),
      "call",
    );
    const changes = actions[0]!.changes!;
    expect(actions[0]!.label).toBe("Rename Symbol: slug → toSlug (4 references in 3 files)");
    expect(await textAfter(changes, "packages/app/src/main.ts")).toBe(
      'import { toSlug } from "@core/util";\nexport const title = toSlug("Hello");\n',
    );
    expect(await textAfter(changes, "packages/core/src/index.ts")).toBe('export { toSlug as slug } from "./util";\n');
  });

  it("by name, every project is searched", async () => {
    const { actions } = await executeTool(rename, { from: "title", to: "heading" }, new MemoryWorkspace(files), "call");
    expect(actions[0]!.label).toBe("Rename Symbol: title → heading (1 reference in 1 file)");
  });
});
