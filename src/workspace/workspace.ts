/**
 * The files of a repository at one revision, read lazily. Tools only ever read through this;
 * writes go to a ChangeSet (see changeset.ts).
 */
import picomatch from "picomatch";
import { isBinaryFileSync } from "isbinaryfile";
import { UserError } from "../errors.js";
import { normalizePath, normalizeScope, withinScope } from "./paths.js";
import { defaultLimits, formatBytes, raiseHint, type WorkspaceLimits } from "./limits.js";
import type { ChangeSet } from "./changeset.js";

/**
 * What reverting a commit onto a workspace's revision gives (as `git revert` would): the change
 * to these files, or the files where it conflicts with what came after the commit.
 */
export type Revert = { commit: string; subject: string; changes: ChangeSet } | { commit: string; subject: string; conflicts: string[] };

export type TextRead = { path: string; text: string } | { path: string; skipped: string };

/**
 * Where an on-disk workspace's files lie, so that a program may read them there instead of
 * copies (the ast-grep CLI walks the directory: ast-grep/in-place.ts).
 */
export interface OnDisk {
  /** The directory holding every listed file at its listed path (unlisted files may lie there too). */
  root: string;
  /**
   * When `path` was last modified (ms since the epoch) as the workspace's last read of it found
   * it; undefined before a read. A reader that read the file at another time uses it to tell
   * whether both reads saw the same bytes.
   */
  modifiedAt(path: string): number | undefined;
  /** The files cannot change while a run reads them (a checkout made for it): no modification times to compare. */
  fixed?: boolean;
  /**
   * Puts the files on disk for one run (a checkout), gone after `release`; absent when they lie
   * there already. A failure means the run reads nothing in place.
   */
  open?(): Promise<{ release(): Promise<void> }>;
}

export abstract class Workspace {
  private listing?: Promise<string[]>;
  private fileSet?: Promise<Set<string>>;

  constructor(readonly limits: WorkspaceLimits = defaultLimits()) {}

  /**
   * The files of the repository's default branch, where trusted configuration lives (the ast-grep
   * project /ast-fix applies): set by the front end that made this workspace; never the PR's files.
   */
  defaultBranch?: () => Promise<Workspace>;

  /**
   * `git revert <commit>` onto this revision, for undo (git-revert.ts): set by the front end that
   * made this workspace when it has the repository's git objects (the repository cache, a checkout).
   */
  revert?: (commit: string) => Promise<Revert>;

  /** What the files are: a commit SHA, or a description such as "working tree". */
  abstract readonly revision: string;
  /** Every file path, posix and relative to the root. Called once per workspace. */
  protected abstract listAll(): Promise<string[]>;
  /**
   * The bytes of a listed file (normalised path). Refuses, with a UserError, what is not a regular
   * file (notRegularFile) or is over the per-file limit (checkSize).
   */
  protected abstract readListedFile(normal: string): Promise<Uint8Array>;

  /**
   * The listed files in `scopes` (paths of files or directories, "." for all) that may hold every
   * one of `needles` (bytes, no line breaks), found without handing each file to the caller: a
   * superset of those that do (files over the per-file limit are in it, so that reading them says
   * why they are skipped). Undefined where that would cost what reading every file costs (the
   * default).
   */
  async filesHoldingAll(_needles: readonly string[], _scopes: readonly string[] = ["."]): Promise<ReadonlySet<string> | undefined> {
    return undefined;
  }

  /** Where the files lie on disk; undefined for workspaces held in memory. */
  onDisk(): OnDisk | undefined {
    return undefined;
  }

  /** Git file mode of a file; workspaces that know executables override this. */
  async modeOf(_path: string): Promise<"100644" | "100755"> {
    return "100644";
  }

  /** All files, sorted. */
  list(): Promise<string[]> {
    this.listing ??= this.listAll().then((paths) => {
      if (paths.length > this.limits.maxFiles) {
        throw new UserError(
          `The repository has ${paths.length} files, over the limit of ${this.limits.maxFiles}${raiseHint(this.limits, "maxFiles")}; resolve-bot does not work on it.`,
        );
      }
      return [...paths].sort();
    });
    return this.listing;
  }

  async exists(path: string): Promise<boolean> {
    return (await this.listedSet()).has(normalizePath(path));
  }

  private listedSet(): Promise<Set<string>> {
    this.fileSet ??= this.list().then((paths) => new Set(paths));
    return this.fileSet;
  }

  /** True when some file lies below this directory. */
  async isDirectory(path: string): Promise<boolean> {
    const scope = normalizeScope(path);
    if (scope === ".") return true;
    const prefix = `${scope}/`;
    return (await this.list()).some((file) => file.startsWith(prefix));
  }

