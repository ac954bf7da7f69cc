/**
 * /ast-fix through GitHub: the real server reads the ast-grep project (sgconfig.yml and its rules)
 * from the repository's default branch, never from the pull request, previews the fixes as a
 * pending action, and /resolve apply commits exactly what `ast-grep scan --update-all` at the
 * repository root makes of the pull request's files with the default branch's rules.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../helpers/ast-grep-parity.js";
import { comment, runsOn, useBot, type Bot } from "./harness.js";

const REPO = "acme/linted";

/** The default branch: the ast-grep project and some code. */
const DEFAULT_FILES: Record<string, string> = {
  "README.md": "# linted\n",
  "sgconfig.yml": "ruleDirs: [lint/rules]\nutilDirs: [lint/utils]\n",
  "lint/rules/no-console.yml":
    "id: no-console\nlanguage: typescript\nrule:\n  pattern: console.log($$$A)\n  matches: in-function\nfix: logger.debug($$$A)\n",
  "lint/rules/no-var.yml": "id: no-var\nlanguage: typescript\nrule: { pattern: 'var $A = $B' }\nfix: 'let $A = $B'\n",
  "lint/rules/python.yml":
    "id: none-compare\nlanguage: python\nrule: { pattern: $A == None }\nfix: $A is None\n---\nid: no-fix\nlanguage: python\nrule: { pattern: print($A) }\n",
  "lint/utils/in-function.yml": "id: in-function\nlanguage: typescript\nrule: { inside: { kind: function_declaration, stopBy: end } }\n",
  "src/app.ts": "function main() {\n  var count = 1;\n  console.log('start', count);\n}\nconsole.log('top level stays');\n",
  "src/util.ts": "export const ok = true;\n",
  "tools/check.py": "def check(a):\n    if a == None:\n        print(a)\n",
};

/**
 * The pull request: more code to fix, and rule changes that must not count: the existing rule
 * would rename every console call, the new one every identifier.
 */
const PR_CHANGES: Record<string, string> = {
  "lint/rules/no-console.yml": "id: no-console\nlanguage: typescript\nrule: { pattern: console.$M($$$A) }\nfix: pwned($$$A)\n",
  "lint/rules/evil.yml": "id: evil\nlanguage: typescript\nrule: { kind: identifier }\nfix: pwned\n",
  "src/feature.ts": "function feature(x: number) {\n  var y = x;\n  console.log(y);\n  return y;\n}\nvar z = feature(1);\n",
  "src/util.ts": "export const ok = true;\nvar legacy = ok;\n",
};

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "linted", DEFAULT_FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

/**
 * The expected tree: the PR head's files, with its source files as the ast-grep CLI leaves them
 * after `scan --update-all` at the root of a copy whose project is the default branch's.
 */
