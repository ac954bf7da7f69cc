/**
 * Requests run in worker threads, never on the server's event loop (piscina): the whole request
 * (configuration, stack, tools, commit and reply; runner/worker-task.ts), not only its tools.
 *
 * `run(task, limits)` imports `task.module` in a worker, calls its export `task.export` with
 * `task.input` (plain JSON) and resolves to a `WorkerOutcome` — it never rejects for what the task
 * or its worker did:
 * - time limit: the clock starts when a worker picks the task up and restarts at each
 *   `reportCommand`; `stopGraceMs` after the limit the worker thread is terminated, which stops
 *   even a synchronous `for(;;){}` (an in-process timer cannot);
 * - memory: each worker has a V8 heap limit (`resourceLimits`); a task above it ends its worker;
 * - a worker that exited, threw outside the task, was terminated or ran out of memory is replaced;
 *   the other workers' tasks go on.
 * Parse trees and TypeScript programs live in the worker: they go when it does. A worker is also
 * replaced after `recycleAfterTasks` tasks, or after a task that left its heap above
 * `recycleAboveHeapMb`, so caches and leaks never pile up across requests.
 */
import { pathToFileURL } from "node:url";
import { types } from "node:util";
import { Piscina } from "piscina";
import type { Observation } from "../ops/observations.js";
import type { EntryResult, EntryTask } from "./entry.js";
import type { WorkerPoolSettings } from "./limits.js";
import { type StopReason, type WorkerOutcome, stoppedMessage } from "./outcome.js";
import { TaskWatch } from "./task-watch.js";

export interface WorkerTask<I = unknown> {
  /** An ES module (file URL or absolute path), e.g. `new URL("../pipeline/execute.js", import.meta.url)`. */
  module: URL | string;
  /** The exported function to call with `input`; what it returns must be structured-cloneable. */
  export: string;
  input: I;
}

export interface RunLimits {
  /** What the reply calls the work until the task reports a command, e.g. "`/move`". */
  label: string;
  /** Per command; defaults to the pool's (RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS). */
  timeLimitMs?: number;
  /** Stops the task (its worker is terminated): the job was cancelled or the server is closing. */
  signal?: AbortSignal;
}

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>["loadBalancer"]>;
/** piscina's view of one worker (the type is not exported by name). */
type PoolWorker = Parameters<LoadBalancer>[1][number];

export interface WorkerPoolOptions {
  /** Errors of workers between tasks (no reply to give); the server logs them. */
  onWorkerError: (error: Error) => void;
  /** The worker entry; the built one next to this module by default. */
  entry?: URL;
  /** What a task's thread observed (metrics), handed over with each task's result. */
  onObservations?: (observations: Observation[]) => void;
  /**
   * A function each worker runs when it starts, before it takes a task (entry.ts): loading the
   * modules and building what the tasks will need, so that the first request after the server
   * starts (or a worker is replaced) does not pay for it. Its failure is ignored (the first task
   * then meets it, and says it).
   */
  warmUp?: { module: URL | string; export: string };
}

/** The built entry next to this module (dist/src/workers/entry.js). */
const DEFAULT_ENTRY = new URL("./entry.js", import.meta.url);

export class WorkerPool {
  readonly #pool: Piscina;
  readonly #settings: WorkerPoolSettings;
  /** Live workers by thread id. */
  readonly #workers = new Map<number, PoolWorker>();
  /** Tasks given to each worker, for recycling. */
  readonly #dispatched = new Map<number, number>();
  /** Workers that take no new task and are terminated once idle. */
  readonly #retiring = new Set<number>();
  /** close() or destroy() was called: what fails from now on was cancelled. */
  #closing = false;
  /** Heap in use of each live worker after its latest task. */
  readonly #heapUsed = new Map<number, number>();
  readonly #onObservations: ((observations: Observation[]) => void) | undefined;