  /**
   * Files named by each pattern: a file, a directory (every file below it), or a glob.
   * Returns each pattern's matches so callers can report patterns that match nothing.
   */
  async resolvePatterns(patterns: readonly string[]): Promise<{ files: string[]; unmatched: string[] }> {
    const all = await this.list();
    const matched = new Set<string>();
    const unmatched: string[] = [];
    for (const pattern of patterns) {
      const hits = this.matchPattern(all, pattern);
      for (const hit of hits) matched.add(hit);
      if (hits.length === 0) unmatched.push(pattern);
    }
    return { files: all.filter((file) => matched.has(file)), unmatched };
  }

  private matchPattern(all: string[], pattern: string): string[] {
    if (picomatch.scan(pattern).isGlob) {
      const cleaned = pattern.replace(/\\/g, "/").replace(/^\.\//, "");
      if (cleaned.startsWith("/") || cleaned.split("/").includes("..")) normalizePath(cleaned); // throws the path error
      const isMatch = picomatch(cleaned, { dot: true });
      return all.filter((file) => isMatch(file) && !file.startsWith(".git/"));
    }
    const scope = normalizeScope(pattern);
    return all.filter((file) => withinScope(file, scope));
  }

  /** The bytes of a file; a missing or over-limit file is a UserError. */
  async readBytes(path: string): Promise<Uint8Array> {
    const normal = normalizePath(path);
    await this.mustExist(normal);
    return this.readListedFile(normal);
  }

  private async mustExist(normal: string): Promise<void> {
    if (!(await this.listedSet()).has(normal)) throw new UserError(`${normal} does not exist at ${this.revision}.`);
  }

  /** Throws the UserError for a file over the per-file limit. */
  protected checkSize(normal: string, size: number): void {
    if (size > this.limits.maxFileBytes) {
      throw new UserError(
        `${normal} is ${formatBytes(size)}, over the ${formatBytes(this.limits.maxFileBytes)} per-file limit${raiseHint(this.limits, "maxFileBytes")}; resolve-bot leaves it alone.`,
      );
    }
  }

  /** The text of a file; missing, binary and over-limit files are UserErrors naming the file. */
  async readText(path: string): Promise<string> {
    const result = await this.tryReadText(path);
    if ("skipped" in result) throw new UserError(result.skipped);
    return result.text;
  }

  /** Like readText, but a file that cannot be read as text comes back with the reason instead. */
  async tryReadText(path: string): Promise<TextRead> {
    return (await this.tryReadTextIf(path, () => true))!;
  }

  /**
   * Like tryReadText, but `wanted` sees the file's bytes first, and a file it turns down is not
   * decoded: undefined then. Decoding every file of a repository as a string only to rule most
   * of them out was most of a large scan's garbage (bench/README.md).
   */
  async tryReadTextIf(path: string, wanted: (bytes: Uint8Array) => boolean): Promise<TextRead | undefined> {
    const normal = normalizePath(path);
    let text: string | undefined | typeof UNWANTED;
    try {
      await this.mustExist(normal);
      text = await this.readListedTextIf(normal, wanted);
    } catch (error) {
      if (error instanceof UserError) return { path: normal, skipped: error.message };
      throw error;
    }
    if (text === UNWANTED) return undefined;
    if (text === undefined) return { path: normal, skipped: `${normal} is a binary file; resolve-bot leaves binary files alone.` };
    return { path: normal, text };
  }

  /**
   * The text of a listed file decoded as UTF-8, undefined when it is binary, or UNWANTED when
   * `wanted` turns its bytes down; refuses what readListedFile refuses. Workspaces that can
   * decode without keeping the bytes override this.
   */
  protected async readListedTextIf(normal: string, wanted: (bytes: Uint8Array) => boolean): Promise<string | undefined | typeof UNWANTED> {
    const bytes = await this.readListedFile(normal);
    return wanted(bytes) ? decodeText(bytes) : UNWANTED;
  }
}

/** What readListedTextIf returns for a file its `wanted` turned down. */
export const UNWANTED: unique symbol = Symbol("unwanted");

/** `bytes` decoded as UTF-8, or undefined when they are binary. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (isBinary(bytes)) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

export function notRegularFile(normal: string): UserError {
  return new UserError(`${normal} is not a regular file.`);
}

export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.byteLength === 0) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isBinaryFileSync(buffer, buffer.byteLength);
}

/** A workspace held in memory: tarball contents, tests. */
export class MemoryWorkspace extends Workspace {
  private readonly files: Map<string, Uint8Array>;

  constructor(
    files: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>,
    readonly revision = "memory",
    limits?: WorkspaceLimits,
  ) {
    super(limits);
    this.files = new Map();
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    for (const [path, content] of entries) {
      this.files.set(normalizePath(path), typeof content === "string" ? Buffer.from(content, "utf8") : content);
    }
  }

  protected async listAll(): Promise<string[]> {
    return [...this.files.keys()];
  }

  protected async readListedFile(path: string): Promise<Uint8Array> {
    const bytes = this.files.get(path);
    if (bytes === undefined) throw notRegularFile(path);
    this.checkSize(path, bytes.byteLength);
    return bytes;
  }
}
