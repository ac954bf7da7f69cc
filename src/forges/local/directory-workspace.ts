/**
 * The files of a local checkout: what git would track (tracked plus untracked-not-ignored),
 * read from the work tree. Symbolic links and anything that resolves outside the root are
 * not regular files here, so nothing is read through them.
 *
 * Reads are synchronous: this workspace serves the local command line (one command per process),
 * and for files in the page cache a tight loop of `lstatSync`/`readFileSync` is several times
 * faster than the same calls through `fs.promises` (each of those is a round trip through libuv's
 * thread pool, and `readFile` adds an `fstat` and chunked reads): on 3,124 files, ≈ 45 ms against
 * ≈ 220 ms (see bench/README.md).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { UserError } from "../../errors.js";
import { decodeText, notRegularFile, UNWANTED, Workspace, type OnDisk } from "../../workspace/workspace.js";
import type { WorkspaceLimits } from "../../workspace/limits.js";
import { git } from "./git.js";

/**
 * Opening fails on a symbolic link (ELOOP) where the platform has O_NOFOLLOW; O_NONBLOCK keeps
 * opening a FIFO from waiting for a writer (it is then refused as not a regular file).
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export class DirectoryWorkspace extends Workspace {
  /**
   * Directories below the root (relative; "" is the root) by whether they are real directories
   * reached through real directories only, i.e. no symbolic link on the way. Each is checked once.
   */
  private readonly realDirectories = new Map<string, boolean>([["", true]]);

  /** `root` must be a canonical path (realpath): paths below it are checked component by component. */
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
    return paths.filter((file) => this.isRegularFile(file));
  }

  /**
   * Whether `file` is a regular file (not a symbolic link) whose directories are real directories
   * below the root (none is a symbolic link): then its real path is root/file, inside the root.
   * This is what `realpath(file)` inside the root guarantees, with one `lstat` per file and one
   * per directory instead of a `realpath` (a `lstat` per component) per file.
   */
  private isRegularFile(file: string): boolean {
    const slash = file.lastIndexOf("/");
    if (slash >= 0 && !this.isRealDirectory(file.slice(0, slash))) return false;
    try {
      return lstatSync(path.join(this.root, file)).isFile();
    } catch {
      return false;
    }
  }

  private isRealDirectory(dir: string): boolean {
    const known = this.realDirectories.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf("/");
    let real = slash < 0 || this.isRealDirectory(dir.slice(0, slash));
    if (real) {
      try {
        real = lstatSync(path.join(this.root, dir)).isDirectory();
      } catch {
        real = false;
      }
    }
    this.realDirectories.set(dir, real);
    return real;
  }

  /**
   * One `open` + `fstat` instead of a `lstat` and then an `open`: no second walk of the path, and
   * what is checked is the file that is read.
   */
  protected async readListedFile(file: string): Promise<Uint8Array> {
    return this.withListedFile(file, (bytes) => new Uint8Array(bytes)); // a copy: the buffer is reused
  }

  /**
   * Decoded straight from a buffer reused from file to file: reading thousands of files then
   * allocates no buffer per file, which on large scans saves a good part of the garbage
   * collector's work (see bench/README.md).
   */
  protected override async readListedTextIf(
    file: string,
    wanted: (bytes: Uint8Array) => boolean,
  ): Promise<string | undefined | typeof UNWANTED> {
    return this.withListedFile(file, (bytes) => (wanted(bytes) ? decodeText(bytes) : UNWANTED));
  }

  private scratch = Buffer.alloc(0);
  /** Each read file's modification time as its last read found it (OnDisk.modifiedAt). */
  private readonly modified = new Map<string, number>();

  override onDisk(): OnDisk | undefined {
    return { root: this.root, modifiedAt: (file) => this.modified.get(file) };
  }

  /** Checks and reads `file` into the scratch buffer, and hands `use` its bytes (valid only during the call). */
  private withListedFile<T>(file: string, use: (bytes: Buffer) => T): T {
    const slash = file.lastIndexOf("/");
    if (slash >= 0 && !this.isRealDirectory(file.slice(0, slash))) throw notRegularFile(file);
    let fd: number;
    try {
      fd = openSync(path.join(this.root, file), READ_FLAGS);
    } catch {
      throw notRegularFile(file); // a symbolic link (ELOOP), or gone
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw notRegularFile(file);
      this.checkSize(file, stats.size);
      // One byte more than the size: a file that grew since fstat is read no further than that.
      if (this.scratch.length < stats.size + 1) this.scratch = Buffer.allocUnsafe(Math.max(stats.size + 1, 64 * 1024));
      let length = 0;
      for (let read = -1; read !== 0 && length <= stats.size; length += read) {
        read = readSync(fd, this.scratch, length, this.scratch.length - length, null);
      }
      if (length > stats.size) throw new UserError(`${file} changed while it was being read; run the command again.`);
      this.modified.set(file, stats.mtimeMs);
      return use(this.scratch.subarray(0, length));
    } finally {
      closeSync(fd);
    }
  }
}
