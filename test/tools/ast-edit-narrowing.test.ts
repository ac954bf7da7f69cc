/**
 * ast_edit on the git cache's workspace: the files lacking a pattern's words are ruled out by
 * `git grep` over the commit (GitWorkspace.filesHoldingAll) and never read here; the reply and the
 * change are exactly those of the same files read one by one (a MemoryWorkspace, which cannot
 * search), files over the size limit and words only in comments included.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import astEdit from "../../src/tools/ast-edit.js";
import { clearRewriteCaches } from "../../src/tools/ast-grep/rewrite.js";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";
import { MemoryWorkspace, type Workspace } from "../../src/workspace/workspace.js";

const LIMITS = { maxFiles: 1000, maxFileBytes: 400, maxTotalBytes: 1 << 20 };

const FILES: Record<string, string> = {
  "src/match.ts": "const a = Effect.succeed(1);\nconst b = Effect.succeed(a);\n",
  "src/comment-only.ts": "// Effect.succeed(x) in a comment\nexport const c = 1;\n",
  "src/words-apart.ts": "import { Effect } from 'effect';\nexport const succeed = Effect.void;\n",
  "src/no-words.ts": "export const d = 2;\n",
  "src/other.tsx": "const e = <div>{Effect.succeed(3)}</div>;\n",
  "lib/plain.js": "module.exports = Effect.succeed(4);\n",
  "README.md": "Effect.succeed(5)\n",
  // over the per-file limit and without the words: still said to be skipped, as when every file is read
  "src/huge.ts": `export const big = "${"x".repeat(500)}";\n`,
};

let tool: AnyToolDefinition;
let gitDir: string;
let sha: string;

/** A GitWorkspace that notes the files it reads. */
class CountingGitWorkspace extends GitWorkspace {
  readonly read = new Set<string>();
  protected override async readListedFile(file: string): Promise<Uint8Array> {
    this.read.add(file);
    return super.readListedFile(file);
  }
}

beforeAll(async () => {
  tool = await astEdit(createToolAPI());
  const dir = mkdtempSync(path.join(os.tmpdir(), "ast-edit-narrowing-"));
  gitDir = path.join(dir, "repo.git");
  const git = (args: string[], input?: string) =>
    execFileSync("git", args, { env: { PATH: process.env.PATH ?? "", GIT_DIR: gitDir, HOME: dir }, input })
      .toString("utf8")
      .trim();
  git(["init", "--bare", "-q"]);
  const index = { GIT_INDEX_FILE: path.join(dir, "index") };
  for (const [file, content] of Object.entries(FILES)) {
    const blob = git(["hash-object", "-w", "--stdin"], content);
    execFileSync("git", ["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`], {
      env: { PATH: process.env.PATH ?? "", GIT_DIR: gitDir, HOME: dir, ...index },
    });
  }
  const tree = execFileSync("git", ["write-tree"], { env: { PATH: process.env.PATH ?? "", GIT_DIR: gitDir, HOME: dir, ...index } })
    .toString("utf8")
    .trim();
  sha = git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", tree, "-m", "files"]);
});

afterAll(() => rmSync(path.dirname(gitDir), { recursive: true, force: true }));

beforeEach(() => clearRewriteCaches());

/** Runs ast_edit; returns its reply and the files as its pending action would leave them. */
async function edit(workspace: Workspace, params: Record<string, unknown>) {
  const { result, actions } = await executeTool(tool, params, workspace, "narrowing");
  const after: Record<string, string> = {};
  for (const action of actions) {
    for (const change of await action.changes!.resolveChanges()) {
      if (change.kind === "write") after[change.path] = Buffer.from(change.content).toString("utf8");
    }
  }
  return { text: resultText(result), after };
}

test("git grep rules out the files lacking the words: they are not read, and the reply and change are those of reading every file", async () => {
  const params = { pat: ["Effect.succeed($A)"], out: ["Effect.succeedNow($A)"] };
  const git = new CountingGitWorkspace(gitDir, sha, LIMITS);
  const narrowed = await edit(git, params);
  clearRewriteCaches();
  const everyFile = await edit(new MemoryWorkspace(FILES, sha, LIMITS), params);
  expect(narrowed).toEqual(everyFile);
  expect(narrowed.text).toBe(
    [
      "AST Edit: 4 replacements in 3 files",
      "- lib/plain.js: 1 replacement",
      "- src/match.ts: 2 replacements",
      "- src/other.tsx: 1 replacement",
      "Not searched: 1 file that could hold a match:",
      "- src/huge.ts is 523 B, over the 400 B per-file limit; resolve-bot leaves it alone.",
    ].join("\n"),
  );
  // Read: the files holding both words (the comment-only one is ruled out by the text prefilter
  // after reading), the one over the limit, and README.md (Markdown's words are matched without
  // case: no needles); never src/no-words.ts.
  expect([...git.read].sort()).toEqual([
    "README.md",
    "lib/plain.js",
    "src/comment-only.ts",
    "src/huge.ts",
    "src/match.ts",
    "src/other.tsx",
    "src/words-apart.ts",
  ]);
});

test("--lang and several patterns: each pattern's files, none ruled out that one of them could change", async () => {
  const params = { lang: "ts", pat: ["Effect.succeed($A)", "export const $X = 2"], out: ["Effect.succeedNow($A)", "export const $X = 3"] };
  const git = new CountingGitWorkspace(gitDir, sha, LIMITS);
  const narrowed = await edit(git, params);
  clearRewriteCaches();
  expect(narrowed).toEqual(await edit(new MemoryWorkspace(FILES, sha, LIMITS), params));
  expect(narrowed.after).toEqual({
    "src/match.ts": "const a = Effect.succeedNow(1);\nconst b = Effect.succeedNow(a);\n",
    "src/no-words.ts": "export const d = 3\n", // the CLI's own rewrite: the pattern matches without the semicolon
  });
  expect(git.read.has("src/no-words.ts")).toBe(true);
  expect(git.read.has("README.md")).toBe(false);
});

test("a pattern whose words are no needles of git's (a line break) reads every file of the language, as before", async () => {
  const params = { pat: ["const $A = Effect.succeed(1);\nconst $B = $C;"], out: ["const $A = Effect.succeed(1), $B = $C;"] };
  const git = new CountingGitWorkspace(gitDir, sha, LIMITS);
  const narrowed = await edit(git, params);
  clearRewriteCaches();
  expect(narrowed).toEqual(await edit(new MemoryWorkspace(FILES, sha, LIMITS), params));
});
