import astEdit, { collectOps, setCliLimitsForTests, summary } from "../../src/tools/ast-edit.js";
import { parseCommands } from "../../src/core/commands.js";
import { bindArguments } from "../../src/core/arguments.js";
import { parameterLines } from "../../src/core/usage.js";
import { applyAction, createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace, type Workspace } from "../../src/workspace/workspace.js";
import { mayMatch, requiredWords, typeScriptCommentRanges } from "../../src/tools/ast-grep/prefilter.js";
import { AST_LANGS, langForPath, langFromName } from "../../src/tools/ast-grep/languages.js";
import { compileOp, mayMatchOp, prepareOp } from "../../src/tools/ast-grep/rewrite.js";
import { astGrepBinary } from "../../src/tools/ast-grep/cli.js";
import { Scratch } from "../../src/tools/ast-grep/scratch.js";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DirectoryWorkspace } from "../../src/forges/local/directory-workspace.js";
import { textAfter } from "../helpers/changes.js";

let tool: AnyToolDefinition;

beforeAll(async () => {
  tool = await astEdit(createToolAPI());
});

const BINARY = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3, 0, 0, 0xff, 0xfe, 0, 0]);

function workspace(extra: Record<string, string | Uint8Array> = {}): MemoryWorkspace {
  return new MemoryWorkspace({
    "src/a.ts": "console.log(1);\nconsole.log(2, 3);\n",
    "src/b.ts": "function f() {\n  console.log('b');\n}\n",
    "src/c.js": "var x = 1;\n",
    "docs/readme.md": "console.log(1)\n",
    ...extra,
  });
}

async function run(params: Record<string, unknown>, ws: Workspace = workspace()) {
  const execution = await executeTool(tool, params, ws, "call-1");
  return { ...execution, text: resultText(execution.result), ws };
}

describe("ast_edit definition", () => {
  test("name, label, positionals and examples", () => {
    expect(tool.name).toBe("ast_edit");
    expect(tool.label).toBe("AST Edit");
    expect(tool.positionals).toEqual(["paths"]);
    expect(tool.examples?.length).toBeGreaterThan(0);
    expect(tool.description).toContain("Words after the options are paths");
  });
});

describe("ast_edit previews", () => {
  test("plural label, per-file counts and one pending action", async () => {
    const { result, actions, text } = await run({ ops: [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }], paths: ["src"] });
    expect(result.isError).toBeFalsy();
    expect(actions).toHaveLength(1);
    const action = actions[0]!;
    expect(action.label).toBe("AST Edit: 3 replacements in 2 files");
    expect(action.sourceToolName).toBe("ast_edit");
    expect(text).toBe("AST Edit: 3 replacements in 2 files\n- src/a.ts: 2 replacements\n- src/b.ts: 1 replacement");
    expect(action.details).toEqual({
      ops: [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }],
      replacements: 3,
      files: [
        { path: "src/a.ts", replacements: 2 },
        { path: "src/b.ts", replacements: 1 },
      ],
    });
    expect(await textAfter(action.changes!, "src/a.ts")).toBe("logger.debug(1);\nlogger.debug(2, 3);\n");
    expect(await textAfter(action.changes!, "src/b.ts")).toBe("function f() {\n  logger.debug('b');\n}\n");
  });

  test("singular label", async () => {
    const { actions, text } = await run({ ops: [{ pat: "console.log('b')", out: "log('b')" }] });
    expect(actions.map((a) => a.label)).toEqual(["AST Edit: 1 replacement in 1 file"]);
    expect(text).toBe("AST Edit: 1 replacement in 1 file\n- src/b.ts: 1 replacement");
  });

  test("mixed counts: 2 replacements in 1 file", () => {
    expect(summary(2, 1)).toBe("2 replacements in 1 file");
    expect(summary(1, 1)).toBe("1 replacement in 1 file");
    expect(summary(2, 3)).toBe("2 replacements in 3 files");
  });

  test("zero replacements: exact text and nothing pushed", async () => {
    const { result, actions, text } = await run({ ops: [{ pat: "alert($A)", out: "notify($A)" }], paths: ["src"] });
    expect(text).toBe("No replacements made");
    expect(result.isError).toBeFalsy();
    expect(actions).toEqual([]);
  });

  test("paths default to the whole repository; other languages are left alone", async () => {
    const { actions } = await run({ ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }] });
    expect(actions[0]!.label).toBe("AST Edit: 3 replacements in 2 files");
    const paths = (await actions[0]!.changes!.resolveChanges()).map((c) => c.path);
    expect(paths).toEqual(["src/a.ts", "src/b.ts"]); // docs/readme.md is not code
  });

  test("globs select files", async () => {
    const { actions } = await run({ ops: [{ pat: "var $A = $B;", out: "let $A = $B;" }], paths: ["**/*.js"] });
    expect(actions[0]!.label).toBe("AST Edit: 1 replacement in 1 file");
    expect(await textAfter(actions[0]!.changes!, "src/c.js")).toBe("let x = 1;\n");
  });

  test("command-line pairs --pat/--out merge into ops, in order, after ops", async () => {
    const { actions } = await run({
      ops: [{ pat: "console.log($$$A)", out: "debug($$$A)" }],
      pat: ["debug($A, $B)", "var $X = $Y"],
      out: ["debug2($B, $A)", "const $X = $Y"],
    });
    expect(actions[0]!.details).toMatchObject({
      ops: [
        { pat: "console.log($$$A)", out: "debug($$$A)" },
        { pat: "debug($A, $B)", out: "debug2($B, $A)" },
        { pat: "var $X = $Y", out: "const $X = $Y" },
      ],
    });
    // the second op sees the first op's output
    expect(await textAfter(actions[0]!.changes!, "src/a.ts")).toBe("debug(1);\ndebug2(3, 2);\n");
    expect(actions[0]!.label).toBe("AST Edit: 5 replacements in 3 files");
  });

  test("an empty out deletes the match", async () => {
    const { actions } = await run({ pat: ["console.log(1);"], out: [""], paths: ["src/a.ts"] });
    expect(await textAfter(actions[0]!.changes!, "src/a.ts")).toBe("\nconsole.log(2, 3);\n");
  });

  test("lang restricts directory scans to that language and forces it on named files", async () => {
    const ws = workspace({ "src/view.tsx": "const v = <b>{console.log(1)}</b>;\n", "scripts/tool.txt": "console.log(9)\n" });
    const tsx = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }], lang: "tsx" }, ws);
    expect(tsx.actions[0]!.label).toBe("AST Edit: 1 replacement in 1 file");
    const forced = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }], lang: "js", paths: ["scripts/tool.txt"] }, ws);
    expect(await textAfter(forced.actions[0]!.changes!, "scripts/tool.txt")).toBe("log(9)\n");
    const unknown = await run({ ops: [{ pat: "x", out: "y" }], lang: "cobol" }, ws);
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toContain('Unknown lang "cobol"');
  });
});

