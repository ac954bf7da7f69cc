/**
 * Webhook work runs after the response: GitHub gives a delivery 10 s. All work on one pull
 * request is serialised (async-mutex per key, in-process), and a delivery id is handled once.
 */
import { Mutex } from "async-mutex";

/** How many delivery ids are remembered for deduplication (oldest forgotten first). */
const REMEMBERED_DELIVERIES = 10_000;

export class WorkQueue {
  private readonly locks = new Map<string, { mutex: Mutex; users: number }>();
  // A Map keeps insertion order, which is all an oldest-first bound needs.
  private readonly deliveries = new Map<string, true>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly onError: (error: unknown, key: string) => void) {}

  /** True the first time a delivery id is seen. */
  firstDelivery(id: string | undefined): boolean {
    if (!id) return true;
    if (this.deliveries.has(id)) return false;
    this.deliveries.set(id, true);
    if (this.deliveries.size > REMEMBERED_DELIVERIES) this.deliveries.delete(this.deliveries.keys().next().value!);
    return true;
  }

  /** Runs `job` after every earlier job of the same key; returns at once. */
  enqueue(key: string, job: () => Promise<void>): void {
    const lock = this.locks.get(key) ?? { mutex: new Mutex(), users: 0 };
    lock.users++;
    this.locks.set(key, lock);
    const run = lock.mutex
      .runExclusive(job)
      .catch((error: unknown) => this.onError(error, key))
      .finally(() => {
        this.running.delete(run);
        if (--lock.users === 0) this.locks.delete(key);
      });
    this.running.add(run);
  }

  /** Resolves when no job is queued or running (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
