/**
 * The pool as built (dist/): its workers load dist/src/workers/entry.js and the fixtures import
 * dist modules, because jest's TypeScript transform does not apply inside worker threads.
 * Run `npm run build` first.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { WorkerPoolSettings } from "../../src/workers/limits.js";
import type { WorkerPool } from "../../src/workers/pool.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A built pool with small limits; errors of workers between tasks are collected in `errors`. */
export async function startPool(overrides: Partial<WorkerPoolSettings> = {}, errors: Error[] = []): Promise<WorkerPool> {
  const built = (await import(path.join(root, "dist/src/workers/pool.js"))) as typeof import("../../src/workers/pool.js");
  return new built.WorkerPool(testSettings(overrides), { onWorkerError: (error) => errors.push(error) });
}

export const fixture = (name: string): URL => new URL(`./fixtures/${name}`, import.meta.url);

/** Small limits, so that a test's hang or memory blow-up ends fast. */
function testSettings(overrides: Partial<WorkerPoolSettings> = {}): WorkerPoolSettings {
  return {
    workers: 2,
    memoryMb: 64,
    youngGenerationMb: 16,
    timeLimitMs: 1000,
    stopGraceMs: 0,
    recycleAfterTasks: 50,
    recycleAboveHeapMb: 48,
    ...overrides,
  };
}
