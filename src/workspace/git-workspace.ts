/**
 * The files of one commit of a repository on disk (a bare repository of the git cache), read
 * lazily: one `git ls-tree -r -z -l` lists every file with its size (limits are checked on sizes,
 * before anything is read), and each read is one blob from `git cat-file --batch`. Nothing is
 * checked out but for a run that reads files in place (onDisk), and nothing from the repository
 * is run. Symbolic links and submodules are not
 * regular files here (as in the tarball), and paths that would leave the workspace are dropped.
 */
import { UserError } from "../errors.js";
import { BlobReader } from "./blob-reader.js";
import { formatBytes, raiseHint, type WorkspaceLimits } from "./limits.js";
import { normalizePath } from "./paths.js";
import { runGit } from "./safe-git.js";
import { notRegularFile, Workspace, type OnDisk } from "./workspace.js";
import { checkOut, type CheckoutSpace } from "./checkout.js";
import { rm } from "node:fs/promises";

interface Entry {
  blob: string;
  size: number;
  executable: boolean;
}

export class GitWorkspace extends Workspace {
  private entries?: Map<string, Entry>;
  private readonly blobs: BlobReader;

  /**
   * `commit` must be in `gitDir` with its tree and blobs (GitCache.commit saw to it). With
   * `checkouts`, a program that reads files in place gets a checkout of the commit for its run.
   */
  constructor(
    private readonly gitDir: string,
    readonly revision: string,
    limits: WorkspaceLimits,
    private readonly checkouts?: CheckoutSpace,
  ) {
    super(limits);
    this.blobs = new BlobReader(gitDir);
  }

  /** Bytes of every listed file together (after list()). */
  totalBytes = 0;

  override async modeOf(path: string): Promise<"100644" | "100755"> {
    return (await this.entryMap()).get(path)?.executable ? "100755" : "100644";
  }

  /**
   * A directory for one run (ast-grep/in-place.ts), checked out when the run opens it, within the
   * cache's disk budget (its bytes reserved there for the run; else the run reads nothing in place
   * and the files are copied as before), and removed when the run ends or its checkout fails.
   * Nobody writes there, so the files are the blobs read here.
   */
  override onDisk(): OnDisk | undefined {
    const space = this.checkouts;
    if (space === undefined) return undefined;
    const root = space.directory();
    return {
      root,
      modifiedAt: () => undefined,
      fixed: true,
      open: async () => {
        const entries = await this.entryMap();
        const reservation = await space.reserve(root, this.totalBytes);
        if (reservation === undefined) throw new Error("a checkout would not fit within the cache's disk budget");
        // The bytes stay reserved until the directory is gone, so no other run counts them out early.
        const release = async () => {
          try {
            await rm(root, { recursive: true, force: true });
          } finally {
            await reservation.release();
          }
        };
        try {
          await checkOut(
            this.gitDir,
            [...entries].map(([path, entry]) => ({ path, ...entry })),
            root,
          );
        } catch (error) {
          await release();
          throw error;
        }
        return { release };
      },
    };
  }

  protected async listAll(): Promise<string[]> {
    return [...(await this.entryMap()).keys()];
  }

  private async entryMap(): Promise<Map<string, Entry>> {
    if (this.entries) return this.entries;
    const output = await runGit(this.gitDir, ["ls-tree", "-r", "-z", "-l", "--full-tree", this.revision]);
    const entries = new Map<string, Entry>();
    let total = 0;
    for (const record of output.toString("utf8").split("\0")) {
      // <mode> SP <type> SP <object> SP+ <size> TAB <path>
      const match = /^(\d{6}) (\w+) ([0-9a-f]+) +(\d+|-)\t([^]*)$/.exec(record);
      if (!match || match[2] !== "blob" || (match[1] !== "100644" && match[1] !== "100755")) continue;
      const path = safePath(match[5]!);
      if (path === undefined) continue;
      const size = Number(match[4]);
      total += size;
      entries.set(path, { blob: match[3]!, size, executable: match[1] === "100755" });
    }
    if (total > this.limits.maxTotalBytes) {
      throw new UserError(
        `The repository at ${this.revision.slice(0, 7)} is ${formatBytes(total)}, over the ${formatBytes(this.limits.maxTotalBytes)} limit${raiseHint(this.limits, "maxTotalBytes")}.`,
      );
    }
    this.totalBytes = total;
    this.entries = entries;
    return entries;
  }

  protected async readListedFile(path: string): Promise<Uint8Array> {
    const entry = (await this.entryMap()).get(path);
    if (entry === undefined) throw notRegularFile(path);
    this.checkSize(path, entry.size);
    return this.blobs.read(entry.blob);
  }
}

/** Paths that would leave the workspace are dropped, never followed. */
function safePath(path: string): string | undefined {
  try {
    return normalizePath(path);
  } catch {
    return undefined;
  }
}
