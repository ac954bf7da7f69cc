import { createToolAPI, executeTool, applyAction } from "../../src/core/execution.js";
import { UserError, resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import renameFactory from "../../src/tools/rename-symbol.js";
import { checkNewName } from "../../src/tools/rename-plan.js";
import { loadTsProject, toRel } from "../../src/tools/ts-project.js";
import { applyToDir, removeTemp, rxjsFiles, tscDiagnostics, writeTemp } from "../fixtures/ts/rxjs.js";
import { textAfter } from "../helpers/changes.js";

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await renameFactory(pi);
});

async function run(files: Record<string, string | Buffer>, params: { from: string; to: string; file?: string }) {
  const workspace = new MemoryWorkspace(files);
  const execution = await executeTool(tool, params, workspace, "call-1");
  return { workspace, execution };
}

async function failure(files: Record<string, string>, params: { from: string; to: string; file?: string }): Promise<Error> {
  const error = await run(files, params).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as Error;
}

const project = {
  "src/user.ts": "export interface User { name: string }\nexport function fetchUser(id: string): User {\n  return { name: id };\n}\n",
  "src/index.ts": 'export { fetchUser } from "./user";\nexport type { User } from "./user";\n',
  "src/app.ts":
    'import { fetchUser } from "./user";\n// fetchUser in a comment stays\nconst label = "fetchUser";\nexport const app = { fetchUser, label, first: fetchUser("1") };\n',
  "src/other.ts": "export function helper(): void {}\nexport class Store {\n  load(): void {}\n}\n",
  "src/other2.ts": "export function helper(): number {\n  return 1;\n}\nexport class Cache {\n  load(): number {\n    return 1;\n  }\n}\n",
  "src/unused.ts": "export function lonely(): void {}\n",
};

describe("rename_symbol", () => {
  it("is named rename_symbol, labelled Rename Symbol, with from/to positionals", () => {
    expect(tool.name).toBe("rename_symbol");
    expect(tool.label).toBe("Rename Symbol");
    expect(tool.positionals).toEqual(["from", "to"]);
  });

  it("renames a declaration and its references, with the exact label and apply text", async () => {
    const { workspace, execution } = await run(project, { from: "fetchUser", to: "loadUser" });
    expect(execution.actions).toHaveLength(1);
    const action = execution.actions[0]!;
    expect(action.label).toBe("Rename Symbol: fetchUser → loadUser (5 references in 3 files)");
    expect(action.sourceToolName).toBe("rename_symbol");
    expect(action.details).toEqual({
      from: "fetchUser",
      to: "loadUser",
      declaration: { file: "src/user.ts", line: 2, kind: "function", container: "" },
      references: 5,
      files: ["src/app.ts", "src/index.ts", "src/user.ts"],
    });
    const changes = action.changes!;
    expect(await textAfter(changes, "src/user.ts")).toContain("export function loadUser(id: string): User {");
    // Shorthand property keeps the object's shape; the barrel keeps its public name; comments and strings stay.
    expect(await textAfter(changes, "src/app.ts")).toBe(
      'import { loadUser } from "./user";\n// fetchUser in a comment stays\nconst label = "fetchUser";\nexport const app = { fetchUser: loadUser, label, first: loadUser("1") };\n',
    );
    expect(await textAfter(changes, "src/index.ts")).toBe(
      'export { loadUser as fetchUser } from "./user";\nexport type { User } from "./user";\n',
    );
    expect(resultText(execution.result)).toContain("Rename preview: fetchUser → loadUser, declared at src/user.ts:2 (function)");

    const applied = await applyAction(action, "ok", workspace);
    expect(resultText(applied.result)).toBe("Renamed fetchUser to loadUser in 3 files.");
    expect((await applied.changes.resolveChanges()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      "write src/app.ts",
      "write src/index.ts",
      "write src/user.ts",
    ]);
  });

  it("uses the singular forms", async () => {
    const { workspace, execution } = await run(project, { from: "lonely", to: "alone" });
    expect(execution.actions[0]!.label).toBe("Rename Symbol: lonely → alone (1 reference in 1 file)");
    const applied = await applyAction(execution.actions[0]!, "ok", workspace);
    expect(resultText(applied.result)).toBe("Renamed lonely to alone in 1 file.");
  });

  it("refuses an ambiguous name, listing each candidate as path:line and suggesting --at", async () => {
    const error = await failure(project, { from: "helper", to: "assist" });
    expect(error.message).toBe(
      "helper is declared 2 times; repeat with --at <path:line> (or --file <path>, or Container.name) to say which:\n- src/other.ts:1 (function)\n- src/other2.ts:1 (function)",
    );
    const { execution } = await run(project, { from: "helper", to: "assist", file: "src/other2.ts" });
    expect(execution.actions[0]!.label).toBe("Rename Symbol: helper → assist (1 reference in 1 file)");
  });

  it("narrows class members with Container.name", async () => {
    const error = await failure(project, { from: "load", to: "fetch" });
    expect(error.message).toContain("- src/other.ts:3 (method in Store)\n- src/other2.ts:5 (method in Cache)");
    const { execution } = await run(project, { from: "Cache.load", to: "fetch" });
    expect(execution.actions[0]!.label).toBe("Rename Symbol: load → fetch (1 reference in 1 file)");
    expect(await textAfter(execution.actions[0]!.changes!, "src/other2.ts")).toContain("  fetch(): number {");
  });

  it("treats overloads and merged declarations as one symbol", async () => {
    const files = {
      "a.ts":
        "export function f(x: string): string;\nexport function f(x: number): number;\nexport function f(x: unknown) {\n  return x;\n}\nf(1);\n",
      "b.ts": "export interface Box { a: number }\nexport interface Box { b: number }\nexport const box: Box = { a: 1, b: 2 };\n",
    };
    expect((await run(files, { from: "f", to: "g" })).execution.actions[0]!.label).toBe("Rename Symbol: f → g (4 references in 1 file)");
    expect((await run(files, { from: "Box", to: "Crate" })).execution.actions[0]!.label).toBe(
      "Rename Symbol: Box → Crate (3 references in 1 file)",
    );
  });

  it("prefers module-level declarations over locals of the same name", async () => {
    const files = {
      "a.ts": "export const size = 1;\nexport function g() {\n  const size = 2;\n  return size;\n}\n",
      "b.ts": 'import { size } from "./a";\nexport const twice = size * 2;\n',
    };
    const { execution } = await run(files, { from: "size", to: "count" });
    expect(execution.actions[0]!.label).toBe("Rename Symbol: size → count (3 references in 2 files)");
    expect(await textAfter(execution.actions[0]!.changes!, "a.ts")).toBe(
      "export const count = 1;\nexport function g() {\n  const size = 2;\n  return size;\n}\n",
    );
  });

  it.each([
    ["unknown name", { from: "nothing", to: "x" }, /^No declaration named nothing found\.$/],
    [
      "unknown name in a file",
      { from: "nothing", to: "x", file: "src/user.ts" },
      /^No declaration named nothing found in src\/user\.ts\.$/,
    ],
    ["missing file", { from: "fetchUser", to: "x", file: "src/nope.ts" }, /^src\/nope\.ts does not exist\.$/],
    ["not an identifier", { from: "fetchUser", to: "load-user" }, /^"load-user" is not a valid identifier\.$/],
    ["starts with a digit", { from: "fetchUser", to: "1user" }, /not a valid identifier/],
    ["reserved word", { from: "fetchUser", to: "delete" }, /^"delete" is a reserved word/],
    ["strict-mode reserved word", { from: "fetchUser", to: "interface" }, /reserved word/],
    ["same name", { from: "fetchUser", to: "fetchUser" }, /already called fetchUser/],
    ["a lib declaration", { from: "Array", to: "List" }, /^No declaration named Array found\.$/],
    [
      "no new name, in the command's words",
      { from: "fetchUser", to: "" },
      /^\/rename-symbol needs the new name: `\/rename-symbol <from> <to>`, or `\/rename-symbol <to> --at path:line\[:col\]`\.$/,
    ],
  ])("errors: %s", async (_name, params, message) => {
    expect((await failure(project, params)).message).toMatch(message);
  });

  it("accepts unicode identifiers and contextual keywords", () => {
    expect(() => checkNewName("größe", "size")).not.toThrow();
    expect(() => checkNewName("type", "kind")).not.toThrow();
    expect(() => checkNewName("$_x1", "y")).not.toThrow();
  });

  it("is deterministic: a replay gives the same label, details and change digest", async () => {
    const first = await run(project, { from: "User", to: "Person" });
    const second = await run(project, { from: "User", to: "Person" });
    const [a, b] = [first.execution.actions[0]!, second.execution.actions[0]!];
    expect(a.label).toBe("Rename Symbol: User → Person (3 references in 2 files)");
    expect(b.label).toBe(a.label);
    expect(JSON.stringify(b.details)).toBe(JSON.stringify(a.details));
    expect((await b.changes!.fingerprint()).digest).toBe((await a.changes!.fingerprint()).digest);
  });
});

