import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { TarballWorkspace } from "../../../../src/forges/github/files/tarball-workspace.js";

type Entry = { name: string; content?: string; type?: "file" | "symlink" | "directory"; mode?: number; linkname?: string };

async function tarGz(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const entry of entries) {
    if (entry.type === "symlink" || entry.type === "directory")
      pack.entry({ name: entry.name, type: entry.type, linkname: entry.linkname });
    else pack.entry({ name: entry.name, mode: entry.mode ?? 0o644 }, entry.content ?? "");
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

const LIMITS = { maxFiles: 5, maxFileBytes: 100, maxTotalBytes: 1_000 };
const TOP = "acme-widgets-abc1234/";

describe("TarballWorkspace", () => {
  test("strips the top folder, keeps executables' mode, drops links and escaping paths", async () => {
    const archive = await tarGz([
      { name: TOP, type: "directory" },
      { name: `${TOP}src/a.ts`, content: "a" },
      { name: `${TOP}bin/run.sh`, content: "#!/bin/sh\n", mode: 0o755 },
      { name: `${TOP}link`, type: "symlink", linkname: "/etc/passwd" },
      { name: `${TOP}../../evil.ts`, content: "x" },
      { name: `${TOP}.git/config`, content: "x" },
    ]);
    const workspace = await TarballWorkspace.fromTarGz(archive, "abc1234", LIMITS);
    expect(await workspace.list()).toEqual(["bin/run.sh", "src/a.ts"]);
    expect(await workspace.readText("src/a.ts")).toBe("a");
    expect(await workspace.modeOf("bin/run.sh")).toBe("100755");
    expect(await workspace.modeOf("src/a.ts")).toBe("100644");
  });

  test("a file over the per-file limit is listed but reads say why", async () => {
    const archive = await tarGz([{ name: `${TOP}big.txt`, content: "x".repeat(150) }]);
    const workspace = await TarballWorkspace.fromTarGz(archive, "abc1234", LIMITS);
    await expect(workspace.readText("big.txt")).rejects.toThrow(
      "big.txt is 150 B, over the 100 B per-file limit; resolve-bot leaves it alone.",
    );
  });

  test("too many files or too many bytes are clear errors", async () => {
    const many = Array.from({ length: 6 }, (_, index) => ({ name: `${TOP}f${index}.txt`, content: "x" }));
    await expect(TarballWorkspace.fromTarGz(await tarGz(many), "abc1234", LIMITS)).rejects.toThrow(
      "The repository has more than 5 files, over the limit; resolve-bot does not work on it.",
    );
    const heavy = Array.from({ length: 4 }, (_, index) => ({ name: `${TOP}f${index}.txt`, content: "x".repeat(90) }));
    await expect(TarballWorkspace.fromTarGz(await tarGz(heavy), "abc1234", { ...LIMITS, maxTotalBytes: 300 })).rejects.toThrow(
      "The repository at abc1234 is 360 B, over the 300 B limit.",
    );
    // A decompression bomb stops at gunzip, long before the entries are read.
    const bomb = Array.from({ length: 3 }, (_, index) => ({ name: `${TOP}z${index}.txt`, content: "0".repeat(2_000_000) }));
    await expect(
      TarballWorkspace.fromTarGz(await tarGz(bomb), "abc1234", { maxFiles: 5, maxFileBytes: 10, maxTotalBytes: 10 }),
    ).rejects.toThrow("The repository at abc1234 is larger than the 10 B limit.");
  });

  test("limits larger than one buffer can be (a big machine's) still read a tarball", async () => {
    const archive = await tarGz([{ name: `${TOP}src/a.ts`, content: "a" }]);
    const huge = { maxFiles: 1_500_000, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 ** 3 };
    const workspace = await TarballWorkspace.fromTarGz(archive, "abc1234", huge);
    expect(await workspace.readText("src/a.ts")).toBe("a");
  });
});
