/**
 * A private temporary directory the ast-grep CLI reads files from, one directory per CLI run
 * (Batch). In /dev/shm when there is one (memory: the files are short-lived copies), else the
 * system's temp directory. Paths are workspace paths, already normalised (relative, no `..`), so
 * nothing lands outside.
 */
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  private batches = 0;

  constructor() {
    this.root = mkdtempSync(path.join(tempRoot(), "resolve-bot-ast-"));
    this.config = path.join(this.root, "sgconfig.yml");
    writeFileSync(this.config, "ruleDirs: []\n");
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
  private readonly dirs = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly forcedDir: string,
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
    return forced === undefined ? file : target;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(this.forcedDir, { recursive: true, force: true });
  }
}
