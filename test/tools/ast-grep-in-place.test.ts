/**
 * The ast-grep CLI reading a local checkout's files where they lie (src/tools/ast-grep/in-place.ts):
 * for a job with no prefilter, resolve-bot lets the CLI walk the checkout and reads only the files
 * it reports a match in. The output must be what the CLI itself writes, and what the usual path
 * (copies of every file) gives, whatever the checkout holds: hidden, ignored-but-tracked,
 * untracked, invalid UTF-8, binary and big files, symbolic links, files that change meanwhile.
 * The git cache's workspace gets a checkout of the commit for the run, with the same result.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolAPI, executeTool } from "../../src/core/execution.js";
import { resultText } from "../../src/core/result.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { DirectoryWorkspace } from "../../src/forges/local/directory-workspace.js";
import astEdit, { selectFiles } from "../../src/tools/ast-edit.js";
import { InPlaceRun, Trace } from "../../src/tools/ast-grep/in-place.js";
import { clearRewriteCaches, compileOp, opJob, type FileText } from "../../src/tools/ast-grep/rewrite.js";
import type { AstLang } from "../../src/tools/ast-grep/languages.js";
import type { CheckoutSpace } from "../../src/workspace/checkout.js";
import { GitCache } from "../../src/workspace/git-cache.js";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";
import type { Workspace } from "../../src/workspace/workspace.js";
import { cliRewrite, cliScan, expectSameTrees, filesWithErrors, readTree } from "../helpers/ast-grep-parity.js";

const ROOT = process.cwd();
const OPTIONAL_CHAIN = { pat: ["$A && $A.$B"], out: ["$A?.$B"] };
/** A rule with no word to prefilter on: every TypeScript file is a candidate. */
const RULE = "id: optional-chain\nlanguage: typescript\nrule: { pattern: $A && $A.$B }\nfix: $A?.$B\n";
const LIMITS = { maxFiles: 100_000, maxFileBytes: 64 * 1024, maxTotalBytes: 1 << 30 };

let scratch: string;
let tool: AnyToolDefinition;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), "ast-in-place-")));
  tool = await astEdit(createToolAPI());
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => clearRewriteCaches());

/** The usual path on the same checkout: the workspace without its directory, so every file is read and copied. */
class CopyingWorkspace extends DirectoryWorkspace {
  override onDisk(): undefined {
    return undefined;
  }
}

function git(repo: string, ...args: string[]): void {
  execFileSync("git", args, { cwd: repo });
}

/** A git checkout in the scratch directory holding `files`, all added to the index. */
function checkout(name: string, files: Record<string, string | Buffer>): string {
  const repo = path.join(scratch, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), content);
  }
  git(repo, "init", "-q");
  git(repo, "add", "-A");
  return repo;
}

/** Runs ast_edit; returns its reply and the files as its pending action would leave them. */
async function edit(workspace: Workspace, params: Record<string, unknown>) {
  const { result, actions } = await executeTool(tool, params, workspace, "in-place");
  const after = new Map<string, string>();
  for (const action of actions) {
    for (const change of await action.changes!.resolveChanges()) {
      if (change.kind === "write") after.set(change.path, Buffer.from(change.content).toString("utf8"));
    }
  }
  return { text: resultText(result), after };
}

async function inPlaceCandidates(workspace: Workspace, params: { pat: string[]; out: string[] }, paths = ["."]) {
  const selection = await selectFiles({ workspace } as never, paths, undefined, [opJob(compileOp(params.pat[0]!, params.out[0]!))]);
  await selection.rewrite(); // a CLI run it started ends here
  return selection.inPlace === undefined ? undefined : [...selection.inPlace.candidates.keys()];
}

