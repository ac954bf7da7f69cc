/**
 * TypeScript's fourslash getEditsForFileRename tests, ported as data (file-rename.cases.ts), run
 * through /move's planner: every file the test names has exactly the test's expected text after the
 * move, and every other file is unchanged.
 */
import { planMove } from "../../../src/tools/move-plan.js";
import { MemoryWorkspace } from "../../../src/workspace/workspace.js";
import { FILE_RENAME_CASES, FILE_RENAME_NOT_PORTED } from "./file-rename.cases.js";

describe("fourslash getEditsForFileRename, ported", () => {
  it("ports a solid number of cases", () => {
    expect(new Set(FILE_RENAME_CASES.map((testCase) => testCase.source)).size).toBeGreaterThanOrEqual(28);
  });

  it("lists what it does not port, with a reason, and never ports and skips the same test", () => {
    const ported = new Set(FILE_RENAME_CASES.map((testCase) => testCase.source));
    for (const skipped of FILE_RENAME_NOT_PORTED) {
      expect(skipped.reason.length).toBeGreaterThan(20);
      expect(ported.has(skipped.source)).toBe(false);
    }
  });

  it.each(FILE_RENAME_CASES.map((testCase) => [`${testCase.source} (${testCase.move.join(" → ")})`, testCase] as const))(
    "%s",
    async (_name, testCase) => {
      const plan = await planMove(new MemoryWorkspace(testCase.files), testCase.move, {
        preferences: testCase.preferences,
      });
      const moved = new Map(plan.moves.map((move) => [move.from, move.to]));
      const after: Record<string, string> = {};
      for (const [file, text] of Object.entries(testCase.files)) {
        const newPath = moved.get(file) ?? file;
        after[newPath] = plan.contents.get(newPath) ?? text;
      }
      const expected: Record<string, string> = {};
      for (const [file, text] of Object.entries(testCase.files)) expected[moved.get(file) ?? file] = text;
      Object.assign(expected, testCase.expect);
      expect(after).toEqual(expected);
    },
  );
});
