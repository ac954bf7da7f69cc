/** Which changed runs of lines become GitHub suggested changes, on which lines, and what the rest becomes. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { patchComments, planSuggestions, COMMENT_LIMIT, type SuggestionComment } from "../../../../src/forges/github/edits/suggestions.js";

const PATCH = [
  "diff --git a/a.md b/a.md",
  "--- a/a.md",
  "+++ b/a.md",
  "@@ -1,3 +1,4 @@",
  " one",
  "-two",
  "+```two```",
  "+",
  " three",
  "@@ -20 +21,2 @@",
  " twenty",
  "+added after line 20",
  "diff --git a/new.md b/new.md",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new.md",
  "@@ -0,0 +1 @@",
  "+hello",
  "",
].join("\n");

test("a change on lines of the pull request's diff is suggested on exactly its lines; blank lines and backticks survive the fence", () => {
  const plan = planSuggestions(PATCH, [{ filename: "a.md", patch: "@@ -1,2 +1,3 @@\n one\n+two\n three" }]);
  expect(plan.comments).toEqual([{ path: "a.md", line: 2, side: "RIGHT", body: "````suggestion\n```two```\n\n````" }]);
  // Outside the diff (line 20) and new files go to the patch, with their own headers.
  expect(plan.rest).toBe(
    [
      "diff --git a/a.md b/a.md",
      "--- a/a.md",
      "+++ b/a.md",
      "@@ -20 +20,2 @@",
      " twenty",
      "+added after line 20",
      ...PATCH.split("\n").slice(12),
    ].join("\n"),
  );
});

/** The head's file: lines "one" … "ten". */
const WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const HEAD = `${WORDS.join("\n")}\n`;
const filePatch = (...hunk: string[]) => ["diff --git a/f.txt b/f.txt", "--- a/f.txt", "+++ b/f.txt", ...hunk, ""].join("\n");
/** The pull request's diff of f.txt covering head lines `from..to`. */
const prDiff = (...ranges: Array<[number, number]>) => [
  { filename: "f.txt", patch: ranges.map(([from, to]) => `@@ -${from},1 +${from},${to - from + 1} @@`).join("\n") },
];

/** What the author gets by committing the suggestions (each replaces its lines by its body). */
function commitSuggestions(text: string, comments: SuggestionComment[]): string {
  const lines = text.replace(/\n$/, "").split("\n");
  // Bottom up, so earlier line numbers still hold.
  for (const c of [...comments].sort((a, b) => b.line - a.line)) {
    const body = /^`+suggestion\n([\s\S]*?)\n?`+$/.exec(c.body)![1]!;
    lines.splice((c.start_line ?? c.line) - 1, c.line - (c.start_line ?? c.line) + 1, ...(body === "" ? [] : body.split("\n")));
  }
  return `${lines.join("\n")}\n`;
}

