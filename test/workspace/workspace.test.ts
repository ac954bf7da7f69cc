import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { normalizePath } from "../../src/workspace/paths.js";
import { ChangeSet } from "../../src/workspace/changeset.js";
import { renderDiff } from "../../src/workspace/diff.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";

describe("paths are confined to the workspace", () => {
  test.each([
    ["../etc/passwd", 'Path "../etc/passwd" leaves the repository ("..").'],
    ["src/../../x", 'Path "src/../../x" leaves the repository ("..").'],
    ["/etc/passwd", 'Path "/etc/passwd" is absolute; use a path relative to the repository root.'],
    ["C:\\x", 'Path "C:\\\\x" is absolute; use a path relative to the repository root.'],
    [".git/config", 'Path ".git/config" is inside .git/, which resolve-bot never touches.'],
    ["./.git", 'Path "./.git" is inside .git/, which resolve-bot never touches.'],
    ["", "A path is empty."],
  ])("%s is refused", (input, message) => {
    expect(() => normalizePath(input)).toThrow(message);
  });

  test("ordinary paths are normalised", () => {
    expect(normalizePath("./src//a.ts")).toBe("src/a.ts");
    expect(normalizePath("src\\b.ts")).toBe("src/b.ts");
    expect(normalizePath("dir/")).toBe("dir");
  });
});

describe("Workspace", () => {
  const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 0, 3]);
  const ws = new MemoryWorkspace(
    { "src/a.ts": "a", "src/b/c.ts": "c", "img/logo.png": binary, "big.txt": "x".repeat(2048), "README.md": "r" },
    "rev",
    { maxFiles: 10, maxFileBytes: 1024, maxTotalBytes: 4096 },
  );

  test("patterns: file, directory, glob, and the unmatched ones", async () => {
    expect(await ws.resolvePatterns(["src/b", "*.md", "src/a.ts", "nope/"])).toEqual({
      files: ["README.md", "src/a.ts", "src/b/c.ts"],
      unmatched: ["nope/"],
    });
    expect((await ws.resolvePatterns(["**/*.ts"])).files).toEqual(["src/a.ts", "src/b/c.ts"]);
    await expect(ws.resolvePatterns(["../**/*.ts"])).rejects.toThrow('leaves the repository ("..")');
  });

  test("binary and over-limit files are left alone with a clear reason", async () => {
    expect(await ws.tryReadText("img/logo.png")).toEqual({
      path: "img/logo.png",
      skipped: "img/logo.png is a binary file; resolve-bot leaves binary files alone.",
    });
    await expect(ws.readText("big.txt")).rejects.toThrow("big.txt is 2 KB, over the 1 KB per-file limit; resolve-bot leaves it alone.");
    await expect(ws.readText("missing.ts")).rejects.toThrow("missing.ts does not exist at rev.");
  });

  test("tryReadTextIf: the bytes are shown first, and a file turned down is not decoded; limits still speak", async () => {
    const seen: string[] = [];
    const wantsA = (bytes: Uint8Array) => {
      seen.push(Buffer.from(bytes).toString("utf8"));
      return bytes.includes(0x61);
    };
    expect(await ws.tryReadTextIf("src/a.ts", wantsA)).toEqual({ path: "src/a.ts", text: "a" });
    expect(await ws.tryReadTextIf("src/b/c.ts", wantsA)).toBeUndefined();
    expect(seen).toEqual(["a", "c"]);
    expect(await ws.tryReadTextIf("big.txt", () => true)).toEqual({
      path: "big.txt",
      skipped: "big.txt is 2 KB, over the 1 KB per-file limit; resolve-bot leaves it alone.",
    });
    expect(await ws.tryReadTextIf("img/logo.png", () => true)).toEqual({
      path: "img/logo.png",
      skipped: "img/logo.png is a binary file; resolve-bot leaves binary files alone.",
    });
  });

  test("too many files is an error naming the limit", async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`f${index}.txt`, ""]));
    await expect(new MemoryWorkspace(many, "r", { maxFiles: 10, maxFileBytes: 10, maxTotalBytes: 10 }).list()).rejects.toThrow(
      "The repository has 11 files, over the limit of 10; resolve-bot does not work on it.",
    );
  });

  test("change sets refuse escaping paths, .git and over-limit writes, staging nothing", async () => {
    const changes = new ChangeSet(ws);
    await expect(changes.write("../x", "y")).rejects.toThrow('leaves the repository ("..")');
    await expect(changes.write(".git/hooks/pre-commit", "y")).rejects.toThrow("inside .git/");
    await expect(changes.write("/tmp/x", "y")).rejects.toThrow("is absolute");
    await expect(changes.write("new.txt", "x".repeat(1025))).rejects.toThrow("Writing new.txt (1 KB) is over the 1 KB per-file limit.");
    await expect(changes.rename("src/a.ts", "README.md")).rejects.toThrow("Cannot rename src/a.ts to README.md: README.md already exists.");
    expect(changes.isEmpty).toBe(true);
  });
});

