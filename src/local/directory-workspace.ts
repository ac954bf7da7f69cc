/**
 * The files of a local checkout: what git would track (tracked plus untracked-not-ignored),
 * read from the work tree. Symbolic links and anything that resolves outside the root are
 * not regular files here, so nothing is read through them.
 */
import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { Workspace } from "../workspace/workspace.js";
import type { WorkspaceLimits } from "../workspace/limits.js";
import { git } from "./git.js";

export class DirectoryWorkspace extends Workspace {
  constructor(
    readonly root: string,
    readonly revision: string,
    limits?: WorkspaceLimits,
  ) {
    super(limits);
  }

  protected async listAll(): Promise<string[]> {
    const output = await git(this.root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate"]);
    const paths = output.split("\0").filter(Boolean);
    // Deleted-but-tracked files are listed by --cached; keep only what exists on disk.
    const present = await Promise.all(paths.map(async (file) => ((await this.sizeOf(file)) === undefined ? undefined : file)));
    return present.filter((file): file is string => file !== undefined);
  }

  protected async sizeOf(file: string): Promise<number | undefined> {
    const absolute = path.join(this.root, file);
    try {
      const stats = await lstat(absolute);
      if (!stats.isFile()) return undefined;
      const real = await realpath(absolute);
      if (!real.startsWith(this.root + path.sep)) return undefined;
      return stats.size;
    } catch {
      return undefined;
    }
  }

  protected async readRaw(file: string): Promise<Uint8Array> {
    return readFile(path.join(this.root, file));
  }
}
