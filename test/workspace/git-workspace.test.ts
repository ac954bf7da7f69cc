import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";

/** A bare repository with one commit whose tree is `entries` (mode, content or a SHA for a submodule). */
function bareRepo(entries: Array<{ path: string; mode: string; content?: string | Buffer; commit?: string }>): {
  gitDir: string;
  sha: string;
} {
  const gitDir = mkdtempSync(path.join(tmpdir(), "git-workspace-"));
  const git = (args: string[], input?: string | Buffer) =>
    execFileSync("git", args, { env: { PATH: process.env.PATH ?? "", GIT_DIR: gitDir, HOME: gitDir }, input })
      .toString("utf8")
      .trim();
  git(["init", "--bare", "-q"]);
  // Nested trees, built bottom up.
  const build = (prefix: string): string => {
    const lines = new Map<string, string>();
    for (const entry of entries) {
      if (!entry.path.startsWith(prefix)) continue;
      const rest = entry.path.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash >= 0) {
        const dir = rest.slice(0, slash);
        lines.set(dir, `040000 tree ${build(`${prefix}${dir}/`)}\t${dir}`);
      } else if (entry.commit) {
        lines.set(rest, `${entry.mode} commit ${entry.commit}\t${rest}`);
      } else {
        lines.set(rest, `${entry.mode} blob ${git(["hash-object", "-w", "--stdin"], entry.content ?? "")}\t${rest}`);
      }
    }
    return git(["mktree"], [...lines.values()].join("\n") + "\n");
  };
  const tree = build("");
  const sha = git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", tree, "-m", "files"]);
  return { gitDir, sha };
}

const LIMITS = { maxFiles: 10, maxFileBytes: 100, maxTotalBytes: 10_000 };

