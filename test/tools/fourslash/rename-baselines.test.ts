/**
 * TypeScript's fourslash rename tests that record their expectations in a baseline
 * (`verify.baselineRename`, tests/baselines/reference/*.baseline.jsonc), ported as data
 * (rename-baselines.json: each test's source path, its text and its baseline, verbatim) and run
 * through the real /rename-symbol tool by position (--at path:line:col): from every start the
 * baseline records, every file comes out exactly as the baseline shows it.
 */
import fs from "node:fs";
import { createToolAPI, executeTool } from "../../../src/core/execution.js";
import type { AnyToolDefinition } from "../../../src/core/tool.js";
import renameFactory from "../../../src/tools/rename-symbol.js";
import { MemoryWorkspace } from "../../../src/workspace/workspace.js";
import { textAfter } from "../../helpers/changes.js";
import { baselineRenames, fourslashFiles } from "./fourslash-markup.js";
import { RENAME_CASES, RENAME_NOT_PORTED } from "./rename.cases.js";

interface BaselineCase {
  source: string;
  test: string;
  baseline: string;
  adapted?: string;
}

const CASES = JSON.parse(fs.readFileSync(new URL("./rename-baselines.json", import.meta.url), "utf8")) as BaselineCase[];

const runs = CASES.flatMap((testCase) => {
  const files = fourslashFiles(testCase.source, testCase.test);
  return baselineRenames(testCase.baseline, files).map(
    (rename) => [`${testCase.source} from ${rename.file}:${rename.line}:${rename.column}`, files, rename] as const,
  );
});

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await renameFactory(pi);
});

describe("fourslash rename baselines, ported", () => {
  it("ports a solid number of baselines, each once, none of them also listed as not ported", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(runs.length).toBeGreaterThanOrEqual(140);
    const elsewhere = new Set([...RENAME_NOT_PORTED, ...RENAME_CASES].map((entry) => entry.source));
    expect(CASES.filter((testCase) => elsewhere.has(testCase.source))).toEqual([]);
    for (const entry of RENAME_NOT_PORTED) expect(entry.reason.length).toBeGreaterThan(20);
  });

  it.each(runs)("%s", async (_name, files, rename) => {
    const params = {
      from: rename.newName,
      at: `${rename.file}:${rename.line}:${rename.column}`,
      findInComments: rename.options.findInComments ?? false,
      findInStrings: rename.options.findInStrings ?? false,
      providePrefixAndSuffixTextForRename: rename.options.providePrefixAndSuffixTextForRename ?? rename.options.useAliasesForRename ?? true,
    };
    const execution = await executeTool(tool, params, new MemoryWorkspace(files), "call-1");
    const changes = execution.actions[0]!.changes!;
    const after: Record<string, string> = {};
    for (const file of Object.keys(files)) after[file] = await textAfter(changes, file);
    expect(after).toEqual({ ...files, ...rename.after });
  });
});
