/**
 * TypeScript's fourslash rename tests that record their expectations in a baseline
 * (`verify.baselineRename`, tests/baselines/reference/*.baseline.jsonc), ported as data
 * (rename-baselines.json: each test's source path, its text and its baseline, verbatim) and run
 * through the real /rename-symbol tool by position (--at path:line:col): from every start the
 * baseline records, every file comes out exactly as the baseline shows it; and where a test says
 * `verify.renameInfoFailed` (`refusals`), the tool refuses there with the language service's reason.
 */
import fs from "node:fs";
import { createToolAPI, executeTool } from "../../../src/core/execution.js";
import type { AnyToolDefinition } from "../../../src/core/tool.js";
import renameFactory from "../../../src/tools/rename-symbol.js";
import { MemoryWorkspace } from "../../../src/workspace/workspace.js";
import { textAfter } from "../../helpers/changes.js";
import { UserError } from "../../../src/core/result.js";
import { baselineRenames, fourslashFiles, parseFourslash } from "./fourslash-markup.js";
import { RENAME_CASES, RENAME_NOT_PORTED } from "./rename.cases.js";
import { RENAME_TESTS_FOUND } from "./rename.found.js";

interface BaselineCase {
  source: string;
  test: string;
  /** The test's `*.baseline.jsonc`, verbatim (its findRenameLocations sections). */
  baseline?: string;
  /** `verify.renameInfoFailed` at a marker or range (numbered as test.ranges()): refused, with the message when the test gives one. */
  refusals?: Array<{ marker?: string; range?: number; message?: string; providePrefixAndSuffixTextForRename?: boolean }>;
  /**
   * Where the stored test is older than its baseline: text replacements (each must occur) that bring
   * the test to the version the baseline was made from, e.g. `module` written `namespace`.
   */
  update?: Array<[string, string]>;
  adapted?: string;
}

/** The test's text as its baseline was made from it. */
function testText(testCase: BaselineCase): string {
  return (testCase.update ?? []).reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`${testCase.source}: the update's "${from}" is not in the test`);
    return text.replaceAll(from, to);
  }, testCase.test);
}

const CASES = JSON.parse(fs.readFileSync(new URL("./rename-baselines.json", import.meta.url), "utf8")) as BaselineCase[];

const runs = CASES.flatMap((testCase) => {
  const files = fourslashFiles(testCase.source, testText(testCase));
  return baselineRenames(testCase.baseline ?? "", files).map(
    (rename) => [`${testCase.source} from ${rename.file}:${rename.line}:${rename.column}`, files, rename] as const,
  );
});

const refusals = CASES.flatMap((testCase) => {
  const { files, markers, ranges } = parseFourslash(testCase.source, testText(testCase));
  return (testCase.refusals ?? []).map((refusal) => {
    const position = refusal.marker !== undefined ? markers.get(refusal.marker)! : ranges[refusal.range!]!;
    const at = `${position.file}:${position.line}:${position.column}`;
    const prefixAndSuffix = refusal.providePrefixAndSuffixTextForRename ?? true;
    return [
      `${testCase.source} at ${at}${prefixAndSuffix ? "" : " without prefix and suffix text"}`,
      files,
      at,
      refusal.message,
      prefixAndSuffix,
    ] as const;
  });
});

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await renameFactory(pi);
});

describe("fourslash rename baselines, ported", () => {
  it("ports a solid number of baselines, each once, none of them also listed as not ported", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(106);
    expect(runs.length).toBeGreaterThanOrEqual(257);
    expect(refusals.length).toBeGreaterThanOrEqual(13);
    const elsewhere = new Set([...RENAME_NOT_PORTED, ...RENAME_CASES].map((entry) => entry.source));
    expect(CASES.filter((testCase) => testCase.baseline !== undefined && elsewhere.has(testCase.source))).toEqual([]);
    for (const entry of RENAME_NOT_PORTED) expect(entry.reason.length).toBeGreaterThan(20);
  });

  it("accounts for every rename test found: each is ported or listed as not ported, with its reason", () => {
    const accounted = [...CASES, ...RENAME_CASES, ...RENAME_NOT_PORTED].map((entry) => entry.source);
    expect([...new Set(accounted)].sort()).toEqual([...RENAME_TESTS_FOUND].sort());
    expect(new Set(RENAME_TESTS_FOUND).size).toBe(RENAME_TESTS_FOUND.length);
    expect(RENAME_TESTS_FOUND.length).toBeGreaterThanOrEqual(177);
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

  it.each(refusals)("refuses %s", async (_name, files, at, message, providePrefixAndSuffixTextForRename) => {
    const error = await executeTool(
      tool,
      { from: "RENAMED", at, providePrefixAndSuffixTextForRename },
      new MemoryWorkspace(files),
      "call-1",
    ).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UserError);
    // The language service's reason, verbatim (the test names it, or only checks that there is one).
    if (message !== undefined) expect((error as Error).message).toBe(`Cannot rename at ${at}: ${message}`);
    else expect((error as Error).message).toMatch(new RegExp(`^Cannot rename at ${at}: \\S`));
  });
});