describe("GitWorkspace", () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  test("lists regular files with their modes; links and submodules are not files; blobs are read on demand", async () => {
    const { gitDir, sha } = bareRepo([
      { path: "src/a.ts", mode: "100644", content: "export const a = 1;\n" },
      { path: "bin/run.sh", mode: "100755", content: "#!/bin/sh\n" },
      { path: "link", mode: "120000", content: "/etc/passwd" },
      { path: "vendor/lib", mode: "160000", commit: "1111111111111111111111111111111111111111" },
      { path: "img.png", mode: "100644", content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) },
      { path: "big.ts", mode: "100644", content: "x".repeat(101) },
      { path: ".github/workflows/ci.yml", mode: "100644", content: "on: push\n" },
    ]);
    made.push(gitDir);
    const workspace = new GitWorkspace(gitDir, sha, LIMITS);
    expect(await workspace.list()).toEqual([".github/workflows/ci.yml", "big.ts", "bin/run.sh", "img.png", "src/a.ts"]);
    expect(await workspace.readText("src/a.ts")).toBe("export const a = 1;\n");
    expect(await workspace.modeOf("bin/run.sh")).toBe("100755");
    expect(await workspace.modeOf("src/a.ts")).toBe("100644");
    await expect(workspace.readText("link")).rejects.toThrow("link does not exist at");
    await expect(workspace.readText("img.png")).rejects.toThrow("img.png is a binary file; resolve-bot leaves binary files alone.");
    await expect(workspace.readText("big.ts")).rejects.toThrow(
      "big.ts is 101 B, over the 100 B per-file limit; resolve-bot leaves it alone.",
    );
    // Many reads in flight at once come back each with its own bytes.
    const texts = await Promise.all(
      ["src/a.ts", "bin/run.sh", ".github/workflows/ci.yml", "src/a.ts"].map((file) => workspace.readText(file)),
    );
    expect(texts).toEqual(["export const a = 1;\n", "#!/bin/sh\n", "on: push\n", "export const a = 1;\n"]);
  });

  test("a repository over a limit is refused with the limit and what raises it", async () => {
    const { gitDir, sha } = bareRepo(
      Array.from({ length: 12 }, (_, index) => ({ path: `f${index}.ts`, mode: "100644", content: `${index}\n` })),
    );
    made.push(gitDir);
    const files = new GitWorkspace(gitDir, sha, { ...LIMITS, raisedBy: { maxFiles: "RESOLVE_BOT_MAX_FILES" } });
    await expect(files.list()).rejects.toThrow(
      "The repository has 12 files, over the limit of 10 (raise it with RESOLVE_BOT_MAX_FILES); resolve-bot does not work on it.",
    );
    const bytes = new GitWorkspace(gitDir, sha, {
      ...LIMITS,
      maxFiles: 100,
      maxTotalBytes: 20,
      raisedBy: { maxTotalBytes: "RESOLVE_BOT_MAX_TOTAL_BYTES" },
    });
    await expect(bytes.list()).rejects.toThrow(
      `The repository at ${sha.slice(0, 7)} is 26 B, over the 20 B limit (raise it with RESOLVE_BOT_MAX_TOTAL_BYTES).`,
    );
  });

  test("a large file comes back whole (answers span many pipe reads)", async () => {
    const large = Array.from({ length: 40_000 }, (_, index) => `line ${index}\n`).join("");
    const { gitDir, sha } = bareRepo([
      { path: "large.txt", mode: "100644", content: large },
      { path: "small.txt", mode: "100644", content: "small\n" },
    ]);
    made.push(gitDir);
    const workspace = new GitWorkspace(gitDir, sha, { ...LIMITS, maxFileBytes: 1024 * 1024, maxTotalBytes: 1024 * 1024 });
    const [first, second] = await Promise.all([workspace.readText("large.txt"), workspace.readText("small.txt")]);
    expect(first).toBe(large);
    expect(second).toBe("small\n");
  });

  test("filesHoldingAll: the files holding every needle, byte for byte, binary ones too; files over the per-file limit always; undefined for what git grep cannot search", async () => {
    const { gitDir, sha } = bareRepo([
      { path: "src/a.ts", mode: "100644", content: "Effect.succeed(1)\n" },
      { path: "src/split.ts", mode: "100644", content: "// Effect\nsucceed\n" },
      { path: "src/case.ts", mode: "100644", content: "effect.SUCCEED(1)\n" },
      { path: "src/one.ts", mode: "100644", content: "Effect only\n" },
      { path: "données/é.ts", mode: "100644", content: "Effect.succeed(2)\n" },
      { path: "blob.bin", mode: "100644", content: Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from("Effect succeed")]) },
      { path: "big.ts", mode: "100644", content: "x".repeat(101) },
      { path: "link", mode: "120000", content: "Effect succeed" },
    ]);
    made.push(gitDir);
    const workspace = new GitWorkspace(gitDir, sha, LIMITS);
    const sorted = async (needles: string[]) => {
      const found = await workspace.filesHoldingAll(needles);
      return found === undefined ? undefined : [...found].sort();
    };
    // Every needle somewhere in the file, not on one line; the over-limit file is kept so that reading it says why it is skipped.
    expect(await sorted(["Effect", "succeed"])).toEqual(["big.ts", "blob.bin", "données/é.ts", "src/a.ts", "src/split.ts"]);
    expect(await sorted(["Effect.succeed(", ""])).toEqual(["big.ts", "données/é.ts", "src/a.ts"]);
    expect(await sorted(["nowhere"])).toEqual(["big.ts"]);
    // Within paths (literal: `*` is a character of a name here, as in the listing).
    expect([...(await workspace.filesHoldingAll(["Effect"], ["src", "données"]))!].sort()).toEqual(
      ["données/é.ts", "src/a.ts", "src/split.ts", "src/one.ts"].sort(),
    );
    expect([...(await workspace.filesHoldingAll(["Effect"], ["src/a.ts"]))!]).toEqual(["src/a.ts"]);
    expect([...(await workspace.filesHoldingAll(["Effect"], ["s*"]))!]).toEqual([]);
    expect([...(await workspace.filesHoldingAll(["nowhere"], [".", "src"]))!]).toEqual(["big.ts"]);
    expect(await sorted(["a\nb"])).toBeUndefined();
    expect(await sorted([])).toBeUndefined();
    expect(await sorted([""])).toBeUndefined();
  });
});