describe("a local checkout read in place", () => {
  let repo: string;

  beforeAll(() => {
    repo = checkout("mixed", {
      "src/a.ts": "const x = a && a.b;\n",
      "src/none.ts": "export const y = 1;\n",
      ".github/scripts/hidden.ts": "const h = c && c.d;\n",
      "generated/ignored.ts": "const g = e && e.f;\n",
      "bad-utf8.ts": Buffer.concat([Buffer.from("const u = f && f.g; // "), Buffer.from([0xff, 0xfe]), Buffer.from("\n")]),
      "binary.ts": Buffer.concat([Buffer.from("const n = h && h.i;"), Buffer.alloc(64)]),
      "big.ts": `const big = i && i.j;\n${"// padding\n".repeat(8000)}`,
      "big-none.ts": `const bigNone = 1;\n${"// padding\n".repeat(8000)}`,
      "page.html": "<script>const s = k && k.l;</script>\n",
    });
    // tracked though .gitignore names it: a workspace file the CLI's walk skips
    writeFileSync(path.join(repo, ".gitignore"), "generated/\nnode_modules/\n");
    git(repo, "add", ".gitignore");
    // untracked and ignored: no workspace file, though the CLI could reach it
    mkdirSync(path.join(repo, "node_modules/dep"), { recursive: true });
    writeFileSync(path.join(repo, "node_modules/dep/index.ts"), "const d = m && m.n;\n");
    // untracked, not ignored: a workspace file
    writeFileSync(path.join(repo, "src/untracked.ts"), "const t = o && o.p;\n");
    // a link to a file outside: never read through
    writeFileSync(path.join(scratch, "outside.ts"), "const o = q && q.r;\n");
    symlinkSync(path.join(scratch, "outside.ts"), path.join(repo, "src/link.ts"));
    // modified long enough ago that the CLI's read and resolve-bot's are known to see the same bytes
    const old = new Date(Date.now() - 60_000);
    for (const file of execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repo, encoding: "utf8" }).split("\n")) {
      if (file !== "") utimesSync(path.join(repo, file), old, old);
    }
  });

  test("the CLI walks it, and the result equals the copies' file for file, with the same reply", async () => {
    const workspace = new DirectoryWorkspace(repo, "working tree", LIMITS);
    expect(await inPlaceCandidates(workspace, OPTIONAL_CHAIN)).toEqual([
      ".github/scripts/hidden.ts",
      "bad-utf8.ts",
      "big-none.ts",
      "big.ts",
      "binary.ts",
      "generated/ignored.ts",
      "page.html",
      "src/a.ts",
      "src/none.ts",
      "src/untracked.ts",
    ]);
    const inPlace = await edit(workspace, OPTIONAL_CHAIN);
    const copied = await edit(new CopyingWorkspace(repo, "working tree", LIMITS), OPTIONAL_CHAIN);
    expect(inPlace.text).toBe(
      [
        "AST Edit: 4 replacements in 4 files",
        "- .github/scripts/hidden.ts: 1 replacement",
        "- generated/ignored.ts: 1 replacement",
        "- src/a.ts: 1 replacement",
        "- src/untracked.ts: 1 replacement",
        "Not searched: 2 files that could hold a match:",
        "- bad-utf8.ts is not valid UTF-8; ast_edit leaves it alone.",
        "- big.ts is 86 KB, over the 64 KB per-file limit; resolve-bot leaves it alone.",
      ].join("\n"),
    );
    expect(inPlace.after).toEqual(copied.after);
    expect(inPlace.after.get("generated/ignored.ts")).toBe("const g = e?.f;\n");
    // The copies name every big file the pattern could match in; in place, the CLI has read them
    // all and only one where it found a match is named.
    expect(copied.text).toBe(
      inPlace.text
        .replace("Not searched: 2 files", "Not searched: 3 files")
        .replace("- big.ts", "- big-none.ts is 86 KB, over the 64 KB per-file limit; resolve-bot leaves it alone.\n- big.ts"),
    );
  });

  test("YAML rules are read in place too, with the same result as from copies", async () => {
    const params = { rules: RULE, paths: ["src", ".github"] };
    const inPlace = await edit(new DirectoryWorkspace(repo, "working tree", LIMITS), params);
    const copied = await edit(new CopyingWorkspace(repo, "working tree", LIMITS), params);
    expect(inPlace.text).toBe(
      "AST Edit: 3 replacements in 3 files\n- .github/scripts/hidden.ts: 1 replacement\n- src/a.ts: 1 replacement\n- src/untracked.ts: 1 replacement",
    );
    expect(inPlace.after).toEqual(copied.after);
  });

  test("what cannot be read in place is copied: patterns with words, several ops, --lang, files named, few candidates", async () => {
    const workspace = new DirectoryWorkspace(repo, "working tree", LIMITS);
    expect(await inPlaceCandidates(workspace, { pat: ["console.log($A)"], out: ["x($A)"] })).toBeUndefined();
    expect(await inPlaceCandidates(workspace, OPTIONAL_CHAIN, ["src/a.ts"])).toBeUndefined();
    expect(await inPlaceCandidates(workspace, OPTIONAL_CHAIN, ["src"])).toEqual(["src/a.ts", "src/none.ts", "src/untracked.ts"]);
    // a glob walks from its fixed start; here most files below it are no candidates
    expect(await inPlaceCandidates(workspace, OPTIONAL_CHAIN, ["src/a*"])).toBeUndefined();
    const selection = await selectFiles({ workspace } as never, ["."], "TypeScript", [
      opJob(compileOp("$A && $A.$B", "$A?.$B"), "TypeScript"),
    ]);
    expect(selection.inPlace).toBeUndefined();
    const twoOps = [opJob(compileOp("$A && $A.$B", "$A?.$B")), opJob(compileOp("$A || $B", "$A ?? $B"))];
    expect((await selectFiles({ workspace } as never, ["."], undefined, twoOps)).inPlace).toBeUndefined();
  });
});

