/**
 * How many worker threads run tools, and how much time and memory each run may take — from the
 * server's environment, never from a repository.
 */
import os from "node:os";
import { toolTimeLimitMs } from "../core/execution.js";

export interface WorkerPoolSettings {
  /** Worker threads, i.e. requests carried out at once (RESOLVE_BOT_WORKERS). */
  workers: number;
  /** Old-generation heap of one worker (RESOLVE_BOT_WORKER_MEMORY_MB). */
  memoryMb: number;
  /** Young-generation heap of one worker, on top of memoryMb. */
  youngGenerationMb: number;
  /** Default time limit of one command (RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS). */
  timeLimitMs: number;
  /**
   * The worker is terminated this long after the time limit: a tool that hangs asynchronously is
   * first stopped in the worker by core/execution's limit (the same sentence, and the request goes
   * on to its next command); termination is for what that cannot stop (a synchronous loop).
   */
  stopGraceMs: number;
  /** A worker is replaced after this many tasks, so what one request leaves behind never piles up. */
  recycleAfterTasks: number;
  /** …or sooner, when its heap is above this after a task. */
  recycleAboveHeapMb: number;
}

/**
 * A worker's default heap: what an editor gives its TypeScript server (VS Code's
 * `typescript.tsserver.maxTsServerMemory` is 3072 MB), since /rename-symbol and /move load
 * projects as tsserver does; on a smaller machine, an equal share of three quarters of its memory
 * per worker (the rest is for the server, git and the ast-grep CLI), but never below 512 MB.
 */
export const EDITOR_MEMORY_MB = 3072;
const MACHINE_SHARE = 0.75;
const MIN_DEFAULT_MEMORY_MB = 512;

export function defaultWorkerMemoryMb(workers: number, totalMemoryBytes = os.totalmem()): number {
  const share = Math.floor((totalMemoryBytes * MACHINE_SHARE) / workers / (1024 * 1024));
  return Math.max(MIN_DEFAULT_MEMORY_MB, Math.min(EDITOR_MEMORY_MB, share));
}
const YOUNG_GENERATION_MB = 64;
const RECYCLE_AFTER_TASKS = 50;
const STOP_GRACE_MS = 5000;

/** One worker per core, at least 2 (one heavy request never holds up every other PR) and at most 8. */
export function defaultWorkerCount(): number {
  return Math.min(8, Math.max(2, os.availableParallelism()));
}

export function workerPoolSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerPoolSettings {
  const workers = wholeNumber(env, "RESOLVE_BOT_WORKERS", defaultWorkerCount(), 1);
  const memoryMb = wholeNumber(env, "RESOLVE_BOT_WORKER_MEMORY_MB", defaultWorkerMemoryMb(workers), 64);
  return {
    workers,
    memoryMb,
    youngGenerationMb: YOUNG_GENERATION_MB,
    timeLimitMs: toolTimeLimitMs(env),
    stopGraceMs: STOP_GRACE_MS,
    recycleAfterTasks: RECYCLE_AFTER_TASKS,
    recycleAboveHeapMb: Math.floor(memoryMb / 2),
  };
}

/** A misconfigured server should say so at start, not run with a limit nobody chose. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min} (got "${text}").`);
  }
  return value;
}
