/**
 * Which job queue this process uses: Redis (BullMQ) when REDIS_URL is set, to run several
 * processes; otherwise the embedded SQLite queue in RESOLVE_BOT_DATA_DIR (default ./.data).
 */
import path from "node:path";
import type { JobQueue, RetryPolicy } from "./job-queue.js";
import { RedisJobQueue } from "./redis-queue.js";
import { SqliteJobQueue } from "./sqlite-queue.js";

export * from "./job-queue.js";
export { RedisJobQueue, type RedisJobQueueOptions } from "./redis-queue.js";
export { DataDirHeld, SqliteJobQueue, type SqliteJobQueueOptions } from "./sqlite-queue.js";

export interface JobQueueEnv {
  REDIS_URL?: string | undefined;
  RESOLVE_BOT_DATA_DIR?: string | undefined;
  RESOLVE_BOT_JOB_CONCURRENCY?: string | undefined;
  RESOLVE_BOT_JOB_ATTEMPTS?: string | undefined;
  RESOLVE_BOT_JOB_BACKOFF_MS?: string | undefined;
}

/** A whole-number setting of at least `min`; undefined when not set. */
function wholeNumber(name: keyof JobQueueEnv, env: JobQueueEnv, min: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of at least ${min} (got "${text}").`);
  return value;
}

/** Jobs (pull requests) a worker process carries out at once: RESOLVE_BOT_JOB_CONCURRENCY, default 4. */
export function jobConcurrency(env: JobQueueEnv): number {
  return wholeNumber("RESOLVE_BOT_JOB_CONCURRENCY", env, 1) ?? 4;
}

/**
 * Retries of a job GitHub failed for now: RESOLVE_BOT_JOB_ATTEMPTS in all (default 5) and the first
 * backoff, RESOLVE_BOT_JOB_BACKOFF_MS (default 1000, doubling after each attempt).
 */
export function jobRetryPolicy(env: JobQueueEnv): Partial<RetryPolicy> {
  const maxAttempts = wholeNumber("RESOLVE_BOT_JOB_ATTEMPTS", env, 1);
  const backoffMs = wholeNumber("RESOLVE_BOT_JOB_BACKOFF_MS", env, 0);
  return { ...(maxAttempts !== undefined && { maxAttempts }), ...(backoffMs !== undefined && { backoffMs }) };
}

export function openJobQueue(env: JobQueueEnv, onError?: (message: string, error: unknown) => void): JobQueue {
  const url = env.REDIS_URL?.trim();
  if (url) return new RedisJobQueue({ url, ...(onError && { onError }) });
  const dataDir = path.resolve(env.RESOLVE_BOT_DATA_DIR?.trim() || ".data");
  return new SqliteJobQueue({ dataDir, ...(onError && { onError }) });
}
