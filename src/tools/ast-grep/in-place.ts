/**
 * The ast-grep CLI reading an on-disk workspace's files where they lie, for a job whose prefilter
 * reads no text (a pattern with no word and no token chain such as `$A && $A.$B`, YAML rules): the
 * usual path (rewrite.ts) would read every file and copy it to a scratch directory only for the
 * CLI to read it again, and on 2 cores that copying is CPU the CLI's parse does not get
 * (bench/README.md). Here resolve-bot reads only the files the CLI reports a match in.
 *
 * The CLI walks the workspace's directory as it walks any project (walking is faster than being
 * handed each name), hidden files included, `.git` left out, git's ignore files honoured (an
 * untracked ignored file such as node_modules/ is no workspace file; a tracked one is found
 * below). Which files it read comes from its own trace (`--inspect entity`), so nothing rests
 * on its ignore rules agreeing with git's:
 * - a candidate the trace does not show as read (a tracked file .gitignore names, one the CLI
 *   skipped as not UTF-8) goes the usual way: resolve-bot reads it and copies it for the CLI;
 * - so does a file that may have changed between the CLI's read and resolve-bot's (splicing the
 *   CLI's offsets into other bytes would corrupt it): modified less than CHANGE_SLACK_MS before
 *   the run started, or holding a reported match's text anywhere but where the CLI saw it;
 * - matches in files that are no candidates (unlisted, outside the paths) are dropped;
 * - a trace line that cannot be read, or a file traced twice, and the trace is not trusted at
 *   all: every candidate goes the usual way (the walk leaves out names with line breaks, the
 *   only way a name could forge a line).
 * A workspace whose files are not on disk may check them out for the run (OnDisk.open: the git
 * cache's GitWorkspace); such files cannot change meanwhile (`fixed`), and a checkout that cannot
 * be made sends every candidate the usual way.
 */
import type { OnDisk } from "../../workspace/workspace.js";
import type { AstLang } from "./languages.js";
import { DEFAULT_CLI_LIMITS, runAstGrep, type CliMatch } from "./cli.js";
import { projectConfig, rewriteFiles, splice, type FileRewrite, type FileText, type Job, type RewriteOptions } from "./rewrite.js";
import { Scratch } from "./scratch.js";

/** The candidates of an in-place run, known once the workspace is listed. */
export interface InPlaceFiles {
  /** The files the job may change (listed, inside the paths given), by path, in the order results come back in. */
  candidates: ReadonlyMap<string, AstLang>;
  /**
   * A candidate as the workspace reads it now, or undefined when it is not to be edited (binary,
   * over the size limit, not valid UTF-8: the caller records why).
   */
  read(path: string): Promise<FileText | undefined>;
}

/**
 * A file modified this close to the run's start may have been read by the CLI in one state and
 * by resolve-bot in another (file systems keep modification times as coarsely as 2 s).
 */
const CHANGE_SLACK_MS = 2000;

/**
 * The walk: hidden files too; `.ignore` files are no git's; `.git` (a directory, or a worktree's
 * file) holds no workspace file; and no name with a line break, whose trace line could pass for
 * another file's (such files are copied instead).
 */
const WALK = ["--no-ignore", "hidden", "--no-ignore", "dot", "--globs", "!.git", "--globs", "!*\n*", "--globs", "!*\r*"];

/** A match with what checking it against resolve-bot's read needs. */
interface TracedMatch extends CliMatch {
  text: string;
  range: { byteOffset: { start: number; end: number } };
}

/** The CLI's per-file trace: `sg: entity|file|PATH: language=L` or `...: skipped=REASON`. */
export class Trace {
  readonly read = new Set<string>();
  private readonly seen = new Set<string>();
  trusted = true;

  add(line: string): void {
    if (!line.startsWith("sg: entity|file|")) return;
    const entry = /^sg: entity\|file\|(.+): (language|skipped)=[^:]+$/.exec(line);
    const file = entry === null ? undefined : relative(entry[1]!);
    if (file === undefined || this.seen.has(file)) {
      this.trusted = false;
      return;
    }
    this.seen.add(file);
    if (entry![2] === "language") this.read.add(file);
  }
}

function relative(file: string): string {
  return file.startsWith("./") ? file.slice(2) : file;
}

/**
 * One run of `job` with the CLI walking the workspace's directory. It starts at once, so the CLI
 * works while the workspace is listed; `rewrite` then takes the candidates, and `cancel` stops a
 * run the listing shows is not wanted after all.
 */
