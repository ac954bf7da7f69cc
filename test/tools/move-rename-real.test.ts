/**
 * Real projects stay as they were: effect@3 src/ (diagnostics through the language service's
 * program, of every file the change can affect) and rxjs@7 src/ (tsc itself, every file) after a
 * directory move and a rename by position.
 */
import { applyAction, createToolAPI, executeTool } from "../../src/core/execution.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import moveFactory from "../../src/tools/move.js";
import renameFactory from "../../src/tools/rename-symbol.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { effectFiles, filesAfter, serviceDiagnostics } from "../fixtures/ts/effect.js";
import { applyToDir, removeTemp, rxjsFiles, tscDiagnostics, writeTemp } from "../fixtures/ts/rxjs.js";

const pi = createToolAPI();
let move: AnyToolDefinition;
let rename: AnyToolDefinition;
beforeAll(async () => {
  move = await moveFactory(pi);
  rename = await renameFactory(pi);
});

async function run(tool: AnyToolDefinition, files: Record<string, Buffer>, params: Record<string, unknown>) {
  const workspace = new MemoryWorkspace(files);
  const { actions } = await executeTool(tool, params, workspace, "call");
  const applied = await applyAction(actions[0]!, "ok", workspace);
  const changed = (await applied.changes.resolveChanges()).map((change) => change.path);
  return { action: actions[0]!, changes: applied.changes, changed };
}

describe("effect@3 src: diagnostics are identical before and after", () => {
  const files = effectFiles();

  it("moves a directory one level deeper (internal/encoding, 4 files and its importer)", async () => {
    const { changes, changed, action } = await run(move, files, { paths: ["src/internal/encoding", "src/internal/text/encoding"] });
    expect(action.label).toBe("Move: 4 files (13 imports updated)");
    const back = (file: string) => file.replace("src/internal/text/encoding/", "src/internal/encoding/");
    const before = await serviceDiagnostics(files, changed.map(back));
    const after = await serviceDiagnostics(await filesAfter(files, changes), changed, back);
    // The moved files, their importers and the files that re-export them (src/index.ts).
    expect(before.checked).toEqual(expect.arrayContaining(["src/Encoding.ts", "src/index.ts", "src/internal/encoding/base64.ts"]));
    expect(after).toEqual(before);
  });

  it("renames by position (stripCrlf in internal/encoding/base64.ts)", async () => {
    const { changes, changed, action } = await run(rename, files, {
      from: "removeLineBreaks",
      at: "src/internal/encoding/base64.ts:77:14",
    });
    expect(action.label).toBe("Rename Symbol: stripCrlf → removeLineBreaks (3 references in 2 files)");
    const before = await serviceDiagnostics(files, changed);
    expect(before.checked).toEqual(expect.arrayContaining(["src/Encoding.ts", "src/index.ts", ...changed]));
    expect(await serviceDiagnostics(await filesAfter(files, changes), changed)).toEqual(before);
  });
});

describe("rxjs@7 src: tsc reports the same after a directory move and a rename by position", () => {
  const files = rxjsFiles();
  let pristine: string;
  let before: string[];
  beforeAll(() => {
    pristine = writeTemp(files);
    before = tscDiagnostics(pristine);
  });
  afterAll(() => removeTemp(pristine));

  async function tscAfter(changes: Awaited<ReturnType<typeof run>>["changes"], mapPath?: (file: string) => string): Promise<string[]> {
    const changedDir = writeTemp(files);
    try {
      await applyToDir(changedDir, changes);
      return tscDiagnostics(changedDir, undefined, mapPath);
    } finally {
      removeTemp(changedDir);
    }
  }

  it("moves internal/scheduled one level deeper (7 files and their importers)", async () => {
    const { changes, changed, action } = await run(move, files, { paths: ["src/internal/scheduled", "src/internal/observable/scheduled"] });
    expect(action.label).toMatch(/^Move: 7 files \(\d+ imports updated\)$/);
    expect(changed).toEqual(expect.arrayContaining(["src/internal/observable/from.ts", "src/internal/observable/scheduled/scheduled.ts"]));
    const back = (file: string) => file.replace("src/internal/observable/scheduled/", "src/internal/scheduled/");
    expect(await tscAfter(changes, back)).toEqual(before);
  });

  it("renames isFunction from its declaration line", async () => {
    const { changes, action } = await run(rename, files, { from: "isCallable", at: "src/internal/util/isFunction.ts:5" });
    expect(action.label).toMatch(/^Rename Symbol: isFunction → isCallable \(\d+ references in \d+ files\)$/);
    expect(await tscAfter(changes)).toEqual(before);
  });
});
