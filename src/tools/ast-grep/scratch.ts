/**
 * A private temporary directory the ast-grep CLI reads files from: the workspace's candidate
 * files under their own paths (rules' `files`/`ignores` globs see the real paths), plus files
 * forced into another language under a name with that language's extension. In /dev/shm when
 * there is one (memory: the files are short-lived copies), else the system's temp directory.
 * Paths are workspace paths, already normalised (relative, no `..`), so nothing lands outside.
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
  /** The CLI's working directory: files live here under their workspace paths. */
  readonly tree: string;
  /** An empty ast-grep project config, so no sgconfig.yml among the files is picked up. */
  readonly config: string;
  /** What was last written for each argument, and each workspace file's argument. */
  private readonly written = new Map<string, string>();
  private readonly argOf = new Map<string, string>();
  private readonly dirs = new Set<string>();
  private forcedCount = 0;

  constructor() {
    this.root = mkdtempSync(path.join(tempRoot(), "resolve-bot-ast-"));
    this.tree = path.join(this.root, "tree");
    mkdirSync(this.tree);
    mkdirSync(path.join(this.root, "forced"));
    this.config = path.join(this.root, "sgconfig.yml");
    writeFileSync(this.config, "ruleDirs: []\n");
  }

  /**
   * Puts `text` where the CLI reads it for workspace file `file` (rewriting only what changed) and
   * returns the argument that names it. A forced language gets a name of its own with that
   * language's extension, since the CLI picks languages by extension.
   */
  put(file: string, text: string, forced?: AstLang): string {
    const key = forced === undefined ? file : `${forced}\0${file}`;
    let arg = this.argOf.get(key);
    if (arg === undefined) {
      arg = forced === undefined ? `./${file}` : path.join(this.root, "forced", `${this.forcedCount++}.${extensionOf(forced)}`);
      this.argOf.set(key, arg);
    }
    if (this.written.get(arg) !== text) {
      const target = path.resolve(this.tree, arg);
      const dir = path.dirname(target);
      if (!this.dirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        this.dirs.add(dir);
      }
      writeFileSync(target, text);
      this.written.set(arg, text);
    }
    return arg;
  }

  /** Where writeOwn puts `relative`. */
  ownPath(relative: string): string {
    return path.join(this.root, "own", relative);
  }

  /** Writes a file of the CLI's own (a project config, a rule; a normalised relative path) outside the tree. */
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

/** The workspace path or forced name the CLI reports for an argument given to it. */
export function reportedName(arg: string): string {
  return arg.startsWith("./") ? arg.slice(2) : arg;
}