export class InPlaceRun {
  private readonly trace = new Trace();
  /** Matches by file, every file the CLI reported (the candidates are not known yet). */
  private readonly matches = new Map<string, TracedMatch[]>();
  private readonly startedAt = Date.now();
  private readonly deadline: number;
  private readonly stop = new AbortController();
  /** Settles with the run's failure, or undefined. */
  private readonly done: Promise<Error | undefined>;

  constructor(
    private readonly job: Job,
    private readonly disk: OnDisk,
    /** What the CLI walks: directories relative to the root ("." for all), none inside another. */
    scopes: readonly string[],
    private readonly options: RewriteOptions = {},
  ) {
    const limits = options.limits ?? DEFAULT_CLI_LIMITS;
    this.deadline = options.deadline ?? this.startedAt + limits.timeoutMs;
    const scratch = new Scratch();
    const args = [...job.args, "-c", projectConfig(scratch, options.project), ...WALK, "--inspect", "entity", "--", ...scopes];
    const cli = () =>
      runAstGrep(
        args,
        disk.root,
        limits,
        (match) => {
          const { replacement, replacementOffsets, ruleId, text, range } = match as TracedMatch;
          if (replacement === undefined || replacementOffsets === undefined) return;
          const file = relative(match.file);
          let list = this.matches.get(file);
          if (list === undefined) this.matches.set(file, (list = []));
          list.push({ file, replacement, replacementOffsets, ruleId, text, range });
        },
        this.deadline,
        { file: scratch.trace, onLine: (line) => this.trace.add(line) },
        this.stop.signal,
      );
    const run = this.withFilesOnDisk(cli).finally(() => scratch.dispose());
    // Settled here as well: a cancelled run is never awaited, and its failure is nobody's.
    this.done = run.then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
  }

  /**
   * Runs `cli` once the files are on disk (a workspace that checks them out for the run, removed
   * after it). A checkout that cannot be made reads nothing in place: every candidate is copied.
   */
  private async withFilesOnDisk(cli: () => Promise<unknown>): Promise<void> {
    if (this.disk.open === undefined) {
      await cli();
      return;
    }
    let lease: { release(): Promise<void> };
    try {
      lease = await this.disk.open();
    } catch {
      this.trace.trusted = false;
      return;
    }
    try {
      if (!this.stop.signal.aborted) await cli();
    } finally {
      await lease.release();
    }
  }

  /** Stops the CLI; the run is then of no use. */
  cancel(): void {
    this.stop.abort();
  }

  /**
   * The files the job changed, in the order of the candidates: the CLI's replacements, and for
   * candidates it did not read or that may have changed meanwhile, rewriteFiles' output.
   */
  async rewrite(files: InPlaceFiles): Promise<FileRewrite[]> {
    const { candidates } = files;
    const failure = await this.done;
    if (failure !== undefined) throw failure;
    const { trace, matches } = this;
    const changed: FileRewrite[] = [];
    const again: FileText[] = [];
    for (const path of candidates.keys()) {
      const reached = trace.trusted && trace.read.has(path);
      const found = matches.get(path);
      if (reached && found === undefined) continue; // the CLI read it and found nothing
      const file = await files.read(path);
      if (file === undefined) continue;
      const modified = this.disk.modifiedAt(path);
      if (
        !reached ||
        found === undefined ||
        (!this.disk.fixed && (modified === undefined || modified > this.startedAt - CHANGE_SLACK_MS)) ||
        !sameMatches(file.text, found)
      ) {
        again.push(file);
        continue;
      }
      const result = splice(file.text, found);
      if (result.replacements > 0) {
        changed.push({
          ...file,
          text: result.text,
          replacements: result.replacements,
          rules: new Map(result.rules),
          byJob: [result.replacements],
        });
      }
    }
    if (again.length === 0) return changed;
    const order = new Map([...candidates.keys()].map((path, index) => [path, index]));
    const rest = (await rewriteFiles([this.job], again, { ...this.options, deadline: this.deadline })).filter(
      (file) => file.replacements > 0,
    );
    return [...changed, ...rest].sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  }
}

/** Whether each match's text is where the CLI saw it in `text` (UTF-8 byte offsets). */
function sameMatches(text: string, found: readonly TracedMatch[]): boolean {
  const bytes = Buffer.from(text, "utf8");
  return found.every(({ text: seen, range: { byteOffset }, replacementOffsets }) => {
    const { start, end } = replacementOffsets!;
    return end <= bytes.length && start <= end && bytes.subarray(byteOffset.start, byteOffset.end).equals(Buffer.from(seen, "utf8"));
  });
}
