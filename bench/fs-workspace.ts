/**
 * A workspace over a plain directory (no git), read from the file system like the ast-grep CLI
 * reads it: the bench's stand-in for DirectoryWorkspace (which needs `git ls-files`).
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Workspace } from "../src/workspace/workspace.js";
import { DEFAULT_LIMITS } from "../src/workspace/limits.js";

/** Every regular file below `root`, posix and relative, unsorted. */
export async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) await visit(child);
        else if (entry.isFile()) out.push(child);
      }),
    );
  };
  await visit("");
  return out;
}

export class FsWorkspace extends Workspace {
  readonly revision: string;

  constructor(readonly root: string) {
    // The corpora are bigger than a repository's default limits allow (20,000 files / 200 MB is fine; keep them).
    super({ ...DEFAULT_LIMITS });
    this.revision = `dir:${path.basename(root)}`;
  }

  protected listAll(): Promise<string[]> {
    return walk(this.root);
  }

  protected async sizeOf(file: string): Promise<number | undefined> {
    try {
      const stats = await stat(path.join(this.root, file));
      return stats.isFile() ? stats.size : undefined;
    } catch {
      return undefined;
    }
  }

  protected readRaw(file: string): Promise<Uint8Array> {
    return readFile(path.join(this.root, file));
  }
}
