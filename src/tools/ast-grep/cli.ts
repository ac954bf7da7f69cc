/**
 * Runs the ast-grep CLI binary (shipped inside the @ast-grep/cli npm package, platform package
 * first: @ast-grep/cli's own `ast-grep` is a copy its install script may not have made) with
 * `--json=stream`, reading one match per line as it comes. Bounded: a run past its deadline or
 * its output budget is killed and reported as a UserError written for the person who typed the
 * command. No shell is involved; arguments go to the binary as they are.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { toolTimeLimitMs } from "../../core/execution.js";
import { UserError } from "../../errors.js";
import { formatBytes } from "../../workspace/limits.js";

const require = createRequire(import.meta.url);

function platformPackage(): string | undefined {
  const { platform, arch } = process;
  if (platform === "linux" && (arch === "x64" || arch === "arm64")) return `@ast-grep/cli-linux-${arch}-gnu`;
  if (platform === "darwin" && (arch === "x64" || arch === "arm64")) return `@ast-grep/cli-darwin-${arch}`;
  if (platform === "win32" && (arch === "x64" || arch === "arm64" || arch === "ia32")) return `@ast-grep/cli-win32-${arch}-msvc`;
  return undefined;
}

let binary: string | undefined;

/** Path of the ast-grep binary. */
export function astGrepBinary(): string {
  if (binary !== undefined) return binary;
  const exe = process.platform === "win32" ? "ast-grep.exe" : "ast-grep";
  const candidates: string[] = [];
  const pkg = platformPackage();
  if (pkg !== undefined) {
    try {
      candidates.push(path.join(path.dirname(require.resolve(`${pkg}/package.json`)), exe));
    } catch {
      // not installed for this platform: fall back to the launcher package
    }
  }
  // The launcher package is not there when only the platform's binary was shipped (the Action's bundle).
  if (!candidates.some((candidate) => existsSync(candidate))) {
    candidates.push(path.join(path.dirname(require.resolve("@ast-grep/cli/package.json")), exe));
  }
  binary = candidates.find((candidate) => existsSync(candidate)) ?? candidates[candidates.length - 1]!;
  return binary;
}

/** What the CLI reports for one match (the fields resolve-bot uses). */
export interface CliMatch {
  file: string;
  replacement?: string;
  replacementOffsets?: { start: number; end: number };
  ruleId?: string;
}

export interface CliLimits {
  /** Milliseconds one run may take. */
  timeoutMs: number;
  /** Bytes of JSON one run may print. */
  maxOutputBytes: number;
}

/**
 * A run may take as long as its command (RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS, one knob for the
 * operator): a fixed minute stopped /ast-edit on a 36,000-file repository that the command's limit
 * allowed.
 */
export const DEFAULT_CLI_LIMITS: CliLimits = { timeoutMs: toolTimeLimitMs(), maxOutputBytes: 256 * 1024 * 1024 };

/** stderr kept for the error message. */
const MAX_STDERR = 16 * 1024;
/** How `--inspect` lines start. */
const INSPECT_PREFIX = "sg: ";

/**
 * Runs `ast-grep SUBCOMMAND --json=stream ...rest` in `cwd` (args: the subcommand first), calling `onMatch` for each match. Exit status 1
 * with an empty stderr is "no match"; any other failure becomes a UserError holding the CLI's
 * own message (e.g. a rule it cannot parse). Resolves with the CLI's warnings ("" when it printed
 * none), e.g. the one `run --lang` prints when a pattern whose root is an ERROR node matched nothing.
 */