describe("a file that changes while the CLI reads it", () => {
  let dir: string;
  const job = () => opJob(compileOp("$A && $A.$B", "$A?.$B"));

  beforeEach(() => {
    dir = mkdtempSync(path.join(scratch, "changing-"));
    writeFileSync(path.join(dir, "a.ts"), "a && a.b;\n");
  });

  /** Rewrites a.ts in place, with resolve-bot's read of it giving `read` and the file's modification time `modified`. */
  function rewrite(read: string, modified: number) {
    return new InPlaceRun(job(), { root: dir, modifiedAt: () => modified }, ["."]).rewrite({
      candidates: new Map<string, AstLang>([["a.ts", "TypeScript"]]),
      read: async (file): Promise<FileText> => ({ path: file, lang: "TypeScript", text: read }),
    });
  }

  test("a match that moved is found again in the text resolve-bot read, not spliced at the CLI's offsets", async () => {
    const [result] = await rewrite("// a new first line\nzz && zz.b;\n", Date.now() - 60_000);
    expect(result).toMatchObject({ text: "// a new first line\nzz?.b;\n", replacements: 1 });
  });

  test("a file modified just before the run is rewritten from the text read, even where the CLI's matches still fit", async () => {
    const grown = "a && a.b;\nc && c.d;\n";
    expect((await rewrite(grown, Date.now()))[0]).toMatchObject({ text: "a?.b;\nc?.d;\n", replacements: 2 });
    // What the modification time guards: with an old one the CLI's read is trusted, and its one match used.
    expect((await rewrite(grown, Date.now() - 60_000))[0]).toMatchObject({ text: "a?.b;\nc && c.d;\n", replacements: 1 });
  });
});

