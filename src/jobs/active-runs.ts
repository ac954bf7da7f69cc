/** The runs a queue has in progress in this process: what close() waits for, then hands back. */
import { setTimeout as sleep } from "node:timers/promises";

export interface ActiveRun {
  readonly key: string;
  readonly controller: AbortController;
  /** Set when close() gave the job back: whatever the handler does next is not recorded. */
  handedBack: boolean;
}

export class ActiveRuns<R extends ActiveRun> {
  private readonly runs = new Map<R, Promise<void>>();

  /** `onSettled` runs after a run has left the set (to start the next job). */
  constructor(private readonly onSettled: () => void = () => undefined) {}

  get size(): number {
    return this.runs.size;
  }

  busyKeys(): Set<string> {
    return new Set([...this.runs.keys()].map((run) => run.key));
  }

  track(run: R, work: Promise<void>): void {
    const settled = work.finally(() => {
      this.runs.delete(run);
      this.onSettled();
    });
    this.runs.set(run, settled);
  }

  /** Waits until every run has finished or `graceMs` passed; returns the runs still going. */
  async drain(graceMs: number): Promise<R[]> {
    const deadline = new AbortController();
    const all = Promise.allSettled(this.runs.values());
    await Promise.race([all, sleep(graceMs, undefined, { signal: deadline.signal }).catch(() => undefined)]);
    deadline.abort();
    return [...this.runs.keys()];
  }
}

/** Polls `done` until it holds (idle(): a queue's state may change in another process). */
export async function until(done: () => boolean | Promise<boolean>, intervalMs = 25): Promise<void> {
  while (!(await done())) await sleep(intervalMs);
}
