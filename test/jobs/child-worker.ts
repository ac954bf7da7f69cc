/** Runs test/jobs/fixtures/worker.mjs (a job queue over the built dist/) as a child process. */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(root, "test/jobs/fixtures/worker.mjs");

/** The child runs dist/: refuse to test an old build of src/jobs. */
export function assertBuilt(): void {
  const sources = path.join(root, "src/jobs");
  const built = path.join(root, "dist/src/jobs");
  const pairs = readdirSync(sources)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [path.join(sources, file), path.join(built, file.replace(/\.ts$/, ".js"))] as const);
  if (pairs.some(([, js]) => !existsSync(js))) {
    throw new Error("dist/src/jobs is missing: run `npm run build` before these tests.");
  }
  if (pairs.some(([ts, js]) => statSync(js).mtimeMs < statSync(ts).mtimeMs)) {
    throw new Error("dist/src/jobs is older than src/jobs: run `npm run build` first.");
  }
}

export class ChildWorker {
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  constructor(queue: Record<string, unknown>, mode: "hang" | "stall" | "log", env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [fixture], {
      env: { ...process.env, JOBS_QUEUE: JSON.stringify(queue), JOBS_MODE: mode, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffered = "";
    this.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (buffered + chunk).split("\n");
      buffered = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of this.waiters) wake();
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  /** The first line matching `pattern`, waiting up to `timeoutMs` for it. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.find((l) => pattern.test(l));
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no line ${pattern} from the child; it said:\n${this.lines.join("\n")}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        this.waiters.add(wake);
      });
    }
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}
