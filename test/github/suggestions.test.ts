/** Which hunks become GitHub suggested changes, and what the rest becomes. */
import { patchComments, planSuggestions, COMMENT_LIMIT } from "../../src/github/suggestions.js";

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

test("hunks on lines of the pull request's diff become suggestions; blank lines and backticks survive the fence", () => {
  const plan = planSuggestions(PATCH, [{ filename: "a.md", patch: "@@ -1,2 +1,3 @@\n one\n+two\n three" }]);
  expect(plan.comments).toEqual([
    { path: "a.md", start_line: 1, start_side: "RIGHT", line: 3, side: "RIGHT", body: "````suggestion\none\n```two```\n\nthree\n````" },
  ]);
  // Outside the diff (line 20) and new files go to the patch, with their own headers.
  expect(plan.rest).toBe(
    [
      "diff --git a/a.md b/a.md",
      "--- a/a.md",
      "+++ b/a.md",
      "@@ -21 +21,2 @@",
      " twenty",
      "+added after line 20",
      ...PATCH.split("\n").slice(12),
    ].join("\n"),
  );
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
