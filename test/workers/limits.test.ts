import os from "node:os";
import { defaultWorkerCount, defaultWorkerMemoryMb, workerPoolSettingsFromEnv } from "../../src/workers/limits.js";

test("defaults: 120 s per command, an editor's TypeScript memory per worker (or a share of the machine), a worker per core (2 to 8)", () => {
  const workers = Math.min(8, Math.max(2, os.availableParallelism()));
  const memoryMb = defaultWorkerMemoryMb(workers);
  expect(workerPoolSettingsFromEnv({})).toEqual({
    workers,
    memoryMb,
    youngGenerationMb: 64,
    timeLimitMs: 120_000,
    stopGraceMs: 5000,
    recycleAfterTasks: 50,
    recycleAboveHeapMb: Math.floor(memoryMb / 2),
  });
  expect(defaultWorkerCount()).toBeGreaterThanOrEqual(2);
});

test("the server's environment sets them", () => {
  const settings = workerPoolSettingsFromEnv({
    RESOLVE_BOT_WORKERS: "3",
    RESOLVE_BOT_WORKER_MEMORY_MB: "2048",
    RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: "30",
  });
  expect(settings).toMatchObject({ workers: 3, memoryMb: 2048, timeLimitMs: 30_000, recycleAboveHeapMb: 1024 });
});

test.each([
  ["RESOLVE_BOT_WORKERS", "0", 'RESOLVE_BOT_WORKERS must be a whole number of at least 1 (got "0").'],
  ["RESOLVE_BOT_WORKERS", "two", 'RESOLVE_BOT_WORKERS must be a whole number of at least 1 (got "two").'],
  ["RESOLVE_BOT_WORKER_MEMORY_MB", "1.5", 'RESOLVE_BOT_WORKER_MEMORY_MB must be a whole number of at least 64 (got "1.5").'],
  ["RESOLVE_BOT_WORKER_MEMORY_MB", "32", 'RESOLVE_BOT_WORKER_MEMORY_MB must be a whole number of at least 64 (got "32").'],
])("%s=%s is refused at start with a clear message", (name, value, message) => {
  expect(() => workerPoolSettingsFromEnv({ [name]: value })).toThrow(message);
});

test("a worker's default heap: 3 GB like an editor's tsserver, or three quarters of a small machine shared by the workers", () => {
  const gb = 1024 ** 3;
  expect(defaultWorkerMemoryMb(2, 24 * gb)).toBe(3072);
  expect(defaultWorkerMemoryMb(8, 24 * gb)).toBe(2304);
  expect(defaultWorkerMemoryMb(2, 4 * gb)).toBe(1536);
  expect(defaultWorkerMemoryMb(4, 1 * gb)).toBe(512);
  expect(workerPoolSettingsFromEnv({ RESOLVE_BOT_WORKERS: "8" }).memoryMb).toBe(defaultWorkerMemoryMb(8));
});