describe("ChangeSet and diffs", () => {
  const ws = new MemoryWorkspace(
    { "a.txt": "1\n2\n3\n", "old/name.ts": "export const x = 1;\n", "gone.txt": "bye\n", "same.txt": "s\n" },
    "rev",
  );

  async function sample(): Promise<ChangeSet> {
    const changes = new ChangeSet(ws);
    await changes.write("a.txt", "1\ntwo\n3\n");
    await changes.rename("old/name.ts", "new/name.ts");
    await changes.delete("gone.txt");
    await changes.write("added.txt", "new\n");
    await changes.write("same.txt", "s\n"); // a no-op write is dropped from the net change
    return changes;
  }

  test("net changes are sorted, renames keep their source, no-ops are dropped", async () => {
    const net = await (await sample()).resolveChanges();
    expect(net.map((change) => [change.kind, change.path, change.kind === "rename" ? change.from : ""])).toEqual([
      ["write", "a.txt", ""],
      ["write", "added.txt", ""],
      ["delete", "gone.txt", ""],
      ["rename", "new/name.ts", "old/name.ts"],
    ]);
  });

  test("fingerprints are equal for equal changes and name the differing file", async () => {
    const [one, two] = [await (await sample()).fingerprint(), await (await sample()).fingerprint()];
    expect(one).toEqual(two);
    const other = await sample();
    await other.write("a.txt", "1\nTWO\n3\n");
    const three = await other.fingerprint();
    expect(three.digest).not.toBe(one.digest);
    expect(Object.keys(three.files).filter((file) => three.files[file] !== one.files[file])).toEqual(["a.txt"]);
  });

  test("the diff is in git's format: `git apply` reproduces the change exactly", async () => {
    const diff = await renderDiff(await sample());
    expect(diff).toContain("diff --git a/old/name.ts b/new/name.ts\nrename from old/name.ts\nrename to new/name.ts\n");
    expect(diff).toContain(
      "diff --git a/added.txt b/added.txt\nnew file mode 100644\n--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1 @@\n+new\n",
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), "diff-"));
    for (const [file, content] of Object.entries({
      "a.txt": "1\n2\n3\n",
      "old/name.ts": "export const x = 1;\n",
      "gone.txt": "bye\n",
      "same.txt": "s\n",
    })) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), content);
    }
    execFileSync("git", ["init", "-q"], { cwd: dir });
    writeFileSync(path.join(dir, "change.diff"), diff);
    execFileSync("git", ["apply", "change.diff"], { cwd: dir });
    expect(readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("1\ntwo\n3\n");
    expect(readFileSync(path.join(dir, "new/name.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(readFileSync(path.join(dir, "added.txt"), "utf8")).toBe("new\n");
    expect(() => readFileSync(path.join(dir, "gone.txt"))).toThrow();
    expect(() => readFileSync(path.join(dir, "old/name.ts"))).toThrow();
  });
});
