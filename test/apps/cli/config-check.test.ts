/**
 * `resolve-bot config validate`: the gate's problems, each at its line and column; the same
 * sentences the gate check shows for the same file on the default branch.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { loadRepoConfig } from "../../../src/config/load.js";
import { checkConfigText } from "../../../src/apps/cli/config-check.js";
import { createRegistry } from "../../../src/tools/index.js";

const CLI = path.resolve("dist/src/apps/bin.js");
const COMMANDS = ["ast_edit", "ast_fix", "move", "rename_symbol", "resolve", "help", "pending"];

const BAD = `# a comment first
tools: [ast-edit, frobnicate]
permissions:
  default: write
  Ast-Edit: superuser
  nope: read
steering: loose
limits:
  max_files: 0
  colour: red
commit_message: ""
`;

function cli(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "--cwd", cwd, ...args], { encoding: "utf8" });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function checkout(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-config-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

test("each problem at its line and column, in file order: a bad value at the value, an unknown key at the key", () => {
  // Every problem in one pass: the schema's and the names that are no command (here an unknown tool among them).
  expect(checkConfigText(BAD, "f.yml", COMMANDS).problems).toEqual([
    'f.yml:2:19: tools: unknown tool "frobnicate"',
    'f.yml:5:13: permissions.Ast-Edit: must be one of read, triage, write, maintain, admin (got "superuser")',
    "f.yml:6:3: permissions.nope: unknown command",
    'f.yml:7:11: steering: must be one of stack, strict (got "loose")',
    "f.yml:9:14: limits.max_files: must be at least 1 (got 0)",
    "f.yml:10:3: limits.colour: unknown key",
    "f.yml:11:17: commit_message: must not be empty",
  ]);
  // An unknown tool at its list item, an unknown command at its key.
  expect(checkConfigText("tools: [ast-edit, frobnicate]\npermissions:\n  Nope: read\n", "f.yml", COMMANDS).problems).toEqual([
    'f.yml:1:19: tools: unknown tool "frobnicate"',
    "f.yml:3:3: permissions.nope: unknown command",
  ]);
});

test.each([
  ["schema problems", BAD],
  ["unknown names", "tools: [ast-edit, frobnicate]\npermissions:\n  Nope: read\n  move: admin\n"],
  ["a valid file", "tools: [ast-edit]\nsteering: strict\n"],
])("the same sentences as the gate for %s", async (_, text) => {
  const registry = await createRegistry({});
  const gate = await loadRepoConfig(async () => parse(text) as unknown, registry);
  const commands = [...registry.list().map((tool) => tool.name), "resolve", "help", "pending"];
  const shown = checkConfigText(text, "f.yml", commands).problems.map((line) => line.replace(/^f\.yml:\d+:\d+: /, ""));
  expect([...shown].sort()).toEqual(gate.ok ? [] : [...gate.errors].sort());
});

test("YAML that does not parse is a problem at where the parser stopped", () => {
  expect(checkConfigText("tools: [ast-edit\nsteering: stack\n", "f.yml", COMMANDS).problems[0]).toMatch(
    /^f\.yml:\d+:\d+: f\.yml cannot be read: /,
  );
});

test("`_extends` is said not to be followed; the rest of the file is checked", () => {
  const check = checkConfigText("_extends: .github\nsteering: loose\n", "f.yml", COMMANDS);
  expect(check.notes).toEqual(['f.yml: _extends ".github" is not followed here: the keys it brings are checked by the gate only.']);
  expect(check.problems).toEqual(['f.yml:2:11: steering: must be one of stack, strict (got "loose")']);
});

test("the command: .github/resolve-bot.yml by default; exit 1 with the problems, 0 when valid, 1 without a file", () => {
  const repo = checkout({
    ".github/resolve-bot.yml": "steering: loose\n",
    "ok.yml": "gate_check: false\n",
    "levels.yml": "permissions:\n  ast_edit: superuser\n  move:\n",
  });
  expect(cli(repo, ["config", "validate"])).toEqual({
    code: 1,
    out: '.github/resolve-bot.yml:1:11: steering: must be one of stack, strict (got "loose")\n',
    err: ".github/resolve-bot.yml: 1 problem; with this file on the default branch, the gate check fails and no command runs.\n",
  });
  // A bad level names the allowed ones, at the value; an empty one just after its key, where the value goes.
  expect(cli(repo, ["config", "validate", "levels.yml"])).toEqual({
    code: 1,
    out: [
      'levels.yml:2:13: permissions.ast_edit: must be one of read, triage, write, maintain, admin (got "superuser")',
      "levels.yml:3:8: permissions.move: must be one of read, triage, write, maintain, admin (got nothing)",
      "",
    ].join("\n"),
    err: "levels.yml: 2 problems; with this file on the default branch, the gate check fails and no command runs.\n",
  });
  expect(cli(repo, ["config", "validate", "ok.yml"])).toEqual({ code: 0, out: "ok.yml: valid.\n", err: "" });
  expect(cli(repo, ["config", "validate", "missing.yml"])).toEqual({ code: 1, out: "", err: "missing.yml: no such file.\n" });
  const usage = cli(repo, ["config", "check"]);
  // The verb's usage lines, not the whole usage.
  expect(usage).toEqual({
    code: 2,
    out: "",
    err: [
      'config takes "validate [FILE]" or "schema".',
      "Usage: resolve-bot config validate [FILE]   check a .github/resolve-bot.yml as the gate does (default: that file)",
      "  resolve-bot config schema            print its JSON Schema",
      "Every command: resolve-bot --help",
      "",
    ].join("\n"),
  });
});

test("`config schema` prints the published schema", () => {
  const printed = cli(os.tmpdir(), ["config", "schema"]);
  expect(printed.code).toBe(0);
  expect(JSON.parse(printed.out)).toEqual(JSON.parse(readFileSync("docs/resolve-bot.schema.json", "utf8")));
});
