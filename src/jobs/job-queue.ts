/**
 * Durable jobs: what the webhook handler records and the workers carry out. One interface, two
 * implementations — embedded (SQLite, the default) and Redis (BullMQ, to scale out).
 *
 * Guarantees every implementation gives (and its tests prove):
 * - `submit` resolves only once the job is durable; a second submit with the same id is refused
 *   (deduplication by the webhook's delivery id).
 * - Jobs with the same `key` (one pull request) run one at a time, in submit order; jobs of
 *   different keys run concurrently up to the configured concurrency.
 * - A job is carried out at least once: a job whose process died mid-run is run again (on restart,
 *   or by another worker once its lease expires). Handlers make that exactly-once by being
 *   idempotent: the forge is the journal (each write names its request step, pipeline/journal.ts)
 *   and a commit moves the branch only from the head it was made on (a compare-and-swap). The
 *   queue's own steps are fenced (a holder that lost its lease records nothing); the handler's
 *   writes go to the forge, which takes no fencing token, so a check before them could not
 *   make them safe (the lease can lapse between the check and the write): `signal` stops the work.
 * - A handler that throws `RetryableJobError` is retried with backoff (never sooner than its
 *   `retryAfterMs`); the key waits meanwhile, so order holds through retries. After the last attempt,
 *   or on any other error, the job goes to the dead letter and `onDeadLetter` is called once (again
 *   only if the process dies while it runs). A run cut short by a crash counts as an attempt, so a
 *   job that kills its process every time ends in the dead letter instead of looping.
 * - Deduplication ids are kept for a bounded time (7 days by default), then pruned.
 */

/** A recorded request. `payload` is plain JSON (the pipeline's Request). */
export interface Job {
  /** Unique id; the webhook's X-GitHub-Delivery. */
  id: string;
  /** Serialisation key, e.g. `owner/repo#12`. */
  key: string;
  payload: unknown;
}

export interface JobRun {
  /** 1 for the first attempt. */
  attempt: number;
  /**
   * An earlier run of this job started and may have done part of it: a later attempt, a run after
   * a crash, or a run handed back at shutdown (which does not count as an attempt).
   */
  rerun: boolean;
  /** Aborted when the queue is closing or the lease was lost: the work stops (the worker pool ends its thread). */
  signal: AbortSignal;
}

export type JobHandler = (job: Job, run: JobRun) => Promise<void>;

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the second attempt; it doubles for each one after, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, backoffMs: 1_000, maxBackoffMs: 5 * 60_000 };

export interface ProcessOptions {
  /** Jobs of different keys run at once. */
  concurrency: number;
  /** Defaults: `defaultRetryPolicy`. */
  retry?: Partial<RetryPolicy>;
  /** Called when a failed attempt is to be tried again after `delayMs` (for the log: nothing waits on it). */
  onRetry?(job: Job, error: unknown, attempt: number, delayMs: number): void;
  /** Called once when a job is given up (its error, attempts made). */
  onDeadLetter?(job: Job, error: unknown, attempts: number): Promise<void> | void;
}

/**
 * Small named values kept where the jobs are, as durable as they are (SQLite: the data directory;
 * Redis: Redis; memory: the process): the deliveries sweep's cursor.
 */
export interface QueueNotes {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

export interface JobQueue {
  readonly notes: QueueNotes;
  /** Records the job durably; false when a job with this id was already recorded. */
  submit(job: Job): Promise<boolean>;
  /** Starts carrying out jobs (a server-only process never calls it). */
  process(handler: JobHandler, options: ProcessOptions): void;
  /**
   * Resolves when no job is queued (delayed retries included) and none runs in this process
   * (tests, shutdown). With Redis, "queued" means anywhere on that Redis.
   */
  idle(): Promise<void>;
  /**
   * The readiness probe (GET /readyz): why this queue cannot record or carry out jobs now (its
   * database or Redis does not answer, it is closing), or undefined when it can. Answers within
   * about two seconds whatever the store does.
   */
  unreadyReason(): Promise<string | undefined>;
  /**
   * Stops taking jobs; waits up to `graceMs` for running ones, then hands the rest back (they run
   * again on the next start) and releases connections.
   */
  close(graceMs?: number): Promise<void>;
}

/** A failure worth another attempt (a 5xx, a secondary rate limit, a lost connection). */
export class RetryableJobError extends Error {
  override name = "RetryableJobError";
  constructor(
    message: string,
    /** At least this long before the next attempt, when the cause says so (retry-after). */
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
