/**
 * ast_fix: the default branch's ast-grep project, applied to the pull request's files exactly as
 * `ast-grep scan --update-all` at the repository root applies it; the PR's own rules never count.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import astFix from "../../src/tools/ast-fix.js";
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { readTree, runCli } from "../helpers/ast-grep-parity.js";

let tool: AnyToolDefinition;
let scratch: string;

beforeAll(async () => {
  tool = await astFix(createToolAPI());
  scratch = mkdtempSync(path.join(os.tmpdir(), "ast-fix-"));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const PROJECT: Record<string, string> = {
  "sgconfig.yml": "ruleDirs: [lint/rules]\nutilDirs: [lint/utils]\ncustomLanguages:\n  evil: { libraryPath: evil.so, extensions: [ts] }\n",
  "lint/rules/no-console.yml":
    "id: no-console\nlanguage: typescript\nrule:\n  pattern: console.log($$$A)\n  matches: in-function\nfix: logger.debug($$$A)\n",
  "lint/rules/python.yml":
    "id: none-compare\nlanguage: python\nrule: { pattern: $A == None }\nfix: $A is None\n---\nid: no-fix\nlanguage: python\nrule: { pattern: print($A) }\n",
  "lint/rules/var.yml": "id: no-var\nlanguage: typescript\nfiles: ['src/**']\nrule: { pattern: 'var $A = $B' }\nfix: 'let $A = $B'\n",
  "lint/utils/in-function.yml": "id: in-function\nlanguage: typescript\nrule: { inside: { kind: function_declaration, stopBy: end } }\n",
};

const PR_FILES: Record<string, string> = {
  "src/a.ts": "function f() {\n  console.log(1, 2);\n  var x = 1;\n}\nconsole.log('top');\n",
  "lib/b.ts": "var y = 2;\nfunction g() { console.log(3) }\n",
  "tool.py": "if a == None:\n    print(a)\n",
  // the pull request's own rules are not used: they would rewrite everything
  "sgconfig.yml": "ruleDirs: [evil]\n",
  "evil/all.yml": "id: all\nlanguage: typescript\nrule: { kind: identifier }\nfix: pwned\n",
};

function workspaces(project: Record<string, string> = PROJECT) {
  const head = new MemoryWorkspace(PR_FILES, "head");
  const base = new MemoryWorkspace({ ...project, "src/a.ts": "old\n" }, "main");
  head.defaultBranch = async () => base;
  return head;
}

async function run(params: Record<string, unknown>, workspace = workspaces()) {
  const { result, actions } = await executeTool(tool, params, workspace, "fix");
  const after = new Map<string, string>();
  for (const action of actions) {
    for (const change of await action.changes!.resolveChanges())
      if (change.kind === "write") after.set(change.path, Buffer.from(change.content).toString());
  }
  return { text: resultText(result), isError: result.isError === true, actions, after };
}

test("applies the default branch's rules, byte-identical to ast-grep scan --update-all at the root", async () => {
  const dir = path.join(scratch, "repo");
  for (const [file, text] of Object.entries({ ...PR_FILES, ...PROJECT })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  // the reference: the CLI in a checkout whose project is the default branch's (without its custom language)
  writeFileSync(path.join(dir, "sgconfig.yml"), "ruleDirs: [lint/rules]\nutilDirs: [lint/utils]\n");
  rmSync(path.join(dir, "evil"), { recursive: true });
  await runCli(["scan", "--update-all", "."], dir);
  const expected = readTree(dir);

  const { text, actions, after } = await run({});
  expect(text).toBe(
    "AST Fix: 4 fixes from 3 rules in 3 files\n- lib/b.ts: no-console ×1\n- src/a.ts: no-console ×1, no-var ×1\n- tool.py: none-compare ×1",
  );
  expect(actions.map((a) => a.label)).toEqual(["AST Fix: 4 fixes from 3 rules in 3 files"]);
  expect([...after.keys()].sort()).toEqual(["lib/b.ts", "src/a.ts", "tool.py"]);
  for (const [file, content] of after) expect(content).toBe(expected.get(file)!.toString());
  // the PR's sgconfig.yml and evil rules are left as they are
  expect(after.has("sgconfig.yml")).toBe(false);
});

test("rule ids choose rules; an unknown id is an error naming the rules there are", async () => {
  const some = await run({ rules: ["no-var"] });
  expect(some.text).toBe("AST Fix: 1 fix from 1 rule in 1 file\n- src/a.ts: no-var ×1");
  const bad = await run({ rules: ["no-such"] });
  expect(bad.isError).toBe(true);
  expect(bad.text).toBe('No rule "no-such" in the ast-grep project of {trustedTree}; its rules: no-console, no-fix, no-var, none-compare.');
});

test("--paths narrows the files; a rule without a fix fixes nothing", async () => {
  expect((await run({ paths: ["lib"] })).text).toBe("AST Fix: 1 fix from 1 rule in 1 file\n- lib/b.ts: no-console ×1");
  expect((await run({ rules: ["no-fix"] })).text).toBe("No fixes to apply");
});

test("no project on the default branch, or a broken one, is a clear error", async () => {
  const none = await run({}, workspaces({}));
  expect(none.isError).toBe(true);
  expect(none.text).toBe(
    "There is no sgconfig.yml in {trustedTree} (main); /ast-fix applies the fixes of the repository's ast-grep project.",
  );
  const broken = await run(
    {},
    workspaces({ ...PROJECT, "lint/rules/bad.yml": "id: bad\nlanguage: typescript\nrule: { patern: x }\nfix: y\n" }),
  );
  expect(broken.isError).toBe(true);
  expect(broken.text).toContain("ast-grep refused it:");
  expect(broken.text).toContain("patern");
});

test("a front end without a default branch gets a clear error", async () => {
  const { text, isError } = await run({}, new MemoryWorkspace(PR_FILES));
  expect(isError).toBe(true);
  expect(text).toBe("This front end gives tools no default branch to read.");
});
