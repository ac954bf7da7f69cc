import { ts } from "ts-morph";
import { createToolAPI, executeTool, applyAction } from "../../src/core/execution.js";
import { UserError, resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import moveFactory from "../../src/tools/move.js";
import { planMove } from "../../src/tools/move-plan.js";
import { FORMAT_SETTINGS, findConfig, loadTsProject, toAbs, toRel } from "../../src/tools/ts-project.js";
import { applyToDir, removeTemp, rxjsFiles, tscDiagnostics, writeTemp } from "../fixtures/ts/rxjs.js";
import { textAfter } from "../helpers/changes.js";

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await moveFactory(pi);
});

async function run(files: Record<string, string | Buffer>, paths: string[]) {
  const workspace = new MemoryWorkspace(files);
  const execution = await executeTool(tool, { paths }, workspace, "call-1");
  return { workspace, execution };
}

describe("move: tool definition", () => {
  it("is named move, labelled Move, with paths as positional array", () => {
    expect(tool.name).toBe("move");
    expect(tool.label).toBe("Move");
    expect(tool.positionals).toEqual(["paths"]);
  });
});

describe("move: files", () => {
  const files = {
    "src/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
    "src/b.ts": "export const b = 1;\n",
    "src/c.ts": 'import { a } from "./a";\nimport { b } from "./b";\nexport const c = [a, b];\n',
    "README.md": "# readme\n",
  };

  it("moves a file, updates importers and the moved file's own imports, with the exact label", async () => {
    const { workspace, execution } = await run(files, ["src/a.ts", "src/lib/a.ts"]);
    expect(execution.actions).toHaveLength(1);
    const action = execution.actions[0]!;
    expect(action.label).toBe("Move: 1 file (2 imports updated)");
    expect(action.sourceToolName).toBe("move");
    expect(action.details).toMatchObject({
      pairs: [{ from: "src/a.ts", to: "src/lib/a.ts" }],
      moved: [{ from: "src/a.ts", to: "src/lib/a.ts" }],
      updated: ["src/c.ts", "src/lib/a.ts"],
      importsUpdated: 2,
    });
    expect(resultText(execution.result)).toContain("Move preview: 1 file to move, 2 imports to update in 2 files.");
    const changes = action.changes!;
    expect(await textAfter(changes, "src/lib/a.ts")).toBe('import { b } from "../b";\nexport const a = () => b;\n');
    expect(await textAfter(changes, "src/c.ts")).toContain('import { a } from "./lib/a";');
    expect(await changes.exists("src/a.ts")).toBe(false);

    const applied = await applyAction(action, "looks right", workspace);
    expect(resultText(applied.result)).toBe("Moved 1 file and updated 2 imports.");
    const staged = await applied.changes.resolveChanges();
    expect(staged.map((change) => `${change.kind} ${change.path}`)).toEqual(["write src/c.ts", "rename src/lib/a.ts"]);
  });

  it("uses the singular forms", async () => {
    const { execution } = await run(files, ["src/b.ts", "src/b2.ts"]);
    // a.ts and c.ts import b.ts: 2 imports in 2 files.
    expect(execution.actions[0]!.label).toBe("Move: 1 file (2 imports updated)");
    const single = await run({ "x.ts": 'import "./y";\n', "y.ts": "export {};\n" }, ["y.ts", "z.ts"]);
    expect(single.execution.actions[0]!.label).toBe("Move: 1 file (1 import updated)");
    const applied = await applyAction(single.execution.actions[0]!, "ok", single.workspace);
    expect(resultText(applied.result)).toBe("Moved 1 file and updated 1 import.");
    const none = await run(files, ["README.md", "docs/README.md"]);
    expect(none.execution.actions[0]!.label).toBe("Move: 1 file (0 imports updated)");
  });

  it("moves several pairs at once, non-TS files included", async () => {
    const { execution } = await run(files, ["src/a.ts", "lib/a.ts", "README.md", "docs/README.md", "src/b.ts", "lib/b.ts"]);
    const action = execution.actions[0]!;
    // a.ts and b.ts stay side by side: only c.ts's two imports change.
    expect(action.label).toBe("Move: 3 files (2 imports updated)");
    const changes = action.changes!;
    expect(await textAfter(changes, "docs/README.md")).toBe("# readme\n");
    expect(await textAfter(changes, "lib/a.ts")).toContain('from "./b"');
    expect(await textAfter(changes, "src/c.ts")).toBe(
      'import { a } from "../lib/a";\nimport { b } from "../lib/b";\nexport const c = [a, b];\n',
    );
  });

  it("is deterministic: a replay gives the same label, details and change digest", async () => {
    const paths = ["src/a.ts", "lib/a.ts", "src/b.ts", "lib/b.ts"];
    const first = await run(files, paths);
    const second = await run(files, paths);
    const [a, b] = [first.execution.actions[0]!, second.execution.actions[0]!];
    expect(b.label).toBe(a.label);
    expect(JSON.stringify(b.details)).toBe(JSON.stringify(a.details));
    expect((await b.changes!.fingerprint()).digest).toBe((await a.changes!.fingerprint()).digest);
  });
});

