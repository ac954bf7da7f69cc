import { realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DirectoryWorkspace } from "../../../src/forges/local/directory-workspace.js";
import { defaultLimits } from "../../../src/workspace/limits.js";
import { makeRepo } from "../../helpers/git-repo.js";

describe("DirectoryWorkspace reads", () => {
  let root: string;

  beforeEach(() => {
    root = realpathSync(
      makeRepo({
        "big.ts": `${"x".repeat(200_000)}\n`,
        "small.ts": "short\n",
        "unicode.ts": "const s = 'héllo wörld ✓';\n",
        "image.bin": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 0, 0xff]),
        "gone.ts": "soon gone\n",
      }),
    );
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("texts read one after another are each exactly their file (the read buffer is reused)", async () => {
    const ws = new DirectoryWorkspace(root, "working tree");
    expect((await ws.readText("big.ts")).length).toBe(200_001);
    expect(await ws.readText("small.ts")).toBe("short\n");
    expect(await ws.readText("unicode.ts")).toBe("const s = 'héllo wörld ✓';\n");
    expect(await ws.tryReadTextIf("unicode.ts", (bytes) => Buffer.from(bytes).includes("wörld"))).toEqual({
      path: "unicode.ts",
      text: "const s = 'héllo wörld ✓';\n",
    });
    expect(await ws.tryReadTextIf("small.ts", (bytes) => Buffer.from(bytes).includes("wörld"))).toBeUndefined();
    const bytes = await ws.readBytes("small.ts");
    await ws.readText("big.ts");
    expect(Buffer.from(bytes).toString("utf8")).toBe("short\n"); // not overwritten by the next read
  });

  test("binary, over-limit, replaced-by-a-link and deleted files come back with the reason", async () => {
    const ws = new DirectoryWorkspace(root, "working tree", { ...defaultLimits(), maxFileBytes: 100_000 });
    await ws.list();
    unlinkSync(path.join(root, "gone.ts"));
    unlinkSync(path.join(root, "small.ts"));
    writeFileSync(path.join(root, "elsewhere.ts"), "secret\n");
    symlinkSync(path.join(root, "elsewhere.ts"), path.join(root, "small.ts"));
    expect(await ws.tryReadText("image.bin")).toEqual({
      path: "image.bin",
      skipped: "image.bin is a binary file; resolve-bot leaves binary files alone.",
    });
    expect(await ws.tryReadText("big.ts")).toEqual({
      path: "big.ts",
      skipped:
        "big.ts is 195.3 KB, over the 97.7 KB per-file limit (raise it with RESOLVE_BOT_MAX_FILE_BYTES); resolve-bot leaves it alone.",
    });
    expect(await ws.tryReadText("small.ts")).toEqual({ path: "small.ts", skipped: "small.ts is not a regular file." });
    expect(await ws.tryReadText("gone.ts")).toEqual({ path: "gone.ts", skipped: "gone.ts is not a regular file." });
    expect(await ws.tryReadText("nope.ts")).toEqual({ path: "nope.ts", skipped: "nope.ts does not exist at working tree." });
  });
});
