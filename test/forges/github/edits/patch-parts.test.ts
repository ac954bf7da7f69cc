/**
 * Patches split into comment-sized parts: every part is a patch of its own, and applying the
 * parts in order with the real `git apply` gives exactly what the whole patch gives.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ChangeSet } from "../../../../src/workspace/changeset.js";
import { renderDiff } from "../../../../src/workspace/diff.js";
import { MemoryWorkspace } from "../../../../src/workspace/workspace.js";
import { binaryFiles, splitPatch } from "../../../../src/forges/github/edits/patch-parts.js";
import { makeRepo, treeAt } from "../../../helpers/git-repo.js";

const lines = (count: number, word: string) =>
  Array.from({ length: count }, (_, index) => `${word} ${index} ${"·".repeat(30)}`).join("\n") + "\n";

const BASE = {
  "big.ts": lines(3_000, "old"),
  "spread.ts": lines(2_000, "keep"),
  "gone.txt": lines(1_500, "bye"),
  "moved.ts": lines(50, "move"),
  "tail.txt": "a\nb\nno newline at the end",
};

const SPREAD = BASE["spread.ts"]
  .split("\n")
  .map((line, index) => (index % 40 === 0 && line ? `${line} changed` : line))
  .join("\n");

async function bigPatch(): Promise<string> {
  const changes = new ChangeSet(new MemoryWorkspace(BASE));
  await changes.write("big.ts", lines(3_000, "new")); // one hunk of 6,000 lines
  await changes.write("spread.ts", SPREAD);
  await changes.write("fresh.md", lines(2_500, "fresh"));
  await changes.delete("gone.txt");
  await changes.rename("moved.ts", "src/moved.ts");
  await changes.write("src/moved.ts", lines(50, "move").replace("move 7 ", "moved 7 "));
  await changes.write("tail.txt", "a\nB\nstill no newline");
  await changes.write("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
  return renderDiff(changes);
}

function applyInOrder(parts: string[]): Record<string, string> {
  const repo = makeRepo(BASE);
  parts.forEach((part, index) => {
    const file = path.join(repo, `.part-${index}.patch`);
    writeFileSync(file, part);
    execFileSync("git", ["apply", file], { cwd: repo });
    execFileSync("rm", [file]);
  });
  execFileSync("git", ["add", "-A"], { cwd: repo });
  execFileSync("git", ["commit", "-qm", "applied"], { cwd: repo });
  return treeAt(repo);
}

test("a patch far over one comment applies part by part to exactly the whole patch's result", async () => {
  const patch = await bigPatch();
  expect(patch.length).toBeGreaterThan(400_000);
  const whole = applyInOrder(splitPatch(patch, Infinity));
  const parts = splitPatch(patch, 60_000);
  expect(parts.length).toBeGreaterThan(8);
  for (const part of parts) {
    expect(part.length).toBeLessThanOrEqual(60_000);
    expect(part.startsWith("diff --git ")).toBe(true);
  }
  const pieces = applyInOrder(parts);
  expect(pieces).toEqual(whole);
  expect(pieces["big.ts"]).toBe(lines(3_000, "new"));
  expect(pieces["spread.ts"]).toBe(SPREAD);
  expect(pieces["src/moved.ts"]).toBe(lines(50, "move").replace("move 7 ", "moved 7 "));
  expect(pieces["fresh.md"]).toBe(lines(2_500, "fresh"));
  expect(pieces["gone.txt"]).toBeUndefined();
  expect(pieces["moved.ts"]).toBeUndefined();
  expect(pieces["tail.txt"]).toBe("a\nB\nstill no newline");
  expect(binaryFiles(patch)).toEqual(["logo.png"]);
});

test("small budgets still give parts that apply, down to a few lines each", async () => {
  const changes = new ChangeSet(new MemoryWorkspace(BASE));
  await changes.write("tail.txt", "A\nB\nstill no newline");
  await changes.delete("moved.ts");
  const patch = await renderDiff(changes);
  const parts = splitPatch(patch, 400);
  expect(parts.length).toBeGreaterThan(5);
  const result = applyInOrder(parts);
  expect(result["tail.txt"]).toBe("A\nB\nstill no newline");
  expect(result["moved.ts"]).toBeUndefined();
});

test("a single line longer than a part is refused rather than cut", () => {
  const patch = `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+${"b".repeat(500)}\n`;
  expect(() => splitPatch(patch, 300)).toThrow("a line of the patch is longer than");
});
