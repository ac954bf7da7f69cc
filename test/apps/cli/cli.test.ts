/**
 * The resolve-bot CLI as a user runs it: every step is a separate process (dist/src/apps/bin.js,
 * built by `npm test`'s pretest), so the stack and replay are tested across processes.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { git, makeRepo, treeAt } from "../../helpers/git-repo.js";

const CLI = path.resolve("dist/src/apps/bin.js");

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
  test("several commands as separate words each run; one command in several words keeps each word whole", () => {
    const repo = makeRepo(SOURCES);
    const both = cli(repo, ["preview", "--", "/pending", "/help"]);
    expect([both.code, both.err]).toEqual([0, ""]);
    expect(both.out.startsWith("Nothing is pending.\nPreview tools compute a change without writing anything")).toBe(true);
    // The shell took the quotes off `console.log($$$A)`: the words are quoted again, as a comment would have them.
    const words = cli(repo, ["preview", "--", "/ast-edit", "--pat", "console.log($$$A)", "--out", "logger.debug($$$A)", "src/a.ts"]);
    expect([words.code, words.err]).toEqual([0, ""]);
    expect(words.out.split("\n")[0]).toBe("Pending: AST Edit: 1 replacement in 1 file");
  });

  test("the checkout's .github/resolve-bot.yml as committed at HEAD applies: tools, steering, commit_message; problems refuse", () => {
    const settings = 'tools: [ast_edit]\nsteering: strict\ncommit_message: "{label} ({reason})"\n';
    const repo = makeRepo({ ...SOURCES, ".github/resolve-bot.yml": settings });
    expect(cli(repo, ["preview", "--", "/move src/a.ts src/c.ts"])).toEqual({
      code: 1,
      out: "",
      err: "Unknown command /move. Known commands: /ast-edit, /resolve, /help, /pending.\n",
    });
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src/a.ts"]).code).toBe(0);
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'greet' --out 'hello' src/b.ts"]).err).toBe(
      '.github/resolve-bot.yml (as committed at HEAD) sets steering: strict: resolve the pending action first (AST Edit: 1 replacement in 1 file) with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".\n',
    );
    expect(cli(repo, ["resolve", "apply", "use the logger"]).code).toBe(0);
    expect(git(repo, "log", "-1", "--format=%s").trim()).toBe("AST Edit: 1 replacement in 1 file (use the logger)");
    // Edits not committed are not read; a committed file with problems refuses every command, naming each.
    writeFileSync(path.join(repo, ".github/resolve-bot.yml"), "tools: [mvoe]\n");
    expect(cli(repo, ["preview", "--", "/move src/a.ts src/c.ts"]).err).toContain("Unknown command /move.");
    git(repo, "commit", "--quiet", "-am", "settings");
    expect(cli(repo, ["pending"])).toEqual({
      code: 1,
      out: "",
      err: '.github/resolve-bot.yml has problems, so nothing was run:\n- tools: unknown tool "mvoe"\n',
    });
  });

  test("a pattern ast-grep cannot read cleanly is refused (exit 1) with the CLI's warning, and nothing is pending", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'foo(' --out 'bar'"])).toEqual({
      code: 1,
      out: "",
      err: [
        "No replacements made: a pattern does not parse cleanly, so nothing was previewed.",
        'ast-grep warns about the pattern "foo(" (read as TypeScript), which matched nothing:',
        "",
        "Warning: Pattern contains an ERROR node and may cause unexpected results.",
        "Help: ast-grep parsed the pattern but it matched nothing in this run. Try using playground to refine the pattern.",
        "See also: https://ast-grep.github.io/playground.html",
        "",
        "",
      ].join("\n"),
    });
    expect(cli(repo, ["pending"]).out).toBe("Nothing is pending.\n");
  });

  test("a --cwd that does not exist or is a file is said so; a path that matches nothing names the commit short", () => {
    const repo = makeRepo(SOURCES);
    expect(cli("/nonexistent", ["pending"])).toEqual({ code: 1, out: "", err: "/nonexistent does not exist.\n" });
    const file = path.join(repo, "README.md");
    expect(cli(file, ["pending"])).toEqual({ code: 1, out: "", err: `${file} is not a directory.\n` });
    const head = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    const none = cli(repo, ["preview", "--", "/ast-edit --pat a --out b lib"]);
    expect(none).toEqual({ code: 1, out: "", err: `No files match "lib" at ${head}.\n` });
  });

  test("LIFO across processes: discard pops the second preview, apply the first", () => {
    const repo = makeRepo(SOURCES);
    const first = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src"]);
    expect(first).toMatchObject({ code: 0, err: "" });
    expect(first.out).toContain("Pending: AST Edit: 2 replacements in 2 files");
    expect(first.out).toContain('-  console.log("hi", name);\n+  logger.debug("hi", name);');
    const second = cli(repo, ["preview", "--", "/rename-symbol greet welcome"]);
    expect(second.code).toBe(0);
    expect(second.out).toContain("Pending (1 of 2, newest first): Rename Symbol: greet → welcome");

    const pending = cli(repo, ["pending"]);
    expect(pending.out).toMatch(
      /^2 pending, newest first \(the first is resolved next\):\n1\. Rename Symbol: greet → welcome .*\n2\. AST Edit: 2 replacements in 2 files /,
    );

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
    expect(cli(repo, ["resolve", "apply", "again"])).toEqual({
      code: 1,
      out: "",
      err: "No pending action to resolve. Nothing to apply or discard.\n",
    });
  });

  test("resolve undo: previews git's revert of resolve-bot's newest commit; apply commits it; uncommitted edits are not written over", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["resolve", "undo", "nothing yet"])).toEqual({
      code: 1,
      out: "",
      err: "Nothing to undo: resolve-bot has applied no commit on this pull request.\n",
    });
    cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src"]);
    expect(cli(repo, ["resolve", "apply", "use the logger"]).code).toBe(0);
    const applied = git(repo, "rev-parse", "HEAD").trim();
    const short = applied.slice(0, 7);

    writeFileSync(path.join(repo, "src/a.ts"), "// not committed yet\n");
    expect(cli(repo, ["resolve", "undo", "wrong call"])).toEqual({
      code: 1,
      out: "",
      err: "Undo would write over changes that are not committed in src/a.ts: commit or stash them first.\n",
    });
    git(repo, "checkout", "--", "src/a.ts");

    const undo = cli(repo, ["resolve", "undo", "wrong call"]);
    expect(undo.code).toBe(0);
    expect(undo.out).toContain(
      `Pending: Undo: AST Edit: 2 replacements in 2 files (${short})\nReverts ${short} as git revert would, onto the head (${short}). Reason: wrong call\n`,
    );
    expect(undo.out).toContain('-  logger.debug("hi", name);\n+  console.log("hi", name);');
    expect(cli(repo, ["pending"]).out).toContain(
      `1. Undo: AST Edit: 2 replacements in 2 files (${short}) (#2, /resolve undo by Test User)`,
    );
    expect(cli(repo, ["preview", "--", "/undo"]).err).toMatch(/^Unknown command \/undo\./);

    const reverted = cli(repo, ["resolve", "apply", "back out"]);
    expect(reverted.out.split("\n")[0]).toBe(`Reverted ${short} (AST Edit: 2 replacements in 2 files).`);
    expect(git(repo, "rev-parse", "HEAD^{tree}")).toBe(git(repo, "rev-parse", "HEAD~2^{tree}"));
    expect(git(repo, "log", "-1", "--format=%B")).toMatch(
      new RegExp(
        `^Undo: AST Edit: 2 replacements in 2 files \\(${short}\\)\n\nback out\n\nUndo asked for: wrong call\n\nResolve-Action: [0-9a-f-]{36}\n`,
      ),
    );
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  test("undo of a move into a new directory leaves no empty directory; undoing the undo is a redo", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["preview", "--", "/move src/a.ts src/lib/greet.ts"]).code).toBe(0);
    expect(cli(repo, ["resolve", "apply", "tidy"]).code).toBe(0);
    const moved = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    expect(cli(repo, ["resolve", "undo", "keep it flat"]).code).toBe(0);
    expect(cli(repo, ["resolve", "apply", "flat it is"]).code).toBe(0);
    expect(existsSync(path.join(repo, "src/lib"))).toBe(false);
    expect(treeAt(repo)).toEqual(SOURCES);
    const undone = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    const redo = cli(repo, ["resolve", "undo", "moved after all"]);
    expect(redo.out.split("\n")[0]).toMatch(new RegExp(`^Pending: Redo: Move: 1 file \\(1 import updated\\) \\(${undone}\\)$`));
    expect(moved).not.toBe(undone);
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
    expect(previewed.out).toContain(
      "Pending: Batch rename: 2 files\nPrepared rename plan for 2 files. Call resolve to apply or discard.\n",
    );
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
    expect(absolute).toEqual({ code: 1, out: "", err: `Path "/etc" is outside the repository (${realpathSync(repo)}).\n` });
    const link = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'x' --paths src/link.ts"]);
    expect(link.code).toBe(1);
    expect(cli(repo, ["pending"]).out).toBe("Nothing is pending.\n");
    expect(treeAt(repo)).toEqual(before);
    expect(git(repo, "status", "--porcelain")).toBe("?? src/link.ts\n");

    // A usage error: what is wrong, the usage line of the verb it is about, where the rest is.
    expect(cli(repo, ["frobnicate"])).toEqual({
      code: 2,
      out: "",
      err: 'Unknown command "frobnicate"; the commands: preview, resolve, pending, tools, config, demo, server, worker, all.\nEvery command: resolve-bot --help\n',
    });
    const resolveUsage =
      'Usage: resolve-bot resolve apply|discard|undo "<reason>" [--cwd DIR] [--no-commit]\n' +
      '  resolve-bot resolve apply --only PATH [--only PATH…] "<reason>"   apply those files, keep the rest pending\n' +
      "Every command: resolve-bot --help\n";
    expect(cli(repo, ["resolve", "apply"])).toEqual({ code: 2, out: "", err: `resolve apply needs a reason.\n${resolveUsage}` });
    expect(cli(repo, ["resolve", "merge", "why"])).toEqual({
      code: 2,
      out: "",
      err: `resolve needs "apply", "discard" or "undo".\n${resolveUsage}`,
    });
    const previewUsage = 'Usage: resolve-bot preview [--cwd DIR] [--strict] -- "<slash command>"\nEvery command: resolve-bot --help\n';
    expect(cli(repo, ["preview"])).toEqual({ code: 2, out: "", err: `preview needs a slash command.\n${previewUsage}` });
    expect(cli(repo, ["preview", "--stirct", "--", "/pending"])).toEqual({
      code: 2,
      out: "",
      err: `Unknown option '--stirct'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--stirct"\n${previewUsage}`,
    });
    const unknownTool = cli(repo, ["preview", "--", "/nope"]);
    expect(unknownTool.code).toBe(1);
    expect(unknownTool.err).toBe(
      "Unknown command /nope. Known commands: /ast-edit, /ast-fix, /move, /rename-symbol, /resolve, /help, /pending.\n",
    );
  });

  test("--paths a b previews both paths and nothing else", () => {
    const repo = makeRepo({ ...SOURCES, "src/c.ts": "console.log(3);\n" });
    const previewed = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'log($$$A)' --paths src/a.ts src/b.ts"]);
    expect(previewed.code).toBe(0);
    expect(previewed.out).toContain("Pending: AST Edit: 2 replacements in 2 files\n");
    expect(previewed.out).not.toContain("src/c.ts");
  });

  test("a command without its leading slash is refused, not guessed at", () => {
    const repo = makeRepo(SOURCES);
    const refused = cli(repo, ["preview", "--", "ast-edit --pat a --out b"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^preview takes a slash command, which starts with "\/": did you mean "\/ast-edit --pat a --out b"\?\n/);
    expect(cli(repo, ["pending"]).out).toBe("Nothing is pending.\n");
  });

  test("plain text in the local syntax; colour only on a TTY (or FORCE_COLOR)", () => {
    const repo = makeRepo(SOURCES);
    const command = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src/a.ts";
    const previewed = cli(repo, ["preview", "--", command]);
    expect(previewed.out).toBe(
      [
        "Pending: AST Edit: 1 replacement in 1 file",
        "- src/a.ts: 1 replacement",
        "diff --git a/src/a.ts b/src/a.ts",
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -1,3 +1,3 @@",
        " export function greet(name: string) {",
        '-  console.log("hi", name);',
        '+  logger.debug("hi", name);',
        " }",
        "",
        'Pending: AST Edit: 1 replacement in 1 file. Resolve it with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".',
        "",
      ].join("\n"),
    );
    expect(previewed.out).not.toContain("\u001b");
    expect(previewed.out).not.toMatch(/`|\*\*/);
    const strict = cli(repo, ["preview", "--strict", "--", command]);
    expect(strict.err).toBe(
      '--strict is on: resolve the pending action first (AST Edit: 1 replacement in 1 file) with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".\n',
    );
    const coloured = cli(repo, ["pending"], { FORCE_COLOR: "1" });
    expect(coloured.out).toContain("\u001b[36m/ast-edit\u001b[39m");
    const diff = cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'x($$$A)' --paths src/b.ts"], { FORCE_COLOR: "1" });
    expect(diff.out).toContain('\u001b[32m+x(greet("b"));\u001b[39m');
    expect(cli(repo, ["pending"], { FORCE_COLOR: "1", NO_COLOR: "1" }).out).toContain("\u001b[36m"); // FORCE_COLOR wins
    expect(cli(repo, ["pending"], { NO_COLOR: "1" }).out).not.toContain("\u001b");
  });

  test("a failed git commit (no identity) restores the work tree and index; the retry then works", () => {
    const repo = makeRepo(SOURCES);
    const noIdentity = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
    git(repo, "config", "--unset", "user.name");
    git(repo, "config", "--unset", "user.email");
    git(repo, "config", "user.useConfigOnly", "true");
    writeFileSync(path.join(repo, "notes.txt"), "staged by the user\n");
    git(repo, "add", "notes.txt");
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'log($$$A)'"], noIdentity).code).toBe(0);
    const failed = cli(repo, ["resolve", "apply", "go"], noIdentity);
    expect(failed.code).toBe(1);
    expect(failed.err).toBe(
      `Apply failed: git has no author identity in ${realpathSync(repo)}: set one with git config user.name "Your Name" and git config user.email "you@example.com", or apply with --no-commit.\n` +
        "Nothing was committed; the work tree and the index are as they were, and the action is still pending.\n",
    );
    expect(git(repo, "status", "--porcelain")).toBe("A  notes.txt\n");
    expect(readFileSync(path.join(repo, "src/a.ts"), "utf8")).toBe(SOURCES["src/a.ts"]);
    expect(cli(repo, ["pending"]).out).toMatch(/^1 pending/);

    git(repo, "config", "user.name", "Late User");
    git(repo, "config", "user.email", "late@example.com");
    const retried = cli(repo, ["resolve", "apply", "go"], noIdentity);
    expect(retried).toMatchObject({ code: 0 });
    expect(retried.out.split("\n")[0]).toBe("Applied 2 replacements in 2 files.");
    // Exactly the touched paths were committed; the user's staged file stays staged, uncommitted.
    expect(git(repo, "show", "--name-only", "--format=", "HEAD")).toBe("src/a.ts\nsrc/b.ts\n");
    expect(git(repo, "status", "--porcelain")).toBe("A  notes.txt\n");
  });

  test("--version, and usage that matches what the tool takes", () => {
    const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
    expect(spawnSync(process.execPath, [CLI, "--version"], { encoding: "utf8" })).toMatchObject({
      status: 0,
      stdout: `${version}\n`,
      stderr: "",
    });
    expect(spawnSync(process.execPath, [CLI, "-V"], { encoding: "utf8" }).stdout).toBe(`${version}\n`);
    const repo = makeRepo(SOURCES);
    const env = { RESOLVE_BOT_TOOLS: path.resolve("test/fixtures/tools/pairs.mjs") };
    expect(cli(repo, ["tools"], env).out).toContain(
      "/swap-pairs — Test tool: takes <from> <to> pairs.\n  /swap-pairs <from> <to> [<from> <to>…]\n",
    );
    const one = cli(repo, ["preview", "--", "/swap-pairs a"], env);
    expect(one.code).toBe(1);
    expect(one.err).toBe(
      "/swap-pairs was not run:\n\n- <paths> needs at least 2 values (got 1)\n\nUsage: /swap-pairs <from> <to> [<from> <to>…]\n\n- <paths>\n\nEvery parameter, and examples: resolve-bot tools swap-pairs.\n",
    );
    const move = cli(repo, ["preview", "--", "/move src/a.ts"]);
    expect(move.err).toContain("- <paths> needs at least 2 values (got 1)");
    expect(move.err).not.toContain("expected array length");
  });

  test("output into a closed pipe (| head) ends quietly with the command's own exit code", async () => {
    const big = Array.from({ length: 4000 }, (_, index) => `console.log(${index});`).join("\n");
    const repo = makeRepo({ "src/big.ts": `${big}\n` });
    const child = spawn(process.execPath, [CLI, "--cwd", repo, "preview", "--", "/ast-edit --pat 'console.log($A)' --out 'log($A)'"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader is gone before the first line is written
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(cli(repo, ["pending"]).out).toMatch(/^1 pending/);
  });

  test("paths are read from the current directory, as git reads them; replies name them from the root", () => {
    const repo = makeRepo({
      "src/internal/testing/a.ts": "console.log(1);\n",
      "src/internal/b.ts": "console.log(2);\n",
      "testing/c.ts": "console.log(3);\n",
    });
    const inside = path.join(repo, "src/internal");
    const run = (args: string[]) => {
      const result = spawnSync(process.execPath, [CLI, ...args], { cwd: inside, encoding: "utf8" });
      return { code: result.status, out: result.stdout, err: result.stderr };
    };
    const previewed = run(["preview", "--", "/ast-edit --pat 'console.log($A)' --out 'log($A)' testing"]);
    expect(previewed).toEqual({
      code: 0,
      err: "",
      out: [
        "Pending: AST Edit: 1 replacement in 1 file",
        "- src/internal/testing/a.ts: 1 replacement",
        "diff --git a/src/internal/testing/a.ts b/src/internal/testing/a.ts",
        "--- a/src/internal/testing/a.ts",
        "+++ b/src/internal/testing/a.ts",
        "@@ -1 +1 @@",
        "-console.log(1);",
        "+log(1);",
        "",
        'Pending: AST Edit: 1 replacement in 1 file. Resolve it with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".',
        "",
      ].join("\n"),
    });
    expect(run(["resolve", "apply", "from a subdirectory"]).code).toBe(0);
    expect(treeAt(repo)).toEqual({
      "src/internal/testing/a.ts": "log(1);\n",
      "src/internal/b.ts": "console.log(2);\n",
      "testing/c.ts": "console.log(3);\n",
    });
    // The default "." is the current directory too, as ast-grep run there reads it; `..` goes up, within the checkout.
    const here = run(["preview", "--", "/ast-edit --pat 'console.log($A)' --out 'log($A)'"]);
    expect(here.out.split("\n")[1]).toBe("- src/internal/b.ts: 1 replacement");
    expect(run(["resolve", "discard", "not now"]).code).toBe(0);
    const moved = run(["preview", "--", "/move b.ts ../../lib/b.ts"]);
    expect(moved.out.split("\n").slice(1, 3)).toEqual([
      "Move preview: 1 file to move, 0 imports to update in 0 files.",
      "- src/internal/b.ts → lib/b.ts",
    ]);
    expect(run(["resolve", "discard", "not now"]).code).toBe(0);
    // --cwd says where the command is typed, as git -C does.
    const up = cli(inside, ["preview", "--", "/ast-edit --pat 'console.log($A)' --out 'log($A)' ../../testing"]);
    expect(up.out.split("\n")[1]).toBe("- testing/c.ts: 1 replacement");
    expect(cli(inside, ["resolve", "discard", "not now"]).code).toBe(0);
    expect(run(["preview", "--", "/ast-edit --pat 'console.log($A)' --out 'log($A)' ../../../elsewhere"])).toEqual({
      code: 1,
      out: "",
      err: `Path "../../../elsewhere" is outside the repository (${realpathSync(repo)}).\n`,
    });
    expect(run(["pending"]).out).toBe("Nothing is pending.\n");
  });

  test("a tool's refusal names the checkout, not a default branch: /ast-fix without an ast-grep project", () => {
    const repo = makeRepo(SOURCES);
    const head = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    expect(cli(repo, ["preview", "--", "/ast-fix"])).toEqual({
      code: 1,
      out: "",
      err: `There is no sgconfig.yml in the checkout (${head}); /ast-fix applies the fixes of the repository's ast-grep project.\n`,
    });
  });

  test("help in the command line's words, as plain text: tools, tools COMMAND, /help", () => {
    const repo = makeRepo(SOURCES);
    const tools = cli(repo, ["tools"]);
    expect([tools.code, tools.err]).toEqual([0, ""]);
    expect(tools.out.split("\n").filter((line) => line.startsWith("/ast-fix"))).toEqual([
      "/ast-fix — Applies the fixes of the repository's ast-grep project (sgconfig.yml and its rule directories, read from the checkout), exactly as ast-grep scan --update-all would. Words after the command are rule ids (default: all rules). Shows the diff first; resolve-bot resolve apply commits it.",
    ]);
    // No GitHub words, no markdown: the one run of backticks left is the ```yaml a user types.
    for (const github of ["/resolve apply", "default branch", "pull request", "`"])
      expect(tools.out.replaceAll("```yaml", "")).not.toContain(github);
    expect(cli(repo, ["tools", "/move"])).toEqual({
      code: 0,
      err: "",
      out: [
        "/move — Moves or renames files and directories and updates every import, export, require() and dynamic import() that refers to them.",
        "",
        "Usage: /move <from> <to> [<from> <to>…] [--quote-preference <auto|double|single>] [--import-module-specifier-preference <shortest|project-relative|relative|non-relative>] [--import-module-specifier-ending <auto|minimal|index|js>]",
        "",
        "- <paths> — Pairs of paths, each <from> followed by the <to> it moves to: files or directories",
        "- --quote-preference — Quotes of new import specifiers (default: typescript.preferences.quoteStyle, else auto)",
        "- --import-module-specifier-preference — Style of rewritten import paths (default: typescript.preferences.importModuleSpecifier, else shortest)",
        "- --import-module-specifier-ending — Extension of rewritten import paths (default: typescript.preferences.importModuleSpecifierEnding, else auto)",
        "",
        "Examples:",
        "",
        "- /move src/util.ts src/lib/util.ts",
        "- /move src/helpers src/lib/helpers src/a.ts src/b.ts",
        "",
      ].join("\n"),
    });
    expect(cli(repo, ["tools", "mvoe"])).toEqual({
      code: 2,
      out: "",
      err: "No tool \"mvoe\"; the tools: ast-edit, ast-fix, move, rename-symbol.\nUsage: resolve-bot tools [COMMAND]   every tool's usage, or one tool's whole help\nEvery command: resolve-bot --help\n",
    });
    const help = cli(repo, ["preview", "--", "/help"]);
    expect([help.code, help.err]).toEqual([0, ""]);
    for (const github of ["/resolve apply", "default branch", "`"]) expect(help.out.replaceAll("```yaml", "")).not.toContain(github);
    expect(help.out.split("\n").slice(-4)).toEqual([
      'Undoing: resolve-bot resolve undo "<reason>" previews reverting the newest commit resolve-bot applied (as git revert would) as a new pending action; applying it commits the revert. If later commits changed the same lines, it says so and pushes nothing.',
      "",
      "resolve-bot pending lists the stack, newest first. resolve-bot preview -- /help shows this; resolve-bot tools <command> shows one command.",
      "",
    ]);
    expect(cli(repo, ["preview", "--", "/help move"]).out).toBe(cli(repo, ["tools", "move"]).out);
  });
});
