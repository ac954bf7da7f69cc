/**
 * Blobs read from a repository on demand through one long-lived `git cat-file --batch`: a read is
 * a line written and one answer read back, not a process per file. Answers come in the order
 * asked, so reads are queued; the process is ended after a short idle time (a workspace has no
 * close; an idle reader costs nothing) and started again by the next read.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnGit } from "./safe-git.js";

const IDLE_MS = 2000;

interface Waiting {
  sha: string;
  resolve(bytes: Buffer): void;
  reject(error: Error): void;
}

export class BlobReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly waiting: Waiting[] = [];
  /** Bytes of the answer being read: its header, then its body. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The body being filled, and how much of it is there. */
  private body: { bytes: Buffer; filled: number; type: string } | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly gitDir: string) {}

  read(sha: string): Promise<Buffer> {
    if (!/^[0-9a-f]{40,64}$/.test(sha)) return Promise.reject(new Error(`not an object name: ${sha}`));
    return new Promise((resolve, reject) => {
      clearTimeout(this.idle);
      const child = this.process();
      holdOpen(child, true);
      this.waiting.push({ sha, resolve, reject });
      child.stdin.write(`${sha}\n`);
    });
  }

  /** Ends the process now (reads after this start another). */
  close(): void {
    clearTimeout(this.idle);
    this.child?.stdin.end();
    this.child = undefined;
  }

  private process(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawnGit(this.gitDir, ["cat-file", "--batch"]);
    this.child = child;
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    child.stdin.on("error", () => undefined);
    child.stdout.on("data", (chunk: Buffer) => this.take(chunk));
    const fail = (reason: string) => {
      if (this.child === child) this.child = undefined;
      const error = new Error(`git cat-file --batch in ${this.gitDir} ${reason}${stderr ? `: ${stderr.trim()}` : ""}`);
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
      this.pending = [];
      this.pendingBytes = 0;
      this.body = undefined;
    };
    child.on("error", (error) => fail(`could not run (${error.message})`));
    child.on("close", (code) => fail(`ended (${code})`));
    return child;
  }

  /** Splits the output into answers: `<sha> <type> <size>\n<body>\n`, or `<name> missing\n`. */
  private take(chunk: Buffer): void {
    let rest = chunk;
    while (rest.byteLength > 0) {
      if (this.body) {
        const { bytes, filled, type } = this.body;
        const wanted = bytes.byteLength + 1 - filled; // the body and its line feed
        const piece = rest.subarray(0, wanted);
        if (filled < bytes.byteLength) piece.copy(bytes, filled, 0, Math.min(piece.byteLength, bytes.byteLength - filled));
        this.body.filled += piece.byteLength;
        rest = rest.subarray(piece.byteLength);
        if (this.body.filled === bytes.byteLength + 1) {
          this.body = undefined;
          this.answer((waiting) =>
            type === "blob" ? waiting.resolve(bytes) : waiting.reject(new Error(`${waiting.sha} is a ${type}, not a blob`)),
          );
        }
        continue;
      }
      const newline = rest.indexOf(10);
      if (newline < 0) {
        this.pending.push(rest);
        this.pendingBytes += rest.byteLength;
        return;
      }
      const header = Buffer.concat([...this.pending, rest.subarray(0, newline)], this.pendingBytes + newline).toString("latin1");
      this.pending = [];
      this.pendingBytes = 0;
      rest = rest.subarray(newline + 1);
      const parts = header.split(" ");
      if (parts.length === 3) {
        // Another type's body is read past too, then refused.
        this.body = { bytes: Buffer.allocUnsafe(Number(parts[2])), filled: 0, type: parts[1]! };
      } else {
        this.answer((waiting) => waiting.reject(new Error(`${waiting.sha} is missing from ${this.gitDir}`)));
      }
    }
  }

  private answer(settle: (waiting: Waiting) => void): void {
    const waiting = this.waiting.shift();
    if (waiting) settle(waiting);
    if (this.waiting.length === 0) {
      // An idle reader keeps no process alive (nor jest): it is ended soon, or when its parent exits.
      if (this.child) holdOpen(this.child, false);
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }
}

/** Whether the process and its pipes keep Node's event loop alive: while reads wait, and only then. */
function holdOpen(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref(): void; unref(): void }>) {
    if (hold) handle.ref();
    else handle.unref();
  }
}