describe("move: errors push nothing", () => {
  const files = { "src/a.ts": "export const a = 1;\n", "src/b.ts": 'import { a } from "./a";\n', "src/dir/x.ts": "export {};\n" };
  const cases: Array<[string, string[], RegExp]> = [
    [
      "odd number of paths",
      ["src/a.ts", "src/x.ts", "src/b.ts"],
      /move takes pairs of paths: \/move <from> <to> .*got 3 paths \(an odd number\)/,
    ],
    ["missing source", ["src/nope.ts", "src/x.ts"], /^Cannot move src\/nope\.ts: it does not exist\.$/],
    ["destination exists", ["src/a.ts", "src/b.ts"], /^Cannot move src\/a\.ts to src\/b\.ts: src\/b\.ts already exists\.$/],
    ["destination directory exists", ["src/a.ts", "src/dir"], /src\/dir already exists/],
    ["outside the workspace", ["src/a.ts", "../a.ts"], /leaves the repository/],
    ["absolute path", ["/etc/passwd", "src/x.ts"], /is absolute/],
    ["into itself", ["src", "src/inner"], /^Cannot move src into itself \(src\/inner\)\.$/],
    ["onto itself", ["src/a.ts", "./src/a.ts"], /^Cannot move src\/a\.ts to itself\.$/],
    ["moved twice", ["src/a.ts", "x/a.ts", "src", "lib"], /moved twice/],
  ];
  it.each(cases)("%s", async (_name, paths, message) => {
    const workspace = new MemoryWorkspace(files);
    const error = await executeTool(tool, { paths }, workspace, "call").then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
  });
});

describe("move: directories", () => {
  const files = {
    "src/util/index.ts": 'export * from "./str";\nexport * from "./num";\n',
    "src/util/str.ts": 'import { isNum } from "./num";\nexport const str = (x: unknown) => (isNum(x) ? String(x) : "");\n',
    "src/util/num.ts":
      'import { config } from "../config";\nexport const isNum = (x: unknown): x is number => typeof x === "number" && config.ok;\n',
    "src/util/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
    "src/config.ts": "export const config = { ok: true };\n",
    "src/main.ts":
      'import { str } from "./util";\nimport { isNum } from "./util/num";\nexport const main = () => import("./util/str").then((m) => m.str(isNum(1) ? 1 : 0) + str(2));\n',
  };

  it("moves every file below the directory and updates imports inside and outside it", async () => {
    const { workspace, execution } = await run(files, ["src/util", "lib/shared/util"]);
    const action = execution.actions[0]!;
    expect(action.label).toBe("Move: 4 files (4 imports updated)");
    expect((action.details as { moved: unknown }).moved).toEqual([
      { from: "src/util/index.ts", to: "lib/shared/util/index.ts" },
      { from: "src/util/logo.png", to: "lib/shared/util/logo.png" },
      { from: "src/util/num.ts", to: "lib/shared/util/num.ts" },
      { from: "src/util/str.ts", to: "lib/shared/util/str.ts" },
    ]);
    const changes = action.changes!;
    expect(await textAfter(changes, "src/main.ts")).toBe(
      'import { str } from "../lib/shared/util";\nimport { isNum } from "../lib/shared/util/num";\nexport const main = () => import("../lib/shared/util/str").then((m) => m.str(isNum(1) ? 1 : 0) + str(2));\n',
    );
    expect(await textAfter(changes, "lib/shared/util/num.ts")).toContain('from "../../../src/config"');
    expect(await textAfter(changes, "lib/shared/util/str.ts")).toContain('from "./num"');
    expect(Buffer.from(await changes.read("lib/shared/util/logo.png"))).toEqual(files["src/util/logo.png"]);
    const applied = await applyAction(action, "ok", workspace);
    expect(resultText(applied.result)).toBe("Moved 4 files and updated 4 imports.");
  });
});

