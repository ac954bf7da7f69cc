/**
 * The job queue on Redis, to scale out: any number of processes submit and carry out jobs on one
 * Redis (not Redis Cluster: the scripts touch keys they compute).
 *
 * Design. Open-source BullMQ has no per-key FIFO (its groups are a paid feature), so the order is
 * ours and BullMQ only distributes *turns*:
 * - `submit` is one script: dedupe key (SET NX with a TTL), the job's hash, and its id pushed on
 *   its key's list — the list is the key's FIFO and the source of truth. Then a BullMQ job "turn"
 *   `{key}` is added: a wake-up, nothing more.
 * - A worker that takes a turn tries to take the key's lock (`acquire` script): the lock holds a
 *   fencing token from one counter (INCR) and expires after a lease, which the holder renews while
 *   its handler runs. Only the lock holder runs the key's head job; it pops it only when done, and
 *   every step it records checks the token first, so a holder that stalled past its lease (and
 *   whose key another worker took) changes nothing: its signal is aborted and its `finish` is
 *   refused. Per-key order and one-at-a-time per key hold across processes.
 * - Whoever releases a key's lock tries to take it again at once, so a job pushed while the key
 *   was busy is never left without a worker: a turn that finds the key busy just ends.
 * - A retry sets the head's `runAfter` (backoff, at least the failure's retry-after) and adds a
 *   delayed turn for that time; the key's later jobs wait behind it.
 * - A dead head is marked dead, the dead-letter callback runs (still holding the key), then the
 *   head leaves the list; its hash is kept for the dedupe window and indexed in `…:dead`.
 * - A sweeper in each worker process adds a turn for every key whose head is due and unlocked:
 *   this is how a job whose worker died runs again (once the lease expired), and what recovers a
 *   turn lost between a script and its BullMQ add.
 * Durability is Redis's: run it with `appendonly yes` so a recorded job survives a Redis restart.
 */
import { Queue, Worker } from "bullmq";
import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Job, JobHandler, JobQueue, JobRun, ProcessOptions, QueueNotes, RetryPolicy } from "./job-queue.js";
import { ActiveRuns, until, type ActiveRun } from "./active-runs.js";
import { attempt as runAttempt, errorMessage, lostRunsError, retryPolicy } from "./outcome.js";
import { defineScripts, type ScriptName } from "./redis-scripts.js";

const DAY_MS = 86_400_000;
/** How long the readiness probe waits for PING. */
const PROBE_TIMEOUT_MS = 2_000;

export interface RedisJobQueueOptions {
  /** REDIS_URL, e.g. redis://127.0.0.1:6379/0 */
  url: string;
  /** Prefix of every key, and the BullMQ queue's name. Default "resolve-bot". */
  prefix?: string;
  /** How long a submitted id is refused again. Default 7 days. */
  dedupeTtlMs?: number;
  /** How long a key's lock outlives its holder's last renewal. Default 30 s. */
  leaseMs?: number;
  /** How often a worker process looks for keys nobody carries out. Default 5 s. */
  sweepMs?: number;
  /** Default close() grace. Default 10 s. */
  graceMs?: number;
  onError?: (message: string, error: unknown) => void;
}

interface TurnData {
  key: string;
}

class RedisRun implements ActiveRun {
  readonly controller = new AbortController();
  handedBack = false;
  lost = false;
  renewal?: NodeJS.Timeout;
  private giveBack!: () => void;
  /** Resolves when close() hands the run back: its turn stops waiting for the handler. */
  readonly handedBackSignal = new Promise<void>((resolve) => (this.giveBack = resolve));

  constructor(
    readonly key: string,
    readonly id: string,
    readonly fence: string,
  ) {}

  handBack(): void {
    this.handedBack = true;
    clearInterval(this.renewal);
    this.controller.abort(new Error("The job queue is closing: this job was handed back."));
    this.giveBack();
  }
}

