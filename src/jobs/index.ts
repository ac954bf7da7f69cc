/**
 * Which job queue this process uses: Redis (BullMQ) when REDIS_URL is set, to run several
 * processes; otherwise the embedded SQLite queue in RESOLVE_BOT_DATA_DIR (default ./.data).
 */
import path from "node:path";
import type { JobQueue } from "./job-queue.js";
import { RedisJobQueue } from "./redis-queue.js";
import { SqliteJobQueue } from "./sqlite-queue.js";

export * from "./job-queue.js";
export { RedisJobQueue, type RedisJobQueueOptions } from "./redis-queue.js";
export { SqliteJobQueue, type SqliteJobQueueOptions } from "./sqlite-queue.js";

export interface JobQueueEnv {
  REDIS_URL?: string | undefined;
  RESOLVE_BOT_DATA_DIR?: string | undefined;
  RESOLVE_BOT_JOB_CONCURRENCY?: string | undefined;
}

/** Jobs (pull requests) a worker process carries out at once: RESOLVE_BOT_JOB_CONCURRENCY, default 4. */
export function jobConcurrency(env: JobQueueEnv): number {
  const text = env.RESOLVE_BOT_JOB_CONCURRENCY?.trim();
  if (!text) return 4;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`RESOLVE_BOT_JOB_CONCURRENCY must be a whole number of at least 1 (got "${text}").`);
  }
  return value;
}

export function openJobQueue(env: JobQueueEnv, onError?: (message: string, error: unknown) => void): JobQueue {
  const url = env.REDIS_URL?.trim();
  if (url) return new RedisJobQueue({ url, ...(onError && { onError }) });
  const dataDir = path.resolve(env.RESOLVE_BOT_DATA_DIR?.trim() || ".data");
  return new SqliteJobQueue({ dataDir, ...(onError && { onError }) });
}