describe("move: verification of the language service's edits", () => {
  // a.ts and b.ts import each other; one command moves both, to different directories.
  const circular = {
    "src/a.ts": 'import { b } from "./b";\nexport const a = (): number => b() + 1;\n',
    "src/b.ts": 'import { a } from "./a";\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n',
    "src/main.ts": 'import { a } from "./a";\nimport { b } from "./b";\nconsole.log(a(), b());\n',
  };
  const paths = ["src/a.ts", "x/a.ts", "src/b.ts", "y/b.ts"];

  it("the raw getEditsForFileRename output leaves a moved file importing a path that no longer exists", async () => {
    const raw = await planMove(new MemoryWorkspace(circular), paths, { verify: false });
    // Moving a.ts alone, the service points a's import of b at src/b.ts; moving b.ts alone, at
    // src/a.ts. Neither call knows the other file moves too.
    expect(raw.contents.get("x/a.ts")).toBe('import { b } from "../src/b";\nexport const a = (): number => b() + 1;\n');
  });

  it("verification resolves every relative import after the move and fixes the miss", async () => {
    const plan = await planMove(new MemoryWorkspace(circular), paths);
    expect(plan.fixes).toEqual([{ file: "x/a.ts", from: "../src/b", to: "../y/b" }]);
    expect(plan.unresolved).toEqual([]);
    expect(plan.contents.get("x/a.ts")).toBe('import { b } from "../y/b";\nexport const a = (): number => b() + 1;\n');
    expect(plan.contents.get("y/b.ts")).toBe(
      'import { a } from "../x/a";\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n',
    );
    expect(plan.contents.get("src/main.ts")).toBe('import { a } from "../x/a";\nimport { b } from "../y/b";\nconsole.log(a(), b());\n');

    // The tool's action carries the fixed content and counts it.
    const { execution } = await run(circular, paths);
    expect(execution.actions[0]!.label).toBe("Move: 2 files (4 imports updated)");
    expect((execution.actions[0]!.details as { fixed: unknown }).fixed).toEqual(plan.fixes);
  });

  it("fixes what the service does not see: require() in .ts, stylesheet imports, .js-extension style", async () => {
    const files = {
      "src/a.ts": 'import "./a.css";\nimport { b } from "./b.js";\nconst c = require("./c");\nexport const a = [b, c];\n',
      "src/a.css": "body {}\n",
      "src/b.ts": "export const b = 1;\n",
      "src/c.ts": "export const c = 1;\n",
    };
    const raw = await planMove(new MemoryWorkspace(files), ["src/a.ts", "src/deep/a.ts"], { verify: false });
    expect(raw.contents.get("src/deep/a.ts")).toBe(
      'import "./a.css";\nimport { b } from "../b.js";\nconst c = require("./c");\nexport const a = [b, c];\n',
    );
    const plan = await planMove(new MemoryWorkspace(files), ["src/a.ts", "src/deep/a.ts"]);
    expect(plan.contents.get("src/deep/a.ts")).toBe(
      'import "../a.css";\nimport { b } from "../b.js";\nconst c = require("../c");\nexport const a = [b, c];\n',
    );
    expect(plan.importsUpdated).toBe(3);
  });

  it("updates imports of a moved JSON file", async () => {
    const files = {
      "tsconfig.json": '{ "compilerOptions": { "resolveJsonModule": true, "module": "esnext", "moduleResolution": "bundler" } }',
      "src/data.json": '{ "x": 1 }\n',
      "src/use.ts": 'import data from "./data.json";\nexport const x = data.x;\n',
    };
    const plan = await planMove(new MemoryWorkspace(files), ["src/data.json", "data/data.json"]);
    expect(plan.contents.get("src/use.ts")).toBe('import data from "../data/data.json";\nexport const x = data.x;\n');
  });
});

describe("move: tsconfig.json", () => {
  it("updates the config's files list, keeping its comments, so tsc still finds the moved file", async () => {
    const files = {
      "tsconfig.json": '{\n  // the entry points\n  "files": ["src/a.ts", "src/b.ts"]\n}\n',
      "src/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
      "src/b.ts": "export const b = 1;\n",
    };
    const plan = await planMove(new MemoryWorkspace(files), ["src/b.ts", "lib/b.ts"]);
    expect(plan.contents.get("tsconfig.json")).toBe('{\n  // the entry points\n  "files": ["src/a.ts", "lib/b.ts"]\n}\n');
    expect(plan.contents.get("src/a.ts")).toBe('import { b } from "../lib/b";\nexport const a = b;\n');
  });
});