/** `git apply` of `patch` on f.txt holding `text`: the file after it. */
function gitApply(text: string, patch: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-suggest-"));
  try {
    writeFileSync(path.join(dir, "f.txt"), text);
    writeFileSync(path.join(dir, "rest.patch"), patch);
    execFileSync("git", ["apply", "rest.patch"], { cwd: dir });
    return readFileSync(path.join(dir, "f.txt"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("two separate changes in one hunk: two suggestions, each on exactly the changed lines", () => {
  const patch = filePatch(
    "@@ -1,10 +1,9 @@",
    " one",
    " two",
    "-three",
    "+THREE",
    " four",
    " five",
    " six",
    "-seven",
    "-eight",
    "+SEVEN",
    " nine",
    " ten",
  );
  const plan = planSuggestions(patch, prDiff([1, 10]));
  expect(plan.comments).toEqual([
    { path: "f.txt", line: 3, side: "RIGHT", body: "```suggestion\nTHREE\n```" },
    { path: "f.txt", start_line: 7, start_side: "RIGHT", line: 8, side: "RIGHT", body: "```suggestion\nSEVEN\n```" },
  ]);
  expect(plan.rest).toBe("");
  expect(commitSuggestions(HEAD, plan.comments)).toBe("one\ntwo\nTHREE\nfour\nfive\nsix\nSEVEN\nnine\nten\n");
});

test("a pure insertion takes the line before it into its range, or the line after it when only that one is in the diff", () => {
  const patch = filePatch("@@ -2,6 +2,8 @@", " two", " three", " four", "+four and a half", "+", " five", " six", " seven");
  const after = "one\ntwo\nthree\nfour\nfour and a half\n\nfive\nsix\nseven\neight\nnine\nten\n";
  const before = planSuggestions(patch, prDiff([3, 4]));
  expect(before.comments).toEqual([{ path: "f.txt", line: 4, side: "RIGHT", body: "```suggestion\nfour\nfour and a half\n\n```" }]);
  expect(commitSuggestions(HEAD, before.comments)).toBe(after);
  const next = planSuggestions(patch, prDiff([5, 9]));
  expect(next.comments).toEqual([{ path: "f.txt", line: 5, side: "RIGHT", body: "```suggestion\nfour and a half\n\nfive\n```" }]);
  expect(commitSuggestions(HEAD, next.comments)).toBe(after);
  expect(next.rest).toBe("");
  // Neither neighbour in the diff: the insertion stays in the patch.
  const none = planSuggestions(patch, prDiff([8, 10]));
  expect(none.comments).toEqual([]);
  expect(gitApply(HEAD, none.rest)).toBe(after);
});

test("two insertions around one line: the line anchors only one of them, the other stays in the patch", () => {
  const patch = filePatch("@@ -3,3 +3,5 @@", " three", "+three and a half", " four", "+four and a half", " five");
  const plan = planSuggestions(patch, prDiff([4, 4]));
  expect(plan.comments).toEqual([{ path: "f.txt", line: 4, side: "RIGHT", body: "```suggestion\nthree and a half\nfour\n```" }]);
  const edited = "one\ntwo\nthree\nthree and a half\nfour\nfour and a half\nfive\nsix\nseven\neight\nnine\nten\n";
  expect(commitSuggestions(gitApply(HEAD, plan.rest), plan.comments)).toBe(edited);
  expect(gitApply(commitSuggestions(HEAD, plan.comments), plan.rest)).toBe(edited);
});

test("a deletion is an empty suggestion on the deleted lines", () => {
  const patch = filePatch("@@ -2,7 +2,5 @@", " two", " three", " four", "-five", "-six", " seven", " eight", " nine");
  const plan = planSuggestions(patch, prDiff([5, 6]));
  expect(plan.comments).toEqual([
    { path: "f.txt", start_line: 5, start_side: "RIGHT", line: 6, side: "RIGHT", body: "```suggestion\n```" },
  ]);
  expect(commitSuggestions(HEAD, plan.comments)).toBe("one\ntwo\nthree\nfour\nseven\neight\nnine\nten\n");
});

test("a change partly outside the pull request's diff stays in the patch, which applies with or without the suggestions committed", () => {
  const patch = filePatch(
    "@@ -1,10 +1,10 @@",
    " one",
    " two",
    "-three",
    "+THREE",
    " four",
    "-five",
    "+FIVE",
    " six",
    " seven",
    "-eight",
    "-nine",
    "+EIGHT",
    "+NINE",
    " ten",
  );
  // Line 3 is in the diff, line 5 is not, lines 8-9 are only half in it (8 is, 9 is not).
  const plan = planSuggestions(patch, prDiff([1, 3], [8, 8]));
  expect(plan.comments).toEqual([{ path: "f.txt", line: 3, side: "RIGHT", body: "```suggestion\nTHREE\n```" }]);
  // The patch's context never reaches into the suggested line 3.
  expect(plan.rest).toBe(
    filePatch("@@ -4,7 +4,7 @@", " four", "-five", "+FIVE", " six", " seven", "-eight", "-nine", "+EIGHT", "+NINE", " ten"),
  );
  const edited = "one\ntwo\nTHREE\nfour\nFIVE\nsix\nseven\nEIGHT\nNINE\nten\n";
  expect(commitSuggestions(gitApply(HEAD, plan.rest), plan.comments)).toBe(edited);
  expect(gitApply(commitSuggestions(HEAD, plan.comments), plan.rest)).toBe(edited);
});

test("a suggested change between two that are not: the patch has two hunks around it, apart", () => {
  const patch = filePatch(
    "@@ -1,10 +1,10 @@",
    " one",
    "-two",
    "+TWO",
    " three",
    "-four",
    "+FOUR",
    " five",
    "-six",
    "+SIX",
    " seven",
    " eight",
    " nine",
  );
  const plan = planSuggestions(patch, prDiff([4, 4]));
  expect(plan.comments).toEqual([{ path: "f.txt", line: 4, side: "RIGHT", body: "```suggestion\nFOUR\n```" }]);
  expect(plan.rest).toBe(
    filePatch("@@ -1,3 +1,3 @@", " one", "-two", "+TWO", " three", "@@ -5,5 +5,5 @@", " five", "-six", "+SIX", " seven", " eight", " nine"),
  );
  const edited = "one\nTWO\nthree\nFOUR\nfive\nSIX\nseven\neight\nnine\nten\n";
  expect(commitSuggestions(gitApply(HEAD, plan.rest), plan.comments)).toBe(edited);
  expect(gitApply(commitSuggestions(HEAD, plan.comments), plan.rest)).toBe(edited);
});

test("a missing final newline is never suggested", () => {
  const patch = filePatch("@@ -9,2 +9,2 @@", " nine", "-ten", "\\ No newline at end of file", "+TEN", "\\ No newline at end of file");
  expect(planSuggestions(patch, prDiff([1, 10])).comments).toEqual([]);
});

test("no pull request diff on the file: everything is patch", () => {
  const plan = planSuggestions(PATCH, []);
  expect(plan.comments).toEqual([]);
  expect(plan.rest).toContain("@@ -1,3 +1,4 @@");
});

test("patch comments name their part and each holds one whole fenced patch", () => {
  const big = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,4000 +1,4000 @@\n${Array.from({ length: 4000 }, (_, i) => `-old ${i} ${"x".repeat(20)}\n+new ${i} ${"x".repeat(20)}`).join("\n")}\n`;
  const bodies = patchComments(big, (part, parts) => `Part ${part} of ${parts}`)!;
  expect(bodies.length).toBeGreaterThan(3);
  bodies.forEach((body, index) => {
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body).toMatch(new RegExp(`^Part ${index + 1} of ${bodies.length}\\n\\n\`\`\`diff\\ndiff --git a/x b/x\\n[\\s\\S]*\\n\`\`\`$`));
  });
});

test("a line longer than a comment is never cut: no parts at all", () => {
  const patch = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+${"b".repeat(70_000)}\n`;
  expect(patchComments(patch, () => "Part")).toBeUndefined();
});
