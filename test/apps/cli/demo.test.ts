/**
 * `resolve-bot demo` as a newcomer runs it: the loop ends with the logger edit committed, and the
 * sample project it leaves type-checks with TypeScript's own compiler (the edit is a real one).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { git } from "../../helpers/git-repo.js";

const CLI = path.resolve("dist/src/apps/bin.js");
const TSC = path.resolve("node_modules/typescript/bin/tsc");

test("the demo applies the logger edit, discards the move, and its result type-checks", () => {
  const demo = spawnSync(process.execPath, [CLI, "demo"], { encoding: "utf8" });
  expect([demo.status, demo.stderr]).toEqual([0, ""]);
  const dir = /^Sample repository: (.+)$/m.exec(demo.stdout)![1]!;
  try {
    expect(git(dir, "log", "--format=%s").trim().split("\n")).toEqual(["AST Edit: 2 replacements in 2 files", "Sample project"]);
    expect(git(dir, "ls-files").trim().split("\n")).toEqual(["src/logger.ts", "src/main.ts", "src/math.ts", "tsconfig.json"]);
    const tsc = spawnSync(process.execPath, [TSC, "--noEmit", "-p", dir], { encoding: "utf8" });
    expect([tsc.status, tsc.stdout]).toEqual([0, ""]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