describe("the CLI's trace of what it read", () => {
  test("a name with a line break, which could forge a trace line, is not walked: it is edited from a copy", async () => {
    // Its trace line would read as two: "sg: entity|file|x" and one saying victim.ts (which the walk skips) was read.
    const repo = checkout("line-break", {
      "a.ts": "a && a.b;\n",
      "x\nsg: entity|file|victim.ts": "x && x.y;\n",
      "victim.ts": "v && v.w;\n",
    });
    writeFileSync(path.join(repo, ".gitignore"), "victim.ts\n");
    const workspace = new DirectoryWorkspace(repo, "working tree");
    expect(await inPlaceCandidates(workspace, OPTIONAL_CHAIN)).toEqual(["a.ts", "victim.ts", "x\nsg: entity|file|victim.ts"]);
    expect((await edit(workspace, OPTIONAL_CHAIN)).after).toEqual(
      new Map([
        ["a.ts", "a?.b;\n"],
        ["victim.ts", "v?.w;\n"],
        ["x\nsg: entity|file|victim.ts", "x?.y;\n"],
      ]),
    );
  });

  test("a run cancelled while the workspace is listed fails with the abort", async () => {
    const dir = mkdtempSync(path.join(scratch, "cancelled-"));
    writeFileSync(path.join(dir, "a.ts"), "a && a.b;\n");
    const run = new InPlaceRun(opJob(compileOp("$A && $A.$B", "$A?.$B")), { root: dir, modifiedAt: () => 0 }, ["."]);
    run.cancel();
    await expect(run.rewrite({ candidates: new Map(), read: async () => undefined })).rejects.toThrow(/abort/i);
  });

  test("a line that cannot be read, or a file traced twice, and nothing in the trace is trusted", () => {
    const trace = new Trace();
    trace.add("sg: summary|project: isProject=false");
    trace.add("sg: entity|file|a.ts: language=TypeScript");
    trace.add("sg: entity|file|b: c.ts: skipped=invalidUtf8");
    trace.add("sg: entity|rule|no-console: finalAction=Include");
    expect([...trace.read]).toEqual(["a.ts"]);
    expect(trace.trusted).toBe(true);
    const forged = new Trace();
    forged.add("sg: entity|file|x");
    expect(forged.trusted).toBe(false);
    const twice = new Trace();
    twice.add("sg: entity|file|a.ts: language=TypeScript");
    twice.add("sg: entity|file|./a.ts: language=Tsx");
    expect(twice.trusted).toBe(false);
  });
});

describe("parity with the CLI on real code read in place", () => {
  let repo: string;
  let before: Map<string, Buffer>;

  beforeAll(() => {
    repo = path.join(scratch, "real");
    cpSync(path.join(ROOT, "node_modules/effect/src"), path.join(repo, "effect"), { recursive: true });
    cpSync(path.join(ROOT, "node_modules/rxjs/src"), path.join(repo, "rxjs"), { recursive: true });
    before = readTree(repo);
    git(repo, "init", "-q");
    git(repo, "add", "-A");
    const old = new Date(Date.now() - 60_000);
    for (const file of before.keys()) utimesSync(path.join(repo, file), old, old);
  });

  /** The checkout's files after ast_edit (in place: checked) ran with `params`. */
  async function afterEdit(params: Record<string, unknown>): Promise<Map<string, Buffer>> {
    const workspace = new DirectoryWorkspace(repo, "working tree", { ...LIMITS, maxFileBytes: 64 * 1024 * 1024 });
    if (params.rules === undefined) expect(await inPlaceCandidates(workspace, params as never)).toBeDefined();
    const { after, text } = await edit(workspace, params);
    expect(text).not.toContain("Not searched");
    const tree = new Map(before);
    for (const [file, content] of after) tree.set(file, Buffer.from(content, "utf8"));
    return tree;
  }

  test("`$A || $B` on effect and rxjs src, files with ERROR nodes included, is byte-identical to `run -U`", async () => {
    const expected = await cliRewrite(scratch, repo, [{ pat: "$A || $B", out: "$A ?? $B" }]);
    expected.delete(".git");
    for (const file of [...expected.keys()]) if (file.startsWith(".git/")) expected.delete(file);
    const changed = [...expected].filter(([file, bytes]) => !before.get(file)!.equals(bytes)).map(([file]) => file);
    const withErrors = await filesWithErrors(repo, ["typescript"]);
    expect(changed.length).toBeGreaterThan(100);
    expect(changed.filter((file) => withErrors.has(file)).length).toBeGreaterThan(10);
    expectSameTrees(await afterEdit({ pat: ["$A || $B"], out: ["$A ?? $B"] }), expected);
  });

  test("a YAML rule with no word to prefilter on is byte-identical to `scan --update-all`", async () => {
    const rule =
      'id: nullish\nlanguage: typescript\nrule: { pattern: "$A || $B", inside: { kind: return_statement, stopBy: end } }\nfix: $A ?? $B\n';
    const expected = await cliScan(scratch, repo, rule);
    for (const file of [...expected.keys()]) if (file.startsWith(".git/")) expected.delete(file);
    expect([...expected].filter(([file, bytes]) => !before.get(file)!.equals(bytes)).length).toBeGreaterThan(20);
    expectSameTrees(await afterEdit({ rules: rule }), expected);
  });
});