describe("ts-project: the tsconfig is honoured", () => {
  it("finds the nearest tsconfig.json to the targets, else the root one", () => {
    const files = new Set(["tsconfig.json", "packages/a/tsconfig.json", "packages/a/src/x.ts", "packages/b/src/y.ts"]);
    expect(findConfig(files, ["packages/a/src/x.ts"])).toBe("packages/a/tsconfig.json");
    expect(findConfig(files, ["packages/b/src/y.ts"])).toBe("tsconfig.json");
    expect(findConfig(files, [])).toBe("tsconfig.json");
    expect(findConfig(new Set(["src/x.ts"]), ["src/x.ts"])).toBeUndefined();
  });

  it("follows extends inside the workspace and adds files the config leaves out", async () => {
    const workspace = new MemoryWorkspace({
      "tsconfig.json": '{ "extends": "./config/base.json", "include": ["src"] }',
      "config/base.json": '{ "compilerOptions": { "allowJs": true, "baseUrl": "..", "paths": { "@lib/*": ["lib/*"] } } }',
      "src/a.ts": 'import { l } from "@lib/l";\nexport const a = l;\n',
      "src/b.js": "module.exports = 1;\n",
      "lib/l.ts": "export const l = 1;\n",
      "test/a.test.ts": 'import { a } from "../src/a";\n',
    });
    const project = await loadTsProject(workspace, { targets: ["src/a.ts"] });
    try {
      expect(project.configPath).toBe("tsconfig.json");
      expect(project.options.allowJs).toBe(true);
      expect(project.rootFiles).toEqual(["lib/l.ts", "src/a.ts", "src/b.js", "test/a.test.ts"]);
      // paths from the extended config resolve.
      const resolved = ts.resolveModuleName("@lib/l", toAbs("src/a.ts"), project.options, project.fs.moduleResolutionHost());
      expect(toRel(resolved.resolvedModule?.resolvedFileName ?? "")).toBe("lib/l.ts");
    } finally {
      project.dispose();
    }
  });
});

describe("move: real code (rxjs 7 src)", () => {
  const files = rxjsFiles();
  let baseline: string[];
  let pristine: string;
  beforeAll(() => {
    pristine = writeTemp(files);
    baseline = tscDiagnostics(pristine);
  });
  afterAll(() => removeTemp(pristine));

  it("the baseline is what we expect (tsc runs, reports the 3 known tslib errors)", () => {
    expect(baseline).toHaveLength(3);
    expect(baseline.every((line) => line.includes("TS2354"))).toBe(true);
  });

  async function checkMove(paths: string[]): Promise<void> {
    const workspace = new MemoryWorkspace(files);
    const { actions } = await executeTool(tool, { paths }, workspace, "call");
    const action = actions[0]!;
    const details = action.details as {
      moved: Array<{ from: string; to: string }>;
      importsUpdated: number;
      fixed: unknown[];
      notUpdated: unknown[];
    };
    expect(details.notUpdated).toEqual([]);
    expect(action.label).toBe(
      `Move: ${details.moved.length} ${details.moved.length === 1 ? "file" : "files"} (${details.importsUpdated} imports updated)`,
    );
    expect(details.importsUpdated).toBeGreaterThan(10);

    // What the language service names, computed independently.
    const project = await loadTsProject(workspace, { targets: [paths[0]!] });
    const edits = project.service.getEditsForFileRename(toAbs(paths[0]!), toAbs(paths[1]!), FORMAT_SETTINGS, {});
    project.dispose();
    const moveMap = new Map(details.moved.map((move) => [move.from, move.to]));
    const named = new Set([...edits.map((edit) => toRel(edit.fileName)!), ...moveMap.keys()].map((file) => moveMap.get(file) ?? file));

    const applied = await applyAction(action, "ok", workspace);
    const dir = writeTemp(files);
    try {
      const changed = await applyToDir(dir, applied.changes);
      expect(changed).toEqual([...named].sort());
      const back = new Map([...moveMap].map(([from, to]) => [to, from]));
      expect(tscDiagnostics(dir, undefined, (file) => back.get(file) ?? file)).toEqual(baseline);
    } finally {
      removeTemp(dir);
    }
  }

  it("moves a directory to another depth (internal/util, 36 files); tsc reports the same", async () => {
    await checkMove(["src/internal/util", "src/shared/util"]);
  });

  it("moves a file imported from many places, in import cycles (innerFrom.ts); tsc reports the same, its own error included", async () => {
    await checkMove(["src/internal/observable/innerFrom.ts", "src/internal/innerFrom.ts"]);
  });
});