interface Processing {
  handler: JobHandler;
  options: ProcessOptions;
  policy: RetryPolicy;
  worker: Worker<TurnData>;
  connection: Redis;
  sweeper: NodeJS.Timeout;
}

export class RedisJobQueue implements JobQueue {
  private readonly redis: Redis;
  private readonly script: (name: ScriptName, keys: string[], args: (string | number)[]) => Promise<unknown>;
  private readonly queue: Queue<TurnData>;
  private readonly runs = new ActiveRuns<RedisRun>();
  private readonly prefix: string;
  private readonly leaseMs: number;
  private readonly sweepMs: number;
  private readonly dedupeTtlMs: number;
  private processing: Processing | undefined;
  private closing = false;
  private closed = false;

  constructor(private readonly options: RedisJobQueueOptions) {
    this.prefix = options.prefix ?? "resolve-bot";
    this.leaseMs = options.leaseMs ?? 30_000;
    this.sweepMs = options.sweepMs ?? 5_000;
    this.dedupeTtlMs = options.dedupeTtlMs ?? 7 * DAY_MS;
    // Commands fail after a few reconnection attempts (a webhook must not hang on a dead Redis: it
    // answers an error and the delivery can be redelivered); BullMQ's worker connection (process())
    // waits for Redis instead, as BullMQ requires.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: 3 });
    this.script = defineScripts(this.redis);
    this.queue = new Queue<TurnData>(this.prefix, {
      connection: this.redis,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    // Without listeners, an 'error' event (Redis unreachable) would throw or be printed raw.
    this.redis.on("error", (error) => this.reportError("The job queue cannot reach Redis.", error));
    this.queue.on("error", (error) => this.reportError("The job queue cannot reach Redis.", error));
  }

  readonly notes: QueueNotes = {
    get: async (name) => (await this.redis.get(this.k("note", name))) ?? undefined,
    set: async (name, value) => void (await this.redis.set(this.k("note", name), value)),
  };

  async submit(job: Job): Promise<boolean> {
    if (this.closing) throw new Error("The job queue is closed.");
    const payload = JSON.stringify(job.payload) ?? "null";
    const recorded = await this.script(
      "submit",
      [this.k("dedupe", job.id), this.k("job", job.id), this.k("list", job.key), this.k("keys")],
      [this.dedupeTtlMs, job.key, payload, job.id],
    );
    if (recorded !== 1) return false;
    // The job is recorded: a lost wake-up only delays it until a sweep.
    await this.wake(job.key).catch((error: unknown) =>
      this.reportError(`Job ${job.id} is recorded but its worker wake-up failed; a sweep will start it.`, error),
    );
    return true;
  }

  process(handler: JobHandler, options: ProcessOptions): void {
    if (this.closing) throw new Error("The job queue is closed.");
    if (this.processing) throw new Error("This job queue is already processing jobs.");
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new Error(`concurrency must be a whole number of at least 1 (got ${options.concurrency}).`);
    }
    const policy = retryPolicy(options.retry);
    const connection = this.redis.duplicate({ maxRetriesPerRequest: null });
    const worker = new Worker<TurnData>(this.prefix, (turn) => this.turn(turn.data.key), {
      connection,
      concurrency: options.concurrency,
    });
    worker.on("error", (error) => this.reportError("The job worker lost its Redis connection.", error));
    const sweeper = setInterval(() => void this.sweep(), this.sweepMs);
    this.processing = { handler, options, policy, worker, connection, sweeper };
    void this.sweep();
  }

  async idle(): Promise<void> {
    await until(async () => {
      if (this.closed) return true;
      if (this.runs.size > 0) return false;
      return (await this.script("pending", [this.k("keys")], [this.k("list", "")])) === 0;
    });
  }

  async unreadyReason(): Promise<string | undefined> {
    if (this.closing) return "the job queue is closed";
    // Never a PING on a connection that is not up (it would wait in ioredis's offline queue): one
    // being made (just started, or reconnecting) gets the probe's time to come up.
    for (const [connection, what] of [
      [this.redis, "Redis is not reachable"],
      [this.processing?.connection, "the job worker's Redis connection is down"],
    ] as const) {
      if (connection && !(await connectedWithin(connection, PROBE_TIMEOUT_MS))) return `${what} (connection ${connection.status})`;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(resolve, PROBE_TIMEOUT_MS, "Redis did not answer PING within 2 s")));
    try {
      return await Promise.race([this.redis.ping().then(() => undefined), late]);
    } catch (error) {
      return `Redis does not answer: ${errorMessage(error)}`;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(graceMs = this.options.graceMs ?? 10_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const processing = this.processing;
    if (processing) clearInterval(processing.sweeper);
    // Stops fetching turns now; resolves once the turns in progress have returned.
    const workerClosed = processing?.worker.close();
    for (const run of await this.runs.drain(graceMs)) {
      run.handBack();
      try {
        await this.step("handBack", run, [this.k("lock", run.key), this.k("job", run.id)], [run.fence]);
        await this.wake(run.key);
      } catch (error) {
        this.reportError(`Could not hand job ${run.id} back; it runs again once its lease expires.`, error);
      }
    }
    await workerClosed;
    await this.queue.close();
    this.closed = true;
    await processing?.connection.quit();
    await this.redis.quit();
  }

  /** One BullMQ turn: carry out the key's jobs while this process can take its lock. */
  private async turn(key: string): Promise<void> {
    const processing = this.processing!;
    try {
      while (!this.closing) {
        const taken = (await this.script(
          "acquire",
          [this.k("lock", key), this.k("list", key), this.k("keys"), this.k("fence")],
          [this.k("job", ""), this.leaseMs, key],
        )) as string[];
        if (taken[0] === "busy" || taken[0] === "empty") return;
        if (taken[0] === "later") {
          const ms = Number(taken[1]);
          if (ms === 0) continue; // the head had no record left: it was dropped, look again
          await this.wake(key, ms);
          return;
        }
        const [, id, fence, attempt, payload, state, lastError] = taken as [string, ...string[]];
        const job: Job = { id: id!, key, payload: JSON.parse(payload!) as unknown };
        const run = new RedisRun(key, id!, fence!);
        const work = this.carryOut(run, job, Number(attempt), state === "dead" ? lastError! : undefined, processing, lastError !== "");
        this.runs.track(run, work);
        await Promise.race([work, run.handedBackSignal]);
      }
    } catch (error) {
      this.reportError(`A turn of key ${key} failed; a sweep will take the key up again.`, error);
    }
  }

  private async carryOut(
    run: RedisRun,
    job: Job,
    attempt: number,
    deadWith: string | undefined,
    processing: Processing,
    /** A run of this job started before (lastError is set by retries and hand-backs). */
    ranBefore: boolean,
  ): Promise<void> {
    run.renewal = setInterval(() => void this.renew(run), Math.max(10, Math.floor(this.leaseMs / 3)));
    try {
      if (deadWith !== undefined) return await this.deadLetter(run, job, new Error(deadWith), attempt, processing);
      if (attempt > processing.policy.maxAttempts) {
        // Its last attempt died with its worker: give it up rather than crash-loop.
        const error = lostRunsError(attempt - 1);
        if (await this.step("bury", run, [this.k("lock", run.key), this.k("job", run.id)], [run.fence, error.message]))
          await this.deadLetter(run, job, error, attempt - 1, processing);
        return;
      }
      const jobRun: JobRun = {
        attempt,
        rerun: attempt > 1 || ranBefore,
        signal: run.controller.signal,
      };
      const outcome = await runAttempt(processing.handler, job, jobRun, processing.policy);
      if (run.handedBack) return;
      const lock = this.k("lock", run.key);
      if (outcome.kind === "done") {
        await this.step("finish", run, [lock, this.k("list", run.key), this.k("job", run.id)], [run.fence]);
      } else if (outcome.kind === "retry") {
        const delay = outcome.delayMs;
        if (await this.step("retry", run, [lock, this.k("job", run.id)], [run.fence, delay, errorMessage(outcome.error)])) {
          processing.options.onRetry?.(job, outcome.error, attempt, delay);
          await this.wake(run.key, delay);
        }
      } else if (await this.step("bury", run, [lock, this.k("job", run.id)], [run.fence, errorMessage(outcome.error)])) {
        await this.deadLetter(run, job, outcome.error, attempt, processing);
      }
    } catch (error) {
      this.reportError(`Could not record the outcome of job ${job.id}; it runs again once its lease expires.`, error);
    } finally {
      clearInterval(run.renewal);
    }
  }

  /** Called while still holding the key, so the key's next job waits for the dead-letter reply. */
  private async deadLetter(run: RedisRun, job: Job, error: unknown, attempts: number, processing: Processing) {
    try {
      await processing.options.onDeadLetter?.(job, error, attempts);
    } catch (callbackError) {
      this.reportError(`The dead-letter callback failed for job ${job.id}.`, callbackError);
    }
    if (run.handedBack) return;
    await this.step(
      "buried",
      run,
      [this.k("lock", run.key), this.k("list", run.key), this.k("job", run.id), this.k("dead")],
      [run.fence, this.dedupeTtlMs, run.id],
    );
  }

  /** A fenced step: false (and reported) when this run no longer holds its key. */
  private async step(name: ScriptName, run: RedisRun, keys: string[], args: (string | number)[]): Promise<boolean> {
    if ((await this.script(name, keys, args)) === 1) return true;
    run.lost = true;
    this.reportError(
      `Job ${run.id} lost its lease on ${run.key} (fence ${run.fence}); its ${name} was not recorded ` +
        "and the worker now holding the key runs it.",
      undefined,
    );
    return false;
  }

  private async renew(run: RedisRun): Promise<void> {
    if (run.lost || run.handedBack) return;
    try {
      if ((await this.script("renew", [this.k("lock", run.key)], [run.fence, this.leaseMs])) === 1) return;
      run.lost = true;
      run.controller.abort(new Error(`The lease on ${run.key} expired and another worker took it.`));
    } catch (error) {
      this.reportError(`Could not renew the lease on ${run.key}.`, error);
    }
  }

  private async sweep(): Promise<void> {
    if (this.closing) return;
    try {
      const due = (await this.script("sweep", [this.k("keys")], [this.k("lock", ""), this.k("list", ""), this.k("job", "")])) as string[];
      // At most one sweep turn per key and period, whichever process sweeps (BullMQ ignores an add
      // whose jobId exists). Not one per key for ever: the process that took it may have died.
      const period = Math.floor(Date.now() / Math.max(this.sweepMs, this.leaseMs));
      for (const key of due) await this.wake(key, 0, `sweep-${createHash("sha1").update(key).digest("hex")}-${period}`);
    } catch (error) {
      if (!this.closing) this.reportError("The job sweep failed; it runs again shortly.", error);
    }
  }

  private async wake(key: string, delay = 0, jobId: string = randomUUID()): Promise<void> {
    await this.queue.add("turn", { key }, { delay, jobId });
  }

  private k(kind: string, name?: string): string {
    return name === undefined ? `${this.prefix}:jobs:${kind}` : `${this.prefix}:jobs:${kind}:${name}`;
  }

  private reportError(message: string, error: unknown): void {
    (this.options.onError ?? ((m: string, e: unknown) => console.error(m, e ?? "")))(message, error);
  }
}

/** Whether `connection` is up now or comes up within `ms` (a closed one never does). */
async function connectedWithin(connection: Redis, ms: number): Promise<boolean> {
  if (connection.status === "ready") return true;
  if (connection.status === "end") return false;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      onReady = () => resolve(true);
      connection.once("ready", onReady);
      timer = setTimeout(resolve, ms, false);
    });
  } finally {
    clearTimeout(timer);
    connection.off("ready", onReady!);
  }
}
