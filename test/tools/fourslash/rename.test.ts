/**
 * TypeScript's fourslash rename tests, ported as data (rename.cases.ts), run through the real
 * /rename-symbol tool by position (--at path:line:col): from every start range, exactly the expected
 * ranges change (with their prefix/suffix text) and nothing else does.
 */
import { createToolAPI, executeTool } from "../../../src/core/execution.js";
import type { AnyToolDefinition } from "../../../src/core/tool.js";
import renameFactory from "../../../src/tools/rename-symbol.js";
import { MemoryWorkspace } from "../../../src/workspace/workspace.js";
import { textAfter } from "../../helpers/changes.js";
import { RENAME_CASES, type ExpectedLocation, type RenameCase, type RenameCheck } from "./rename.cases.js";

interface Range {
  file: string;
  start: number;
  end: number;
}

/** Fourslash markup to plain text and ranges (numbered as test.ranges() numbers them). */
function parseMarkup(files: RenameCase["files"]): { texts: Record<string, string>; ranges: Range[] } {
  const texts: Record<string, string> = {};
  const ranges: Range[] = [];
  for (const [file, markup] of files) {
    let out = "";
    const open: number[] = [];
    const found: Range[] = [];
    for (let i = 0; i < markup.length;) {
      const marker = /^\/\*[\w$]*\*\//.exec(markup.slice(i));
      if (markup.startsWith("[|", i)) {
        open.push(out.length);
        i += 2;
      } else if (markup.startsWith("|]", i)) {
        found.push({ file, start: open.pop()!, end: out.length });
        i += 2;
      } else if (markup.startsWith("{|", i)) {
        i = markup.indexOf("|}", i) + 2;
      } else if (marker) {
        i += marker[0].length;
      } else {
        out += markup[i++];
      }
    }
    texts[file] = out;
    ranges.push(...found.sort((a, b) => a.start - b.start || b.end - a.end));
  }
  return { texts, ranges };
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const NEW_NAME = "RENAMED";

function expectedTexts(texts: Record<string, string>, ranges: Range[], expect: ExpectedLocation[]): Record<string, string> {
  const out = { ...texts };
  const edits = expect
    .map((location) => (typeof location === "number" ? { range: location } : location))
    .map(({ range, prefix, suffix }) => ({ ...ranges[range]!, text: `${prefix ?? ""}${NEW_NAME}${suffix ?? ""}` }))
    .sort((a, b) => b.start - a.start);
  for (const edit of edits) out[edit.file] = out[edit.file]!.slice(0, edit.start) + edit.text + out[edit.file]!.slice(edit.end);
  return out;
}

const pi = createToolAPI();
let tool: AnyToolDefinition;
beforeAll(async () => {
  tool = await renameFactory(pi);
});

const runs = RENAME_CASES.flatMap((testCase) =>
  testCase.checks.flatMap((check: RenameCheck) =>
    check.at.map((at) => [`${testCase.source} from range ${at}`, testCase, check, at] as const),
  ),
);

describe("fourslash rename, ported", () => {
  it("ports a solid number of rename checks", () => {
    expect(RENAME_CASES.length).toBeGreaterThanOrEqual(43);
    expect(runs.length).toBeGreaterThanOrEqual(151);
  });

  it.each(runs)("%s", async (_name, testCase, check, at) => {
    const { texts, ranges } = parseMarkup(testCase.files);
    const start = ranges[at]!;
    const params = {
      from: NEW_NAME,
      at: `${start.file}:${position(texts[start.file]!, start.start)}`,
      findInComments: check.findInComments ?? false,
      findInStrings: check.findInStrings ?? false,
      providePrefixAndSuffixTextForRename: check.providePrefixAndSuffixTextForRename ?? true,
    };
    const execution = await executeTool(tool, params, new MemoryWorkspace(texts), "call-1");
    const changes = execution.actions[0]!.changes!;
    const after: Record<string, string> = {};
    for (const file of Object.keys(texts)) after[file] = await textAfter(changes, file);
    expect(after).toEqual(expectedTexts(texts, ranges, check.expect));
  });
});
