import os from "node:os";
import { DEFAULT_MEMORY_MB, defaultWorkerCount, workerPoolSettingsFromEnv } from "../../src/workers/limits.js";

test("defaults: 120 s per command, 1024 MB per worker, a worker per core (2 to 8)", () => {
  expect(workerPoolSettingsFromEnv({})).toEqual({
    workers: Math.min(8, Math.max(2, os.availableParallelism())),
    memoryMb: DEFAULT_MEMORY_MB,
    youngGenerationMb: 64,
    timeLimitMs: 120_000,
    stopGraceMs: 5000,
    recycleAfterTasks: 50,
    recycleAboveHeapMb: 512,
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