  constructor(settings: WorkerPoolSettings, options: WorkerPoolOptions) {
    this.#settings = settings;
    this.#onObservations = options.onObservations;
    this.#pool = new Piscina({
      filename: (options.entry ?? DEFAULT_ENTRY).href,
      minThreads: settings.workers,
      maxThreads: settings.workers,
      concurrentTasksPerWorker: 1,
      // Between tasks a worker's event loop keeps running (a tool's late clean-up), instead of
      // blocking in Atomics.wait.
      atomics: "disabled",
      resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb, maxYoungGenerationSizeMb: settings.youngGenerationMb },
      ...(options.warmUp ? { workerData: { warmUp: { module: moduleUrl(options.warmUp.module), export: options.warmUp.export } } } : {}),
      // The only place piscina lets us say "not this worker": retiring workers get no task, so
      // terminating one never races a task being handed to it.
      loadBalancer: (_task, workers) => this.#pickWorker(workers),
    });
    // A worker that failed while running no task (an error thrown by a timer a finished task left
    // behind): piscina replaces it and emits this; unheard, it would end the server.
    this.#pool.on("error", (error: unknown) => options.onWorkerError(toError(error)));
    this.#pool.on("workerCreate", (worker: PoolWorker) => this.#workers.set(worker.id, worker));
    this.#pool.on("workerDestroy", (worker: PoolWorker) => {
      this.#workers.delete(worker.id);
      this.#dispatched.delete(worker.id);
      this.#retiring.delete(worker.id);
      this.#heapUsed.delete(worker.id);
    });
  }

  get settings(): WorkerPoolSettings {
    return this.#settings;
  }

  /** Why the pool cannot take tasks now (GET /readyz), or undefined when it can. */
  unreadyReason(): string | undefined {
    if (this.#closing) return "the worker pool is shutting down";
    if (this.#workers.size === 0) return "no worker thread is running";
    return undefined;
  }

  /** For GET /metrics: live threads, and the heap they reported after their latest tasks. */
  gauges(): { threads: number; heapUsedBytes: number } {
    let heapUsedBytes = 0;
    for (const [id, bytes] of this.#heapUsed) if (this.#workers.has(id)) heapUsedBytes += bytes;
    return { threads: this.#workers.size, heapUsedBytes };
  }

  async run<I, O>(task: WorkerTask<I>, limits: RunLimits): Promise<WorkerOutcome<O>> {
    const { timeLimitMs, stopGraceMs } = this.#settings;
    const watch = new TaskWatch(limits.label, limits.timeLimitMs ?? timeLimitMs, stopGraceMs, limits.signal);
    const entryTask: EntryTask = { module: moduleUrl(task.module), export: task.export, input: task.input, port: watch.workerPort };
    try {
      const result = (await this.#pool.run(entryTask, { transferList: [watch.workerPort], signal: watch.signal })) as EntryResult;
      this.#afterTask(result);
      if (result.kind === "value") return { ok: true, value: result.value as O };
      return this.#stopped("crashed", watch, result.error);
    } catch (error) {
      const reason = watch.reason ?? (isOutOfMemory(error) ? "memory-limit" : this.#closing ? "aborted" : "crashed");
      return this.#stopped(reason, watch, toError(error).message);
    } finally {
      watch.end();
    }
  }

  /** Waits for running tasks, then ends every worker. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#pool.close();
  }

  /** Ends every worker now; running tasks come back as `aborted`. */
  async destroy(): Promise<void> {
    this.#closing = true;
    await this.#pool.destroy();
  }

  #stopped<O>(reason: StopReason, watch: TaskWatch, detail: string): WorkerOutcome<O> {
    return { ok: false, reason, message: stoppedMessage(reason, watch.facts(this.#settings.memoryMb)), detail };
  }

  #pickWorker(workers: PoolWorker[]): PoolWorker | null {
    for (const worker of workers) {
      if (worker.currentUsage > 0 || worker.terminating || worker.destroyed || this.#retiring.has(worker.id)) continue;
      const count = (this.#dispatched.get(worker.id) ?? 0) + 1;
      this.#dispatched.set(worker.id, count);
      if (count >= this.#settings.recycleAfterTasks) this.#retiring.add(worker.id);
      return worker;
    }
    return null;
  }

  /** Retires the worker that just finished if its heap grew too large; ends idle retiring workers. */
  #afterTask({ threadId, heapUsedBytes, observations }: EntryResult): void {
    this.#heapUsed.set(threadId, heapUsedBytes);
    if (observations.length > 0) this.#onObservations?.(observations);
    if (heapUsedBytes > this.#settings.recycleAboveHeapMb * 1024 * 1024) this.#retiring.add(threadId);
    for (const id of this.#retiring) {
      const worker = this.#workers.get(id);
      if (!worker || worker.currentUsage > 0 || worker.terminating) continue;
      // piscina sees the exit, forgets the worker and starts a replacement (minThreads).
      void this.#pool.threads.find((thread) => thread.threadId === id)?.terminate();
    }
  }
}

function moduleUrl(module: URL | string): string {
  if (module instanceof URL) return module.href;
  return module.startsWith("file:") ? module : pathToFileURL(module).href;
}

function toError(error: unknown): Error {
  // isNativeError: also an Error from another realm (jest's), where instanceof fails.
  return types.isNativeError(error) ? error : new Error(String(error));
}

function isOutOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
}
