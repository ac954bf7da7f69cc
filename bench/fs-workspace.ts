/**
 * A workspace over a plain directory (no git), read from the file system like the ast-grep CLI
 * reads it: DirectoryWorkspace's reading (which lists with `git ls-files`) over a walked listing.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { DirectoryWorkspace } from "../src/forges/local/directory-workspace.js";
import { defaultLimits } from "../src/workspace/limits.js";

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

/**
 * DirectoryWorkspace (the local front end's reading: `lstat` checks, synchronous reads, no reads
 * through symbolic links) over a directory listed by walking it instead of `git ls-files`.
 */
export class FsWorkspace extends DirectoryWorkspace {
  constructor(root: string) {
    // The machine's limits: the corpora are as big as the repositories they stand for.
    super(root, `dir:${path.basename(root)}`, { ...defaultLimits() });
  }

  /** Regular files only (walk skips symbolic links and does not descend into linked directories). */
  protected override listAll(): Promise<string[]> {
    return walk(this.root);
  }
}
