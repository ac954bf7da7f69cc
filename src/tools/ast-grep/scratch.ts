/**
 * A private temporary directory the ast-grep CLI reads files from, one directory per CLI run
 * (Batch). In /dev/shm when there is one (memory: the files are short-lived copies), else the
 * system's temp directory. Paths are workspace paths, already normalised (relative, no `..`), so
 * nothing lands outside.
 */
import { accessSync, constants, mkdirSync, mkdtempSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { extensionOf, type AstLang } from "./languages.js";

function tempRoot(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}

export class Scratch {
  readonly root: string;
  /** An empty ast-grep project config, so no sgconfig.yml among the files is picked up. */
  readonly config: string;
  /** Where a CLI run's stderr goes when it is traced (cli.ts: runAstGrep's `trace`). */
  readonly trace: string;
  private batches = 0;

  constructor() {
    this.root = mkdtempSync(path.join(tempRoot(), "resolve-bot-ast-"));
    this.config = path.join(this.root, "sgconfig.yml");
    writeFileSync(this.config, "ruleDirs: []\n");
    this.trace = path.join(this.root, "trace");
  }

  /** A fresh directory for one CLI run (see Batch). */
  batch(): Batch {
    const id = this.batches++;
    return new Batch(path.join(this.root, `b${id}`), path.join(this.root, `f${id}`));
  }

  /** Where writeOwn puts `relative`. */
  ownPath(relative: string): string {
    return path.join(this.root, "own", relative);
  }

  /** Writes a file of the CLI's own (a project config, a rule; a normalised relative path) outside the batches. */
  writeOwn(relative: string, text: string): string {
    const target = this.ownPath(relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
    return target;
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * The files of one CLI run: under their workspace paths in `dir` (the run's working directory,
 * which the CLI walks: faster than naming each file, and rules' `files` globs see the real
 * paths), and files forced into another language beside it, named with that language's extension
 * (the CLI picks languages by extension) and given to the CLI by name.
 */
export class Batch {
  /** Forced files, given to the CLI by their absolute names. */
  readonly forcedFiles: string[] = [];
  /** Directories files were written to. */
  private readonly dirs = new Set<string>();
  /** Every file written, for remove(). */
  private readonly written: string[] = [];

  constructor(
    readonly dir: string,
    readonly forcedDir: string,
  ) {
    mkdirSync(dir);
  }

  /** Writes `text` for workspace file `file`; returns the name the CLI will report it under. */
  put(file: string, text: string, forced?: AstLang): string {
    let target: string;
    if (forced === undefined) target = path.join(this.dir, file);
    else {
      target = path.join(this.forcedDir, `${this.forcedFiles.length}.${extensionOf(forced)}`);
      this.forcedFiles.push(target);
    }
    const parent = path.dirname(target);
    if (!this.dirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.dirs.add(parent);
    }
    writeFileSync(target, text);
    this.written.push(target);
    return forced === undefined ? file : target;
  }

  /**
   * Removes the batch: unlinks exactly the files written, then their directories, deepest first.
   * Measured on 3,124 files, rmSync's walk (an lstat and a readdir per entry) cost the main
   * thread about 3× as much.
   */
  remove(): void {
    try {
      for (const file of this.written) unlinkSync(file);
      const dirs = new Set<string>();
      for (const written of this.dirs) {
        for (
          let dir = written;
          dir.startsWith(`${this.dir}${path.sep}`) || dir.startsWith(`${this.forcedDir}${path.sep}`);
          dir = path.dirname(dir)
        )
          dirs.add(dir);
      }
      // a directory's path is longer than its parent's: children go first
      for (const dir of [...dirs].sort((a, b) => b.length - a.length)) rmdirSync(dir);
      rmdirSync(this.dir);
      if (this.forcedFiles.length > 0) rmdirSync(this.forcedDir);
    } catch {
      // something else is in there after all: walk it
      rmSync(this.dir, { recursive: true, force: true });
      rmSync(this.forcedDir, { recursive: true, force: true });
    }
  }
}
