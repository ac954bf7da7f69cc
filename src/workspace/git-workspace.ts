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
import { normalizeScope, safePath, withinScope } from "./paths.js";
import { GitFailure, runGit } from "./safe-git.js";
import { notRegularFile, Workspace, type OnDisk } from "./workspace.js";
import { checkOut, type CheckoutSpace } from "./checkout.js";
import { rm } from "node:fs/promises";

interface Entry {
  blob: string;
  size: number;
  executable: boolean;
}

export class GitWorkspace extends Workspace {
  /** The listing, read once (concurrent callers share the one `ls-tree`). */
  private entries?: Promise<Map<string, Entry>>;
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

  /**
   * `git grep` over the commit's blobs (threads, no checkout, nothing decoded here): on a big
   * repository most files lack a pattern's words, and reading each through `cat-file` only to
   * rule it out was most of a command's time (bench/README.md). Every blob is searched as text
   * (`-a`), byte for byte (`-F`, LC_ALL=C), so a file is left out only when it lacks a needle.
   */
  override async filesHoldingAll(needles: readonly string[], scopes: readonly string[] = ["."]): Promise<ReadonlySet<string> | undefined> {
    const wanted = needles.filter((needle) => needle !== "");
    // git grep matches within lines; a needle with a line break would match nowhere.
    if (wanted.length === 0 || wanted.some((needle) => /[\n\0]/.test(needle))) return undefined;
    const args = ["grep", "-l", "-z", "-a", "-F", "--all-match", "--no-color", ...wanted.flatMap((needle) => ["-e", needle])];
    const pathspecs = scopes.includes(".") ? [] : scopes.map(normalizeScope);
    const [entries, output] = await Promise.all([this.entryMap(), grepOutput(this.gitDir, [...args, this.revision, "--", ...pathspecs])]);
    const prefix = `${this.revision}:`;
    const found = new Set<string>();
    for (const name of output.toString("utf8").split("\0")) {
      if (!name.startsWith(prefix)) continue;
      const path = safePath(name.slice(prefix.length));
      if (path !== undefined && entries.has(path)) found.add(path);
    }
    for (const [path, entry] of entries) {
      if (entry.size > this.limits.maxFileBytes && (pathspecs.length === 0 || pathspecs.some((scope) => withinScope(path, scope))))
        found.add(path);
    }
    return found;
  }

  protected async listAll(): Promise<string[]> {
    return [...(await this.entryMap()).keys()];
  }

  private entryMap(): Promise<Map<string, Entry>> {
    this.entries ??= this.readEntries();
    return this.entries;
  }

  private async readEntries(): Promise<Map<string, Entry>> {
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
    return entries;
  }

  protected async readListedFile(path: string): Promise<Uint8Array> {
    const entry = (await this.entryMap()).get(path);
    if (entry === undefined) throw notRegularFile(path);
    this.checkSize(path, entry.size);
    return this.blobs.read(entry.blob);
  }
}

/** `git grep`'s output (paths given are paths, never patterns); it exits with 1 when nothing matched. */
async function grepOutput(gitDir: string, args: readonly string[]): Promise<Buffer> {
  try {
    return await runGit(gitDir, args, { env: { GIT_LITERAL_PATHSPECS: "1" } });
  } catch (error) {
    if (error instanceof GitFailure && error.code === 1 && error.stderr === "") return Buffer.alloc(0);
    throw error;
  }
}
