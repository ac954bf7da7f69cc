/**
 * The resolve-bot CLI as a user runs it: every step is a separate process (dist/src/cli.js,
 * built by `npm test`'s pretest), so the stack and replay are tested across processes.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { git, makeRepo, treeAt } from "../helpers/git-repo.js";

const CLI = path.resolve("dist/src/cli.js");

function cli(cwd: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, "--cwd", cwd, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const SOURCES = {
  "src/a.ts": 'export function greet(name: string) {\n  console.log("hi", name);\n}\n',
  "src/b.ts": 'import { greet } from "./a";\n\nconsole.log(greet("b"));\n',
  "README.md": "# sample\n",
};

describe("resolve-bot CLI", () => {
  test("LIFO across processes: discard pops the second preview, apply the first", () => {
    const repo = makeRepo(SOURCES);
    const first = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src"]);
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toContain("Pending #1: AST Edit: 2 replacements in 2 files");
    expect(first.out).toContain("-  console.log(\"hi\", name);\n+  logger.debug(\"hi\", name);");
    const second = cli(repo, ["preview", "--", "/rename-symbol greet welcome"]);
    expect(second.code).toBe(0);
    expect(second.out).toContain("Pending #2: Rename Symbol: greet → welcome");

    const pending = cli(repo, ["pending"]);
    expect(pending.out).toMatch(/^2 pending, newest first \(the first is resolved next\):\n1\. Rename Symbol: greet → welcome .*\n2\. AST Edit: 2 replacements in 2 files /);

    const discarded = cli(repo, ["resolve", "discard", "not this one"]);
    expect(discarded.code).toBe(0);
    expect(discarded.out.split("\n")[0]).toBe("Discarded: Rename Symbol: greet → welcome (3 references in 2 files). Reason: not this one");

    const applied = cli(repo, ["resolve", "apply", "use the logger"]);
    expect(applied.code).toBe(0);
    expect(applied.out.split("\n")[0]).toBe("Applied 2 replacements in 2 files.");
    expect(treeAt(repo)).toEqual({
      ...SOURCES,
      "src/a.ts": 'export function greet(name: string) {\n  logger.debug("hi", name);\n}\n',
      "src/b.ts": 'import { greet } from "./a";\n\nlogger.debug(greet("b"));\n',
    });
    const message = git(repo, "log", "-1", "--format=%B");
    expect(message).toMatch(/^AST Edit: 2 replacements in 2 files\n\nuse the logger\n\nResolve-Action: [0-9a-f-]{36}\n/);
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("2");
    expect(cli(repo, ["resolve", "apply", "again"])).toEqual({ code: 1, out: "", err: "No pending action to resolve. Nothing to apply or discard.\n" });
  });

  test("replay: a preview made in one process is applied by another; an edited file makes it stale", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'"]).code).toBe(0);
    writeFileSync(path.join(repo, "src/a.ts"), 'export function greet(name: string) {\n  console.log("hello", name);\n}\n');
    const stale = cli(repo, ["resolve", "apply", "go"]);
    expect(stale.code).toBe(1);
    expect(stale.err).toBe(
      "Apply failed: preview is stale: src/a.ts changed since the preview. Discard it and run the command again for a fresh preview.\n",
    );
    expect(readFileSync(path.join(repo, "src/b.ts"), "utf8")).toBe(SOURCES["src/b.ts"]);
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("1");
    expect(cli(repo, ["pending"]).out).toMatch(/^1 pending/);
    // Putting the file back makes the same pending action apply cleanly.
    writeFileSync(path.join(repo, "src/a.ts"), SOURCES["src/a.ts"]);
    expect(cli(repo, ["resolve", "apply", "go"]).code).toBe(0);
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("2");
  });

  test("--no-commit writes the work tree and makes no commit", () => {
    const repo = makeRepo(SOURCES);
    cli(repo, ["preview", "--", "/move src/a.ts src/lib/greet.ts"]);
    const applied = cli(repo, ["resolve", "apply", "tidy", "--no-commit"]);
    expect(applied).toMatchObject({ code: 0, out: "Moved 1 file and updated 1 import.\n" });
    expect(existsSync(path.join(repo, "src/a.ts"))).toBe(false);
    expect(readFileSync(path.join(repo, "src/b.ts"), "utf8")).toBe('import { greet } from "./lib/greet";\n\nconsole.log(greet("b"));\n');
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("1");
  });

  test("the example custom tool, loaded from RESOLVE_BOT_TOOLS, renames files on apply", () => {
    const repo = makeRepo({ "lib/x.js": "x\n", "lib/y.js": "y\n", "keep.js": "k\n" });
    const env = { RESOLVE_BOT_TOOLS: path.resolve("dist/examples/batch-rename.js") };
    const previewed = cli(repo, ["preview", "--", "/batch-rename-preview lib/x.js lib/y.js --find .js --replace .mjs"], env);
    expect(previewed.code).toBe(0);
    expect(previewed.out).toContain("Prepared rename plan for 2 files. Call resolve to apply or discard.\n\nPending #1: Batch rename: 2 files\n");
    expect(previewed.out).toContain("diff --git a/lib/x.js b/lib/x.mjs\nrename from lib/x.js\nrename to lib/x.mjs");
    const applied = cli(repo, ["resolve", "apply", "modules"], env);
    expect(applied.out.split("\n")[0]).toBe("Applied batch rename. Reason: modules");
    expect(treeAt(repo)).toEqual({ "lib/x.mjs": "x\n", "lib/y.mjs": "y\n", "keep.js": "k\n" });
    cli(repo, ["preview", "--", "/batch-rename-preview keep.js --find .js --replace .cjs"], env);
    expect(cli(repo, ["resolve", "discard", "no"], env).out.split("\n")[0]).toBe("Discarded batch rename. Reason: no");
  });

  test("bad input: clear errors, exit codes, nothing written", () => {
    const repo = makeRepo(SOURCES);
    symlinkSync("/etc/hostname", path.join(repo, "src/link.ts"));
    const before = treeAt(repo);
    const traversal = cli(repo, ["preview", "--", "/move src/a.ts ../outside.ts"]);
    expect(traversal.code).toBe(1);
    expect(traversal.err).toContain('Path "../outside.ts" leaves the repository ("..")');
    const gitDir = cli(repo, ["preview", "--", "/move src/a.ts .git/a.ts"]);
    expect(gitDir.err).toContain("is inside .git/, which resolve-bot never touches");
    const absolute = cli(repo, ["preview", "--", "/ast-edit --pat a --out b --paths /etc"]);
    expect(absolute.err).toContain('Path "/etc" is absolute');
    const link = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'x' --paths src/link.ts"]);
    expect(link.code).toBe(1);
    expect(cli(repo, ["pending"]).out).toBe("Nothing is pending.\n");
    expect(treeAt(repo)).toEqual(before);
    expect(git(repo, "status", "--porcelain")).toBe("?? src/link.ts\n");

    expect(cli(repo, ["frobnicate"]).code).toBe(2);
    expect(cli(repo, ["resolve", "apply"]).code).toBe(2);
    expect(cli(repo, ["preview"]).code).toBe(2);
    const unknownTool = cli(repo, ["preview", "--", "/nope"]);
    expect(unknownTool.code).toBe(1);
    expect(unknownTool.err).toMatch(/^Unknown command `\/nope`\. Known commands: `\/ast-edit`, `\/ast-fix`, `\/move`, `\/rename-symbol`, `\/resolve`, `\/help`, `\/pending`\.\n/);
  });
});