async function cliExpectation(head: Record<string, string>): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ast-fix-e2e-"));
  try {
    const isProject = (file: string) => file === "sgconfig.yml" || file.startsWith("lint/");
    const copy = { ...Object.fromEntries(Object.entries(head).filter(([file]) => !isProject(file))), ...projectOf(DEFAULT_FILES) };
    for (const [file, text] of Object.entries(copy)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    await runCli(["scan", "--update-all", "."], dir);
    return Object.fromEntries(
      Object.entries(head).map(([file, text]) => [file, isProject(file) ? text : readFileSync(path.join(dir, file), "utf8")]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function projectOf(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([file]) => file === "sgconfig.yml" || file.startsWith("lint/")));
}

test("/ast-fix applies the default branch's rules, not the PR's; /resolve apply commits what ast-grep scan --update-all writes", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "feature-fix", user: "alice", commits: [{ files: PR_CHANGES }] });
  const headFiles = await bot.gh.filesAt(REPO, pr.headSha);
  const expected = await cliExpectation(headFiles);
  // the expectation itself: every default-branch rule with a fix fired, nothing of the PR's rules did
  expect(
    Object.entries(expected)
      .filter(([file, text]) => headFiles[file] !== text)
      .map(([file]) => file),
  ).toEqual(["src/app.ts", "src/feature.ts", "src/util.ts", "tools/check.py"]);
  for (const file of ["src/app.ts", "src/feature.ts", "src/util.ts"]) expect(expected[file]).not.toContain("pwned");

  const previewed = await comment(bot, REPO, pr.number, "alice", "/ast-fix");
  expect(previewed.done).toBe("rocket");
  const label = "AST Fix: 7 fixes from 3 rules in 4 files";
  expect(previewed.reply.split("```diff")[0]).toBe(
    [
      `**${label}** — pending, nothing written yet · [check run](${runsOn(bot, REPO, pr.headSha).find((run) => run.name === `resolve-bot: ${label}`)!.htmlUrl})`,
      "",
      "- src/app.ts: no-console ×1, no-var ×1",
      "- src/feature.ts: no-console ×1, no-var ×2",
      "- src/util.ts: no-var ×1",
      "- tools/check.py: none-compare ×1",
      "",
      "",
    ].join("\n"),
  );
  expect(previewed.reply).not.toContain("pwned");
  const action = runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "));
  expect(action.map((run) => [run.name, run.status, run.output.title])).toEqual([[`resolve-bot: ${label}`, "in_progress", label]]);
  const gate = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot")!;
  expect([gate.status, gate.conclusion, gate.output.title]).toEqual(["completed", "action_required", `Pending: ${label}`]);
  expect(await bot.gh.branchSha(REPO, "feature-fix")).toBe(pr.headSha);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply lint autofix");
  expect(applied.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-fix"))!;
  expect(applied.reply).toBe(
    `Applied 7 fixes from 3 rules in 4 files.\n\nCommit [${head.slice(0, 7)}](${bot.gh.url}/acme/linted/commit/${head}) · Reason: lint autofix`,
  );
  const commit = await bot.gh.commit(REPO, head);
  expect(commit.parents).toEqual([pr.headSha]);
  expect(commit.message.split("\n")[0]).toBe(label);
  expect(await bot.gh.filesAt(REPO, head)).toEqual(expected);
  const done = runsOn(bot, REPO, pr.headSha).find((run) => run.name === `resolve-bot: ${label}`)!;
  expect([done.status, done.conclusion]).toEqual(["completed", "success"]);
});

test("/ast-fix with a rule id the default branch does not have names the rules there are and writes nothing", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "feature-unknown", user: "alice", commits: [{ files: PR_CHANGES }] });
  // "evil" exists only in the pull request's rules: it is as unknown as any other id
  const refused = await comment(bot, REPO, pr.number, "alice", "/ast-fix no-such-rule evil");
  expect(refused.done).toBe("confused");
  expect(refused.reply).toBe(
    'No rule "no-such-rule", "evil" in the ast-grep project of the default branch; its rules: no-console, no-fix, no-var, none-compare.',
  );
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toEqual([]);
  expect(await bot.gh.branchSha(REPO, "feature-unknown")).toBe(pr.headSha);
});

test("/ast-edit: a pattern that does not parse cleanly is refused with the CLI's warning, escaped", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "feature-warning", user: "alice", commits: [{ files: PR_CHANGES }] });
  const replied = await comment(bot, REPO, pr.number, "alice", "/ast-edit --lang ts --pat 'f(@alice <b>' --out x");
  expect(replied.done).toBe("confused");
  expect(replied.reply).toBe(
    [
      "No replacements made: a pattern does not parse cleanly, so nothing was previewed.",
      "",
      'ast-grep warns about the pattern "f(@\u2060alice &lt;b&gt;" (read as TypeScript), which matched nothing:',
      "```",
      "Warning: Pattern contains an ERROR node and may cause unexpected results.",
      "Help: ast-grep parsed the pattern but it matched nothing in this run. Try using playground to refine the pattern.",
      "See also: https://ast-grep.github.io/playground.html",
      "```",
    ].join("\n"),
  );
  expect(replied.reply).not.toMatch(/@alice|<b>/);
  expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toEqual([]);
});