describe("ast_edit errors", () => {
  test("a duplicate pattern is an error and pushes nothing", async () => {
    const { result, actions, text } = await run({
      ops: [
        { pat: "console.log($A)", out: "a($A)" },
        { pat: "console.log($A)", out: "b($A)" },
      ],
    });
    expect(result.isError).toBe(true);
    expect(text).toBe('Duplicate pattern: "console.log($A)" is given more than once; give each pattern once.');
    expect(actions).toEqual([]);
  });

  test("a duplicate between ops and --pat is an error too", async () => {
    const { result, actions } = await run({ ops: [{ pat: "f()", out: "g()" }], pat: ["f()"], out: ["h()"] });
    expect(result.isError).toBe(true);
    expect(actions).toEqual([]);
  });

  test("--pat and --out counts must agree", async () => {
    const { result, text, actions } = await run({ pat: ["a", "b"], out: ["c"] });
    expect(result.isError).toBe(true);
    expect(text).toBe('--pat is given twice but --out once; give one --out for each --pat, in the same order (--out "" deletes).');
    expect(actions).toEqual([]);
  });

  test("no pattern at all", async () => {
    const { result, text } = await run({ paths: ["src"] });
    expect(result.isError).toBe(true);
    expect(text).toContain("Nothing to do");
  });

  test("a path that matches nothing is an error", async () => {
    const { result, text, actions } = await run({ ops: [{ pat: "a", out: "b" }], paths: ["src", "lib/**/*.ts"] });
    expect(result.isError).toBe(true);
    expect(text).toBe('No files match "lib/**/*.ts" at memory.');
    expect(actions).toEqual([]);
  });

  test("binary files are skipped in a directory scan but are an error when named", async () => {
    const ws = workspace({ "src/blob.ts": BINARY });
    const scan = await run({ ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }], paths: ["src"] }, ws);
    expect(scan.result.isError).toBeFalsy();
    expect(scan.actions[0]!.label).toBe("AST Edit: 3 replacements in 2 files");
    const named = await run({ ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }], paths: ["src/a.ts", "src/blob.ts"] }, ws);
    expect(named.result.isError).toBe(true);
    expect(named.text).toBe("src/blob.ts is a binary file; resolve-bot leaves binary files alone.");
    expect(named.actions).toEqual([]);
  });

  test("over-limit files are named in a scan's reply and are an error when named", async () => {
    const limits = { maxFiles: 100, maxFileBytes: 64, maxTotalBytes: 1 << 20 };
    const ws = new MemoryWorkspace(
      { "a.ts": "console.log(1);\n", "big.ts": `console.log(${"1".repeat(100)});\n`, "big.txt": "x".repeat(100) },
      "memory",
      limits,
    );
    const scan = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }] }, ws);
    expect(scan.actions[0]!.label).toBe("AST Edit: 1 replacement in 1 file");
    // big.txt is in no language the CLI reads: it could not have matched, so it is not named
    expect(scan.text).toBe(
      "AST Edit: 1 replacement in 1 file\n- a.ts: 1 replacement\nNot searched: 1 file that could hold a match:\n" +
        "- big.ts is 115 B, over the 64 B per-file limit; resolve-bot leaves it alone.",
    );
    expect(scan.actions[0]!.details).toMatchObject({
      skipped: [{ path: "big.ts", reason: "big.ts is 115 B, over the 64 B per-file limit; resolve-bot leaves it alone." }],
    });
    const none = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }], paths: ["big.ts", "big.txt"] }, ws);
    expect(none.result.isError).toBe(true);
    const named = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }], paths: ["big.ts"] }, ws);
    expect(named.result.isError).toBe(true);
    expect(named.text).toContain("big.ts is 115 B, over the 64 B per-file limit");
    const onlyBig = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }], paths: ["*.ts"] }, ws);
    expect(onlyBig.text).toBe(
      "AST Edit: 1 replacement in 1 file\n- a.ts: 1 replacement\nNot searched: 1 file that could hold a match:\n" +
        "- big.ts is 115 B, over the 64 B per-file limit; resolve-bot leaves it alone.",
    );
  });

  test("invalid UTF-8 that could hold a match is named in a scan's reply and is an error when named", async () => {
    const bad = new Uint8Array([...Buffer.from("console.log('"), 0xc3, 0x28, ...Buffer.from("');\n")]);
    const unrelated = new Uint8Array([...Buffer.from("let s = '"), 0xff, ...Buffer.from("';\n")]);
    const ws = workspace({ "src/latin1.ts": bad, "src/other.ts": unrelated });
    const scan = await run({ ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }], paths: ["src"] }, ws);
    expect(scan.actions[0]!.label).toBe("AST Edit: 3 replacements in 2 files");
    // src/other.ts holds no `console.log`: the prefilter rules a match out, so it is not named
    expect(scan.text).toBe(
      "AST Edit: 3 replacements in 2 files\n- src/a.ts: 2 replacements\n- src/b.ts: 1 replacement\n" +
        "Not searched: 1 file that could hold a match:\n- src/latin1.ts is not valid UTF-8; ast_edit leaves it alone.",
    );
    const nothing = await run({ ops: [{ pat: "console.log('x')", out: "y" }], paths: ["src/latin1.ts", "src/c.js"] }, ws);
    expect(nothing.result.isError).toBe(true);
    const onlyBad = await run(
      { ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }], paths: ["src/*.ts"] },
      workspace({ "src/a.ts": "", "src/b.ts": "", "src/latin1.ts": bad }),
    );
    expect(onlyBad.text).toBe(
      "No replacements made\nNot searched: 1 file that could hold a match:\n- src/latin1.ts is not valid UTF-8; ast_edit leaves it alone.",
    );
    expect(onlyBad.actions).toEqual([]);
    const named = await run({ ops: [{ pat: "console.log($$$A)", out: "log($$$A)" }], paths: ["src/latin1.ts"] }, ws);
    expect(named.result.isError).toBe(true);
    expect(named.text).toBe("src/latin1.ts is not valid UTF-8; ast_edit leaves it alone.");
  });

  test("a named file in a language the CLI does not know is an error", async () => {
    const { result, text } = await run({ ops: [{ pat: "a", out: "b" }], paths: ["notes.txt"] }, workspace({ "notes.txt": "a\n" }));
    expect(result.isError).toBe(true);
    expect(text).toBe("notes.txt: the ast-grep CLI does not know the language of this file; pass --lang (e.g. --lang typescript).");
  });

  test("an unusable pattern is an error with the CLI's message, with or without --lang", async () => {
    for (const params of [{ ops: [{ pat: "a; b", out: "c" }] }, { ops: [{ pat: "a; b", out: "c" }], lang: "ts" }]) {
      const { result, text, actions } = await run(params, workspace({ "src/d.ts": "a; b;\n" }));
      expect(result.isError).toBe(true);
      expect(text).toContain("ast-grep refused it:\n```\nError: Cannot parse query as a valid pattern.");
      expect(text).toContain("Multiple AST nodes are detected. Please check the pattern source `a; b`.");
      expect(actions).toEqual([]);
    }
  });
});