describe("the git cache's workspace: a checkout of the commit for the run", () => {
  let gitDir: string;
  let sha: string;

  beforeAll(() => {
    const repo = checkout("committed", {
      "src/a.ts": "const x = a && a.b;\n",
      "src/b.ts": "export const y = 1;\nconst z = y && y.toString;\n",
      "src/none.ts": "export const n = 1;\n",
      "lib/c.ts": "const w = v && v.u;\n",
      "bin/run.ts": "#!/usr/bin/env node\nconst r = s && s.t;\n",
      // asks git for CRLF in the work tree: the checkout must hold the blobs' bytes all the same
      ".gitattributes": "*.ts text eol=crlf\n",
    });
    symlinkSync("/etc/hostname", path.join(repo, "src/link.ts"));
    git(repo, "add", "-A");
    git(repo, "update-index", "--chmod=+x", "bin/run.ts");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "files");
    gitDir = path.join(repo, ".git");
    sha = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
  });

  /** A GitWorkspace that notes the files it reads. */
  class CountingGitWorkspace extends GitWorkspace {
    readonly read = new Set<string>();
    protected override async readListedFile(file: string): Promise<Uint8Array> {
      this.read.add(file);
      return super.readListedFile(file);
    }
  }

  /** Checkouts in the scratch directory; `fits`: the budget's answer; `held`: reservations not released. */
  function space(fits = true) {
    const made: string[] = [];
    const asked: number[] = [];
    const held = new Set<string>();
    const checkouts: CheckoutSpace = {
      directory: () => {
        const dir = path.join(scratch, `checkout-${made.length}-${Date.now()}`);
        made.push(dir);
        return dir;
      },
      reserve: async (dir, bytes) => {
        asked.push(bytes);
        if (!fits) return undefined;
        held.add(dir);
        return { release: async () => void held.delete(dir) };
      },
    };
    return { checkouts, made, asked, held };
  }

  test("the CLI reads the checkout: the result equals the copies', only the matched files are read, and the checkout is gone", async () => {
    const { checkouts, made, asked, held } = space();
    const inPlaceWorkspace = new CountingGitWorkspace(gitDir, sha, LIMITS, checkouts);
    const inPlace = await edit(inPlaceWorkspace, OPTIONAL_CHAIN);
    clearRewriteCaches();
    const copyingWorkspace = new CountingGitWorkspace(gitDir, sha, LIMITS);
    const copied = await edit(copyingWorkspace, OPTIONAL_CHAIN);
    expect(inPlace).toEqual(copied);
    expect([...copied.after.keys()].sort()).toEqual(["bin/run.ts", "lib/c.ts", "src/a.ts", "src/b.ts"]);
    expect(asked).toHaveLength(1);
    // The file without a match was read only to be copied.
    expect([...inPlaceWorkspace.read].sort()).toEqual(["bin/run.ts", "lib/c.ts", "src/a.ts", "src/b.ts"]);
    expect([...copyingWorkspace.read].sort()).toEqual(["bin/run.ts", "lib/c.ts", "src/a.ts", "src/b.ts", "src/none.ts"]);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
    expect(held.size).toBe(0);
  });

  test("the same for a YAML rule", async () => {
    const { checkouts, asked } = space();
    const inPlace = await edit(new GitWorkspace(gitDir, sha, LIMITS, checkouts), { rules: RULE });
    clearRewriteCaches();
    expect(inPlace).toEqual(await edit(new GitWorkspace(gitDir, sha, LIMITS), { rules: RULE }));
    expect(inPlace.after.size).toBe(4);
    expect(asked).toHaveLength(1);
  });

  test("the checkout holds the blobs' bytes: no end-of-line conversion, no .gitattributes, no link; executables stay executable", async () => {
    const { checkouts } = space();
    const disk = new GitWorkspace(gitDir, sha, LIMITS, checkouts).onDisk()!;
    const lease = await disk.open!();
    try {
      expect(Object.fromEntries([...readTree(disk.root)].map(([file, bytes]) => [file, bytes.toString("utf8")]))).toEqual({
        "bin/run.ts": "#!/usr/bin/env node\nconst r = s && s.t;\n",
        "lib/c.ts": "const w = v && v.u;\n",
        "src/a.ts": "const x = a && a.b;\n",
        "src/b.ts": "export const y = 1;\nconst z = y && y.toString;\n",
        "src/none.ts": "export const n = 1;\n",
      });
      expect(statSync(path.join(disk.root, "bin/run.ts")).mode & 0o111).not.toBe(0);
      expect(statSync(path.join(disk.root, "src/a.ts")).mode & 0o111).toBe(0);
    } finally {
      await lease.release();
    }
    expect(existsSync(disk.root)).toBe(false);
  });

  test("no room within the cache's disk budget: nothing is checked out, and every candidate is copied as before", async () => {
    const { checkouts, made, asked } = space(false);
    const workspace = new CountingGitWorkspace(gitDir, sha, LIMITS, checkouts);
    const inPlace = await edit(workspace, OPTIONAL_CHAIN);
    clearRewriteCaches();
    expect(inPlace).toEqual(await edit(new GitWorkspace(gitDir, sha, LIMITS), OPTIONAL_CHAIN));
    expect(asked).toEqual([expect.any(Number)]);
    expect(workspace.read.has("src/none.ts")).toBe(true);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  });

  test("with the cache's budget: while one run's checkout is out, a run that would not fit beside it copies; after it, a run reads in place again", async () => {
    const cacheRoot = mkdtempSync(path.join(scratch, "cache-"));
    const sizing = new GitWorkspace(gitDir, sha, LIMITS);
    await sizing.list();
    // Room for one checkout of the commit and a half: each fits alone, two do not.
    const cache = new GitCache({ root: cacheRoot, budgetBytes: Math.floor(sizing.totalBytes * 1.5), inUseMs: 60_000 });
    const holding = await new GitWorkspace(gitDir, sha, LIMITS, cache.checkouts).onDisk()!.open!();
    const squeezed = new CountingGitWorkspace(gitDir, sha, LIMITS, cache.checkouts);
    const copied = await edit(squeezed, OPTIONAL_CHAIN);
    expect(squeezed.read.has("src/none.ts")).toBe(true);
    await holding.release();
    clearRewriteCaches();
    const roomy = new CountingGitWorkspace(gitDir, sha, LIMITS, cache.checkouts);
    expect(await edit(roomy, OPTIONAL_CHAIN)).toEqual(copied);
    expect(roomy.read.has("src/none.ts")).toBe(false);
    expect(await cache.reservedBytes()).toBe(0);
    expect(readdirSync(path.join(cacheRoot, "checkouts"))).toEqual([]);
  });

  test("a run whose CLI fails gives its checkout and its reservation back", async () => {
    const cacheRoot = mkdtempSync(path.join(scratch, "cache-"));
    const cache = new GitCache({ root: cacheRoot, budgetBytes: 1 << 30, inUseMs: 60_000 });
    const workspace = new GitWorkspace(gitDir, sha, LIMITS, cache.checkouts);
    await workspace.list();
    // Output over its limit: the CLI is stopped and the run fails.
    const limits = { timeoutMs: 60_000, maxOutputBytes: 1 };
    const run = new InPlaceRun(opJob(compileOp("$A && $A.$B", "$A?.$B")), workspace.onDisk()!, ["."], { limits });
    // The run's failure is said once its checkout is released.
    await expect(run.rewrite({ candidates: new Map(), read: async () => undefined })).rejects.toThrow(
      "ast-grep reported more than 1 B of matches and was stopped",
    );
    expect(await cache.reservedBytes()).toBe(0);
    expect(readdirSync(path.join(cacheRoot, "checkouts"))).toEqual([]);
  });
});
