/**
 * A durable pending stack for a local checkout, in `<git dir>/resolve-bot/stack.json`.
 * Every operation takes a cross-process lock (proper-lockfile) and writes atomically
 * (temp file + rename), so two terminals can preview and resolve on one checkout.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import type { NewPendingRecord, PendingActionStore, PendingRecord, PreviewPresentation, Resolution } from "../../core/store.js";

interface Entry {
  record: PendingRecord;
  preview: PreviewPresentation;
}

interface StackFile {
  version: 1;
  nextSeq: number;
  stack: Entry[];
  /** Resolved actions, oldest first: what was applied or discarded, by whom, why. */
  history: Array<Resolution & { label: string; resolvedAt: string }>;
}

const EMPTY: StackFile = { version: 1, nextSeq: 1, stack: [], history: [] };

export class FileStore implements PendingActionStore {
  readonly file: string;

  constructor(readonly directory: string) {
    this.file = path.join(directory, "stack.json");
  }

  private async read(): Promise<StackFile> {
    try {
      return JSON.parse(await readFile(this.file, "utf8")) as StackFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return structuredClone(EMPTY);
      throw new Error(`The pending stack in ${this.file} cannot be read: ${(error as Error).message}`, { cause: error });
    }
  }

  private async write(state: StackFile): Promise<void> {
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
    await rename(temporary, this.file);
  }

  /** Runs `work` holding the lock; `work` returns the new state (or undefined to leave it). */
  private async locked<T>(work: (state: StackFile) => Promise<{ state?: StackFile; value: T }>): Promise<T> {
    await mkdir(this.directory, { recursive: true });
    const release = await lockfile.lock(this.directory, {
      lockfilePath: path.join(this.directory, "stack.lock"),
      retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
      stale: 30_000,
    });
    try {
      const { state, value } = await work(await this.read());
      if (state) await this.write(state);
      return value;
    } finally {
      await release();
    }
  }

  async push(record: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord> {
    return this.locked(async (state) => {
      const full: PendingRecord = { ...record, seq: state.nextSeq };
      return { state: { ...state, nextSeq: state.nextSeq + 1, stack: [...state.stack, { record: full, preview }] }, value: full };
    });
  }

  async peek(): Promise<PendingRecord | null> {
    return (await this.read()).stack.at(-1)?.record ?? null;
  }

  async pop(resolution: Resolution): Promise<PendingRecord | null> {
    return this.locked(async (state) => {
      const top = state.stack.at(-1);
      if (top?.record.id !== resolution.id) return { value: null };
      const history = [...state.history, { ...resolution, label: top.record.label, resolvedAt: new Date().toISOString() }];
      return { state: { ...state, stack: state.stack.slice(0, -1), history }, value: top.record };
    });
  }

  async hasPending(): Promise<boolean> {
    return (await this.read()).stack.length > 0;
  }

  async list(): Promise<PendingRecord[]> {
    return (await this.read()).stack.map((entry) => entry.record).reverse();
  }

  /** The stored preview (diff) of a pending record. */
  async presentation(id: string): Promise<PreviewPresentation | undefined> {
    return (await this.read()).stack.find((entry) => entry.record.id === id)?.preview;
  }
}