describe("the CLI's warning about a pattern that does not parse cleanly", () => {
  /** What `ast-grep run --lang LANG` itself prints on stderr for the pattern, run on `files` (a directory of them). */
  function cliWarning(pat: string, lang: string, files: Record<string, string>): { stderr: string; status: number } {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ast-warning-"));
    try {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const result = spawnSync(astGrepBinary(), ["run", "-p", pat, "-r", "x", "-l", lang, "."], { cwd: dir, encoding: "utf8" });
      return { stderr: result.stderr, status: result.status ?? -1 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const FILES = { "src/a.ts": "foo((1));\nfoo(1);\n", "src/b.py": "foo((1))\n" };
  const WARNING = [
    "Warning: Pattern contains an ERROR node and may cause unexpected results.",
    "Help: ast-grep parsed the pattern but it matched nothing in this run. Try using playground to refine the pattern.",
    "See also: https://ast-grep.github.io/playground.html",
  ].join("\n");

  test("with --lang, a refusal quoting the CLI when the pattern's root is an ERROR node and nothing matched", async () => {
    // the CLI 0.51.1 itself: the warning on stderr, exit status 0
    expect(cliWarning("foo((", "ts", FILES)).toEqual({ stderr: `${WARNING}\n\n`, status: 0 });
    const { result, text, actions } = await run({ ops: [{ pat: "foo((", out: "bar" }], lang: "ts" }, new MemoryWorkspace(FILES));
    expect(result.isError).toBe(true);
    expect(actions).toEqual([]);
    expect(text).toBe(
      `No replacements made: a pattern does not parse cleanly, so nothing was previewed.\nast-grep warns about the pattern "foo((" (read as TypeScript), which matched nothing:\n\`\`\`\n${WARNING}\n\`\`\``,
    );
  });

  test("beside an op that rewrites, and without --lang for the languages the pattern was tried on", async () => {
    const { text, actions } = await run(
      {
        ops: [
          { pat: "foo($A)", out: "bar($A)" },
          { pat: "$A &&", out: "x" },
        ],
      },
      new MemoryWorkspace(FILES),
    );
    expect(actions.map((action) => action.label)).toEqual(["AST Edit: 3 replacements in 2 files"]);
    expect(text).toBe(
      [
        "AST Edit: 3 replacements in 2 files",
        "- src/a.ts: 2 replacements",
        "- src/b.py: 1 replacement",
        'ast-grep warns about the pattern "$A &&" (read as TypeScript), which matched nothing:',
        `\`\`\`\n${WARNING}\n\`\`\``,
      ].join("\n"),
    );
  });

  test("no warning when the ERROR node is below the pattern's root, or when the pattern matched", async () => {
    // the CLI prints nothing for either (and exits 1 for no match)
    expect(cliWarning("foo(a b)", "ts", FILES)).toEqual({ stderr: "", status: 1 });
    expect((await run({ ops: [{ pat: "foo(a b)", out: "x" }], lang: "ts" }, new MemoryWorkspace(FILES))).text).toBe("No replacements made");
    const matched = await run({ ops: [{ pat: "foo((1))", out: "x" }], lang: "ts" }, new MemoryWorkspace(FILES));
    expect(matched.text).toBe("AST Edit: 1 replacement in 1 file\n- src/a.ts: 1 replacement");
  });
});

describe("ast_edit YAML rules", () => {
  const RULE =
    "id: no-console\nlanguage: typescript\nrule:\n  pattern: console.log($$$A)\n  inside: { kind: function_declaration, stopBy: end }\nfix: logger.debug($$$A)\n";

  test("a ```yaml block holding a rule is given as written to `rules`; other yaml blocks stay parameters", () => {
    const [command] = parseCommands(`/ast-edit src\n\`\`\`yaml\n${RULE}\`\`\`\n`);
    expect(bindArguments(tool, command!)).toEqual({ ok: true, params: { rules: RULE.trimEnd(), paths: ["src"] } });
    const several = "id: a\nlanguage: ts\nrule: { pattern: f() }\nfix: g()\n---\nid: b\nlanguage: ts\nrule: { pattern: h() }\nfix: i()";
    const [multi] = parseCommands(`/ast-edit\n\`\`\`yaml\n${several}\n\`\`\``);
    expect(bindArguments(tool, multi!)).toMatchObject({ ok: true, params: { rules: several } });
    const [params] = parseCommands("/ast-edit\n```yaml\nops:\n  - { pat: a, out: b }\n```");
    expect(bindArguments(tool, params!)).toMatchObject({ ok: true, params: { ops: [{ pat: "a", out: "b" }] } });
  });

  test("a rule rewrites only what it selects, and labels like a pattern", async () => {
    const { actions, text } = await run({ rules: RULE });
    expect(text).toBe("AST Edit: 1 replacement in 1 file\n- src/b.ts: 1 replacement");
    expect(await textAfter(actions[0]!.changes!, "src/b.ts")).toBe("function f() {\n  logger.debug('b');\n}\n");
    expect(actions[0]!.details).toMatchObject({ ops: [], rules: RULE, replacements: 1 });
  });

  test("a bad rule gets the CLI's own message, even when no file is in its language", async () => {
    const { result, text, actions } = await run({ rules: "id: x\nlanguage: rust\nrule: { patern: foo }\n" });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^ast-grep refused it:\n```\nError: Cannot parse rule INLINE_RULES\n/);
    expect(text).toContain("patern");
    expect(actions).toEqual([]);
  });

  test("rules and patterns together, --lang with rules, empty rules: errors", async () => {
    expect((await run({ rules: RULE, pat: ["a"], out: ["b"] })).text).toBe("Give patterns (--pat/--out) or YAML rules, not both.");
    expect((await run({ rules: RULE, lang: "ts" })).text).toBe("--lang applies to patterns; each YAML rule names its own language.");
    expect((await run({ rules: "  \n" })).text).toBe("The YAML rules are empty.");
  });
});

describe("ast_edit limits and file selection", () => {
  test("a CLI run past its time limit is stopped with a clear reply, and nothing is pushed", async () => {
    const restore = setCliLimitsForTests({ timeoutMs: 1, maxOutputBytes: 1 << 20 });
    try {
      const { result, text, actions } = await run({ pat: ["console.log($$$A)"], out: ["x"] });
      expect(result.isError).toBe(true);
      expect(text).toBe("ast-grep took longer than 1 ms and was stopped; narrow the pattern, the rule or the paths.");
      expect(actions).toEqual([]);
    } finally {
      restore();
    }
  });

  test("a CLI run past its output budget is stopped with a clear reply", async () => {
    const restore = setCliLimitsForTests({ timeoutMs: 60_000, maxOutputBytes: 2048 });
    try {
      const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`m${i}.ts`, "console.log(1);\n".repeat(20)]));
      const { result, text } = await run({ pat: ["console.log($$$A)"], out: ["x"] }, new MemoryWorkspace(many));
      expect(result.isError).toBe(true);
      expect(text).toBe("ast-grep reported more than 2 KB of matches and was stopped; narrow the pattern, the rule or the paths.");
    } finally {
      restore();
    }
  });

  test("hidden and .gitignored files of the workspace are edited like any other (a PR tarball holds tracked files only)", async () => {
    const ws = workspace({ ".gitignore": "gen/\n", "gen/out.ts": "console.log(7);\n", ".config/setup.ts": "console.log(8);\n" });
    const { actions } = await run({ pat: ["console.log($$$A)"], out: ["log($$$A)"] }, ws);
    const paths = (await actions[0]!.changes!.resolveChanges()).map((c) => c.path);
    expect(paths).toEqual([".config/setup.ts", "gen/out.ts", "src/a.ts", "src/b.ts"]);
  });

  test("a file whose path starts with a dash, or holds spaces, reaches the CLI as a file", async () => {
    const ws = new MemoryWorkspace({ "-rf.ts": "console.log(1);\n", "dir with space/a b.ts": "console.log(2);\n" });
    const { text } = await run({ pat: ["console.log($$$A)"], out: ["log($$$A)"] }, ws);
    expect(text).toBe("AST Edit: 2 replacements in 2 files\n- -rf.ts: 1 replacement\n- dir with space/a b.ts: 1 replacement");
  });

  test("/help's parameter lines list every language with its extensions", () => {
    const lines = parameterLines(tool).join("\n");
    for (const lang of AST_LANGS) expect(lines).toContain(`${lang}: .`);
    expect(lines).toContain("Python: .py .py3 .pyi .bzl");
  });
});

describe("ast_edit apply", () => {
  test("apply stages exactly the previewed change and reports it", async () => {
    const ws = workspace();
    const { actions } = await run({ ops: [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }] }, ws);
    const action = actions[0]!;
    const previewed = await action.changes!.resolveChanges();
    const { result, changes } = await applyAction(action, "looks right", ws);
    expect(resultText(result)).toBe("Applied 3 replacements in 2 files.");
    expect(await changes.resolveChanges()).toEqual(previewed);
    expect((await changes.fingerprint()).digest).toBe((await action.changes!.fingerprint()).digest);
  });

  test("singular apply text", async () => {
    const ws = workspace();
    const { actions } = await run({ ops: [{ pat: "var $A = $B", out: "let $A = $B" }] }, ws);
    const { result } = await applyAction(actions[0]!, "ok", ws);
    expect(resultText(result)).toBe("Applied 1 replacement in 1 file.");
  });

  test("the reason does not change what apply does", async () => {
    const ws = workspace();
    const { actions } = await run({ ops: [{ pat: "console.log($$$A)", out: "x($$$A)" }] }, ws);
    const first = await applyAction(actions[0]!, "one", ws);
    const second = await applyAction(actions[0]!, "a different reason", ws);
    expect((await first.changes.fingerprint()).digest).toBe((await second.changes.fingerprint()).digest);
  });

  test("two executions (preview, replay) give identical labels, details and change digests", async () => {
    const params = { ops: [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }], paths: ["."] };
    const one = await run(params, workspace());
    const two = await run(params, workspace());
    expect(two.actions[0]!.label).toBe(one.actions[0]!.label);
    expect(JSON.stringify(two.actions[0]!.details)).toBe(JSON.stringify(one.actions[0]!.details));
    expect((await two.actions[0]!.changes!.fingerprint()).digest).toBe((await one.actions[0]!.changes!.fingerprint()).digest);
    expect(two.text).toBe(one.text);
  });
});

describe("ast_edit over a local checkout (DirectoryWorkspace)", () => {
  test("nothing is read through a symbolic link, to a file or through a directory", async () => {
    const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "ast-edit-dir-")));
    try {
      const repo = path.join(base, "repo");
      const outside = path.join(base, "outside");
      mkdirSync(path.join(repo, "src"), { recursive: true });
      mkdirSync(path.join(repo, "lib"));
      mkdirSync(outside);
      writeFileSync(path.join(repo, "src/a.ts"), "console.log(1);\n");
      writeFileSync(path.join(repo, "lib/x.ts"), "console.log(2);\n");
      writeFileSync(path.join(outside, "x.ts"), "console.log(3);\n");
      execFileSync("git", ["init", "-q"], { cwd: repo });
      execFileSync("git", ["add", "-A"], { cwd: repo });
      // lib/x.ts stays in the index (--cached) but lib/ is now a link to a directory outside
      rmSync(path.join(repo, "lib"), { recursive: true });
      symlinkSync(outside, path.join(repo, "lib"));
      symlinkSync(path.join(outside, "x.ts"), path.join(repo, "src/link.ts"));
      const ws = new DirectoryWorkspace(repo, "working tree");
      expect(await ws.list()).toEqual(["src/a.ts"]);
      const { actions, text } = await run({ ops: [{ pat: "console.log($A)", out: "log($A)" }] }, ws);
      expect(text).toBe("AST Edit: 1 replacement in 1 file\n- src/a.ts: 1 replacement");
      expect(await textAfter(actions[0]!.changes!, "src/a.ts")).toBe("log(1);\n");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("replacement templates (the CLI expands them; resolve-bot splices its output)", () => {
  async function expand(source: string, pat: string, out: string): Promise<string> {
    const { actions } = await run({ pat: [pat], out: [out] }, new MemoryWorkspace({ "x.ts": source }));
    return actions.length === 0 ? source : textAfter(actions[0]!.changes!, "x.ts");
  }

  test("$$$ inserts the source span between the first and last node, separators included", async () => {
    expect(await expand("f(a,  b ,c);", "f($$$A)", "g($$$A)")).toBe("g(a,  b ,c);");
    expect(await expand("f();", "f($$$A)", "g([$$$A])")).toBe("g([]);");
  });

  test("multi-line captures are re-indented to the template, then to the match", async () => {
    const source = "if (true) {\n  a(\n    1\n      + 2\n  )\n}";
    expect(await expand(source, "a($B)", "c(\n  $B\n)")).toBe("if (true) {\n  c(\n    1\n      + 2\n  )\n}");
  });

  test("nested matches: only the outermost is rewritten", async () => {
    expect(await expand("Some(Some(1));", "Some($A)", "X($A)")).toBe("X(Some(1));");
  });

  test("a $ without a name, lowercase names and unknown captures", async () => {
    expect(await expand("f(1);", "f($A)", "g($A, $Z, $$, $a)")).toBe("g(1, , $$, $a);");
  });

  test("non-ASCII text before, inside and after matches (the CLI reports UTF-8 byte offsets)", async () => {
    expect(await expand("const é = '😀'; f('ü'); // ✓\nf(\"日本\");\n", "f($A)", "g($A, 'ß')")).toBe(
      "const é = '😀'; g('ü', 'ß'); // ✓\ng(\"日本\", 'ß');\n",
    );
  });
});

describe("prefilter", () => {
  test("words come from the literal parts of a pattern only", () => {
    expect(requiredWords("console.log($$$ARGS)")).toEqual(["console", "log"]);
    expect(requiredWords("$A === $A")).toEqual([]);
    expect(requiredWords("$Foo.bar($_)")).toEqual(["bar"]);
    expect(requiredWords("foo() // note")).toEqual([]);
  });

  test("matching is case-insensitive by default (HTML, CSS) and never drops a file holding the words", () => {
    expect(mayMatch("CONSOLE.LOG(1)", ["console", "log"])).toBe(true);
    expect(mayMatch("console.info(1)", ["console", "log"])).toBe(false);
  });

  test("for TypeScript, TSX and JavaScript words keep their case", () => {
    expect(requiredWords("new Error($$$A)", true)).toEqual(["Error", "new"]);
    expect(requiredWords("new Error($$$A)")).toEqual(["error", "new"]);
    expect(mayMatch("throw new error('x')", ["Error", "new"], false, true)).toBe(false);
    expect(mayMatch("throw new Error('x')", ["Error", "new"], false, true)).toBe(true);
    expect(mayMatch("throw new Error('x')", ["Error", "new"], true, true)).toBe(true);
    const op = compileOp("new Error($$$A)", "new E($$$A)");
    prepareOp(op, "TypeScript");
    expect(mayMatchOp(op, "TypeScript", "throw new error(1);")).toBe(false);
    expect(mayMatchOp(op, "TypeScript", "throw new Error(1);")).toBe(true);
    expect(op.words.get("TypeScript")).toEqual(["Error", "new"]);
    const html = compileOp("<P>$A</P>", "<q>$A</q>");
    prepareOp(html, "Html");
    expect(html.words.get("Html")).toEqual(["p"]);
    // other languages: words only, case-insensitive; none when the pattern may hold a comment
    const py = compileOp("print($A)", "log($A)");
    prepareOp(py, "Python");
    expect(py.words.get("Python")).toEqual(["print"]);
    expect(mayMatchOp(py, "Python", "PRINT(1)")).toBe(true);
    expect(mayMatchOp(py, "Python", "log(1)")).toBe(false);
    const commented = compileOp("f($A)  # note", "g($A)");
    prepareOp(commented, "Python");
    expect(commented.words.get("Python")).toEqual([]);
  });

  test("comments: the quick check and the lexer never drop a file whose words occur in code", () => {
    const words = ["console", "log"];
    expect(mayMatch("/* x */ console.log(1);\n", words, true, true)).toBe(true);
    // a line with no comment marker can still be inside a block comment
    expect(mayMatch("/*\nconsole.log(1)\n*/\nfoo();\n", words, true, true)).toBe(false);
    // `/*` in a string does not open a comment: the lexer decides
    expect(mayMatch("const s = '/*'; console.log(1);\n", words, true, true)).toBe(true);
    expect(mayMatch("const s = '//'; console.log(1);\n", words, true, true)).toBe(true);
    expect(mayMatch("// console.log\nfoo(); /* log */\n", words, true, true)).toBe(false);
    expect(mayMatch("x = 1; // a\nconsole.log(2); // console\n", words, true, true)).toBe(true);
    expect(mayMatch("/** console.log(x) */\n/* log */ console\n.log(1);\n", words, true, true)).toBe(true);
    // lexing up to a stop returns the comments that start before it
    expect(typeScriptCommentRanges("a; // c\nb; /* d */", 5)).toEqual([3, 7]);
    expect(typeScriptCommentRanges("a; // c\nb; /* d */")).toEqual([3, 7, 11, 18]);
  });

  test("the quick check and the stop agree with lexing whole files (rxjs src)", () => {
    const dir = path.join(process.cwd(), "node_modules/rxjs/src");
    const texts = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => readFileSync(path.join(dir, file), "utf8"));
    expect(texts.length).toBeGreaterThan(200);
    const outside = (text: string, word: string, spans: number[]): boolean => {
      for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
        let inside = false;
        for (let r = 0; r < spans.length; r += 2) if (at >= spans[r]! && at + word.length <= spans[r + 1]!) inside = true;
        if (!inside) return true;
      }
      return false;
    };
    let rejected = 0;
    for (const words of [
      ["console", "log"],
      ["Error", "new"],
      ["undefined"],
      ["subscriber", "next"],
      ["isFunction"],
      ["Observable"],
      ["operate"],
    ]) {
      for (const text of texts) {
        if (!words.every((word) => text.includes(word))) continue;
        const spans = typeScriptCommentRanges(text);
        const reference = spans === undefined || words.every((word) => outside(text, word, spans));
        expect([words, reference ? mayMatch(text, words, true, true) : false]).toEqual([words, reference]);
        if (!reference) rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(100); // the comparison is not vacuous
  });

  test("TypeScript comments do not count, strings and regexes do", () => {
    const ts = "/** console.log(x) */\n// log it\nconst s = 'console'; const r = /log/;\n";
    expect(mayMatch(ts, ["console", "log"], true)).toBe(true);
    expect(mayMatch("/** console.log(x) */\nfoo();\n", ["console", "log"], true)).toBe(false);
    expect(mayMatch("/** console.log(x) */\nfoo();\n", ["console", "log"], false)).toBe(true);
  });

  test("the comment scanner stays linear on one long line full of divisions", () => {
    // each uncertain `/` used to look at the rest of its line: quadratic, beyond the test's timeout
    const line = `${"x = a / b / c / d; ".repeat(20_000)}const s = 'q'; // c\n`;
    expect(typeScriptCommentRanges(line)).toEqual([line.length - 5, line.length - 1]);
  });

  test("the comment scanner gives up rather than guess", () => {
    // after `)` a `/` may start a regex or divide; with a quote later on the line it is not sure
    expect(typeScriptCommentRanges("if (a) /x'/.test(s); // c\n")).toBeUndefined();
    // `//` inside strings, templates and regexes is not a comment
    expect(typeScriptCommentRanges("const u = 'http://x'; const t = `a ${'//'} b`; const r = /\\/\\//;\n")).toEqual([]);
    expect(typeScriptCommentRanges("x = a / b; // c\n")).toEqual([11, 15]);
    expect(typeScriptCommentRanges("const s = `\n/* ${console.log(1)} */`;\n")).toEqual([]);
  });
});

describe("languages", () => {
  test("by extension, as ast-grep CLI assigns them", () => {
    expect(
      [
        "a.ts",
        "a.cts",
        "a.mts",
        "a.tsx",
        "a.js",
        "a.cjs",
        "a.mjs",
        "a.jsx",
        "a.html",
        "a.htm",
        "a.css",
        "a.scss",
        "a.md",
        "a.TS",
        "ts",
        ".env",
        "x.sh.in",
        "main.tf",
        "lib.rs",
        "a.pyi",
      ].map(langForPath),
    ).toEqual([
      "TypeScript",
      "TypeScript",
      "TypeScript",
      "Tsx",
      "JavaScript",
      "JavaScript",
      "JavaScript",
      "JavaScript",
      "Html",
      "Html",
      "Css",
      "Css",
      "Markdown",
      undefined,
      undefined,
      undefined,
      undefined,
      "Hcl",
      "Rust",
      "Python",
    ]);
    expect(AST_LANGS).toHaveLength(29);
    expect(langFromName("TypeScript")).toBe("TypeScript");
    expect(langFromName("jsx")).toBe("JavaScript");
    expect(langFromName("golang")).toBe("Go");
    expect(langFromName("C++")).toBe("Cpp");
    expect(langFromName("cobol")).toBeUndefined();
  });

  test("collectOps keeps order and validates", () => {
    expect(collectOps({ ops: [{ pat: "a", out: "b" }], pat: ["c"], out: ["d"] })).toEqual([
      { pat: "a", out: "b" },
      { pat: "c", out: "d" },
    ]);
    expect(() => collectOps({ pat: ["  "], out: ["x"] })).toThrow("A pattern (pat) is empty.");
  });
});

describe("scratch batches (the CLI's copies)", () => {
  test("remove() deletes exactly what was written, nested directories and forced files included, and walks what it did not write", () => {
    const scratch = new Scratch();
    try {
      const batch = scratch.batch();
      expect(batch.put("a/b/c/deep.ts", "x")).toBe("a/b/c/deep.ts");
      batch.put("a/top.ts", "y");
      const forced = batch.put("notes.txt", "z", "TypeScript");
      expect(readFileSync(forced, "utf8")).toBe("z");
      batch.remove();
      expect(readdirSync(scratch.root).sort()).toEqual(["sgconfig.yml"]);

      const other = scratch.batch();
      other.put("src/a.ts", "x");
      writeFileSync(path.join(other.dir, "src", "stray.ts"), "not ours");
      other.remove();
      expect(readdirSync(scratch.root).sort()).toEqual(["sgconfig.yml"]);
    } finally {
      scratch.dispose();
    }
    expect(() => readdirSync(scratch.root)).toThrow();
  });
});

describe("--lines: matches overlapping lines of one file (a review comment's lines)", () => {
  const multiline = { "src/m.ts": "console.log(1);\nconsole.log(\n  2,\n);\nconsole.log(3);\n" };

  test("only matches overlapping the lines are rewritten, and the reply says so", async () => {
    const ops = [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }];
    const { actions, text } = await run({ ops, paths: ["src/m.ts"], lines: "3" }, workspace(multiline));
    expect(text).toBe(
      "AST Edit: 1 replacement in 1 file\n- src/m.ts: 1 replacement\nOnly matches overlapping line 3 of src/m.ts were kept.",
    );
    expect(await textAfter(actions[0]!.changes!, "src/m.ts")).toBe("console.log(1);\nlogger.debug(2,);\nconsole.log(3);\n");
    const none = await run({ ops, paths: ["src/m.ts"], lines: "6-9" }, workspace(multiline));
    expect(none.text).toBe("No replacements made\nOnly matches overlapping lines 6–9 of src/m.ts were kept.");
  });

  test("a range and the tool's atLines (a line comment with no paths) scope the same way", async () => {
    const scoped = tool.atLines!({ ops: [{ pat: "console.log($$$A)", out: "x($$$A)" }] }, { path: "src/m.ts", startLine: 4, endLine: 5 });
    expect(scoped).toMatchObject({ paths: ["src/m.ts"], lines: "4-5" });
    const { actions } = await run(scoped, workspace(multiline));
    expect(await textAfter(actions[0]!.changes!, "src/m.ts")).toBe("console.log(1);\nx(2,);\nx(3);\n");
    // Paths given on the line: the command is the reviewer's as typed.
    expect(tool.atLines!({ paths: ["src"] }, { path: "src/m.ts", startLine: 1, endLine: 1 })).toEqual({ paths: ["src"] });
  });

  test("--lines needs one file and FROM-TO", async () => {
    const ops = [{ pat: "console.log($$$A)", out: "x($$$A)" }];
    expect((await run({ ops, paths: ["src"], lines: "1" })).text).toBe("--lines needs exactly one file as the path.");
    expect((await run({ ops, paths: ["src/a.ts"], lines: "3-1" })).text).toBe(
      '--lines takes FROM-TO (1-based, FROM ≤ TO), e.g. 12-14; got "3-1".',
    );
  });
});
