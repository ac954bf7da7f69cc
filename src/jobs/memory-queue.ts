/**
 * The JobQueue in one process's memory: jobs of one key (a pull request) run one at a time in
 * submit order (an async-mutex per key), jobs of different keys up to `concurrency` at once, and a
 * delivery id is taken once (the last 10,000 are remembered). Nothing survives a restart: this is
 * the queue for tests and for a single process that accepts that; SQLite or Redis are durable.
 */
import { Mutex, Semaphore } from "async-mutex";
import {
  RetryableJobError,
  type Job,
  type JobHandler,
  type JobQueue,
  type JobRun,
  type ProcessOptions,
  type QueueNotes,
} from "./job-queue.js";

/** How many job ids are remembered for deduplication (oldest forgotten first). */
const REMEMBERED_IDS = 10_000;

export interface MemoryJobQueueOptions {
  /** Attempts for a job that keeps throwing RetryableJobError (default 3). */
  maxAttempts?: number;
  /** Wait before attempt n + 1 (default 1 s, 2 s, 4 s…). */
  backoffMs?(attempt: number): number;
  /** A job given up with no `onDeadLetter`, or whose dead-letter hook failed. */
  onError?(error: unknown, job: Job): void;
}

export class MemoryJobQueue implements JobQueue {
  private readonly locks = new Map<string, { mutex: Mutex; users: number }>();
  // A Map keeps insertion order, which is all an oldest-first bound needs.
  private readonly seen = new Map<string, true>();
  private readonly running = new Set<Promise<void>>();
  /** Jobs submitted before `process` was called. */
  private readonly waiting: Job[] = [];
  private readonly stopping = new AbortController();
  private worker?: { handler: JobHandler; options: ProcessOptions; slots: Semaphore };
  private closed = false;
  private readonly noted = new Map<string, string>();
  readonly notes: QueueNotes = {
    get: async (name) => this.noted.get(name),
    set: async (name, value) => void this.noted.set(name, value),
  };

  constructor(private readonly options: MemoryJobQueueOptions = {}) {}

  async submit(job: Job): Promise<boolean> {
    if (this.closed) throw new Error("the job queue is closed");
    if (this.seen.has(job.id)) return false;
    this.seen.set(job.id, true);
    if (this.seen.size > REMEMBERED_IDS) this.seen.delete(this.seen.keys().next().value!);
    if (this.worker) this.schedule(job, this.worker);
    else this.waiting.push(job);
    return true;
  }

  process(handler: JobHandler, options: ProcessOptions): void {
    if (this.worker) throw new Error("process() was already called on this queue");
    this.worker = { handler, options, slots: new Semaphore(Math.max(1, options.concurrency)) };
    for (const job of this.waiting.splice(0)) this.schedule(job, this.worker);
  }

  /** Queues `job` after every earlier job of its key; returns at once. */
  private schedule(job: Job, worker: NonNullable<MemoryJobQueue["worker"]>): void {
    const lock = this.locks.get(job.key) ?? { mutex: new Mutex(), users: 0 };
    lock.users++;
    this.locks.set(job.key, lock);
    const run = lock.mutex
      .runExclusive(() => worker.slots.runExclusive(() => this.attempt(job, worker)))
      .finally(() => {
        this.running.delete(run);
        if (--lock.users === 0) this.locks.delete(job.key);
      });
    this.running.add(run);
  }

  private async attempt(job: Job, worker: NonNullable<MemoryJobQueue["worker"]>): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    const signal = this.stopping.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) return this.options.onError?.(new Error("abandoned: the queue was closed before it ran"), job);
      const run: JobRun = { attempt, rerun: attempt > 1, signal };
      try {
        await worker.handler(job, run);
        return;
      } catch (error) {
        if (error instanceof RetryableJobError && attempt < maxAttempts) {
          const wait = Math.max(this.options.backoffMs?.(attempt) ?? 1000 * 2 ** (attempt - 1), error.retryAfterMs ?? 0);
          worker.options.onRetry?.(job, error, attempt, wait);
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        await this.deadLetter(job, error, attempt, worker.options);
        return;
      }
    }
  }

  private async deadLetter(job: Job, error: unknown, attempts: number, options: ProcessOptions): Promise<void> {
    if (!options.onDeadLetter) return this.options.onError?.(error, job);
    try {
      await options.onDeadLetter(job, error, attempts);
    } catch (hookError) {
      this.options.onError?.(hookError, job);
    }
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async unreadyReason(): Promise<string | undefined> {
    return this.closed ? "the job queue is closed" : undefined;
  }

  /** Stops taking jobs; queued ones still run within the grace period, then the rest are dropped. */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.idle(), deadline]);
    clearTimeout(timer);
    this.stopping.abort();
  }
}