describe("rename_symbol: real code (rxjs 7 src)", () => {
  it("renames OperatorFunction across the code base; tsc reports the same; the changed files are the rename locations'", async () => {
    const files = rxjsFiles();
    const pristine = writeTemp(files);
    const changedDir = writeTemp(files);
    try {
      const baseline = tscDiagnostics(pristine);
      expect(baseline).toHaveLength(3);

      const workspace = new MemoryWorkspace(files);
      const { actions } = await executeTool(tool, { from: "OperatorFunction", to: "OperatorFn" }, workspace, "call");
      const action = actions[0]!;
      const details = action.details as { references: number; files: string[]; declaration: { file: string; line: number } };
      expect(details.declaration).toMatchObject({ file: "src/internal/types.ts", kind: "interface" });
      expect(details.files.length).toBeGreaterThan(50);
      expect(action.label).toBe(
        `Rename Symbol: OperatorFunction → OperatorFn (${details.references} references in ${details.files.length} files)`,
      );

      // The files the language service names, independently.
      const project = await loadTsProject(workspace);
      const types = project.program.getSourceFile("/__workspace__/src/internal/types.ts")!;
      const position = types.text.indexOf("export interface OperatorFunction") + "export interface ".length;
      const locations = project.service.findRenameLocations(types.fileName, position, false, false, {
        providePrefixAndSuffixTextForRename: true,
      })!;
      project.dispose();
      const named = [...new Set(locations.map((location) => toRel(location.fileName)!))].sort();
      expect(locations).toHaveLength(details.references);

      const applied = await applyAction(action, "ok", workspace);
      expect(resultText(applied.result)).toBe(`Renamed OperatorFunction to OperatorFn in ${details.files.length} files.`);
      const changed = await applyToDir(changedDir, applied.changes);
      expect(changed).toEqual(named);
      expect(tscDiagnostics(changedDir)).toEqual(baseline);
    } finally {
      removeTemp(pristine);
      removeTemp(changedDir);
    }
  });
});