export function runAstGrep(
  args: readonly string[],
  cwd: string,
  limits: CliLimits,
  onMatch: (match: CliMatch) => void,
  /** When the run must be over (Date.now() units); default: limits.timeoutMs from now. Several runs share one command's time. */
  deadline = Date.now() + limits.timeoutMs,
  /**
   * For runs with `--inspect`: stderr goes to `file` (a new file), and `onLine` gets each trace line
   * (`sg: …`) once the run is over; the other lines make the message as usual. Not a pipe: the CLI
   * writes a trace line in about ten system calls, and through a pipe that woke Node each time
   * (3,124 lines cost ≈ 0.25 s of wall time on 2 cores, next to nothing into a file).
   */
  trace?: { file: string; onLine: (line: string) => void },
  /** Aborting it kills the CLI; the run then fails with the abort's error. */
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const traceFd = trace === undefined ? undefined : openSync(trace.file, "wx");
    let child: ChildProcess;
    try {
      child = spawn(astGrepBinary(), [args[0]!, "--json=stream", ...args.slice(1)], {
        cwd,
        stdio: ["ignore", "pipe", traceFd ?? "pipe"],
        ...(signal ? { signal, killSignal: "SIGKILL" as const } : {}),
      });
    } finally {
      if (traceFd !== undefined) closeSync(traceFd); // the child has its own
    }
    let stopped: UserError | undefined;
    let failure: Error | undefined;
    let output = 0;
    let stderr = "";
    const stop = (error: UserError) => {
      stopped ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () =>
        stop(
          new UserError(
            `ast-grep took longer than ${seconds(limits.timeoutMs)} and was stopped; narrow the pattern, the rule or the paths.`,
          ),
        ),
      Math.max(1, deadline - Date.now()),
    );
    const stdout = child.stdout!; // piped
    stdout.on("data", (chunk: Buffer) => {
      output += chunk.length;
      if (output > limits.maxOutputBytes) {
        stop(
          new UserError(
            `ast-grep reported more than ${formatBytes(limits.maxOutputBytes)} of matches and was stopped; narrow the pattern, the rule or the paths.`,
          ),
        );
      }
    });
    const lines = createInterface({ input: stdout, crlfDelay: Infinity });
    lines.on("line", (line) => {
      if (stopped !== undefined || failure !== undefined || line === "") return;
      try {
        onMatch(JSON.parse(line) as CliMatch);
      } catch (error) {
        failure = error as Error;
        child.kill("SIGKILL");
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk;
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const closed = new Promise<void>((done) => lines.on("close", done));
    child.on("close", (code) => {
      clearTimeout(timer);
      // .catch: a throw in here (reading the trace, a caller's onLine) must fail the run, not leave it pending
      closed
        .then(() => {
          if (stopped !== undefined) return reject(stopped);
          if (failure !== undefined) return reject(failure);
          if (trace !== undefined) {
            for (const line of readFileSync(trace.file, "utf8").split("\n")) {
              if (line.startsWith(INSPECT_PREFIX)) trace.onLine(line);
              else if (stderr.length < MAX_STDERR) stderr += `${line}\n`;
            }
          }
          const { message, warnings } = cliMessage(stderr);
          if (code === 0 || (code === 1 && message === "")) return resolve(warnings);
          reject(new UserError(message === "" ? `ast-grep failed (exit status ${code}).` : `ast-grep refused it:\n${fenced(message)}`));
        })
        .catch(reject);
    });
  });
}

/**
 * The CLI's stderr without terminal colours: an error message, or (when no line is an error) only
 * warnings, which are no failure.
 */
function cliMessage(stderr: string): { message: string; warnings: string } {
  // eslint-disable-next-line no-control-regex
  const plain = stderr.replace(/\u001b\[[0-9;]*m/g, "").trim();
  if (/^(Warning|Help|See also):/m.test(plain) && !/^Error/m.test(plain)) return { message: "", warnings: plain };
  return { message: plain, warnings: "" };
}

/** The CLI's message in a code block (it draws carets under the offending text), with a fence no line can close. */
export function fenced(message: string): string {
  let fence = "```";
  while (message.includes(fence)) fence += "`";
  return `${fence}\n${message}\n${fence}`;
}

/**
 * Runs the CLI on no file at all, in an empty directory: it then only checks its arguments (a
 * pattern for a given --lang, inline rules), so a bad one gets the CLI's own message even when no
 * file was a candidate. Resolves with the warnings it printed for a run that matched nothing.
 */
export async function checkArguments(args: readonly string[], limits: CliLimits): Promise<string> {
  const empty = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-check-"));
  try {
    return await runAstGrep(args, empty, limits, () => undefined);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
