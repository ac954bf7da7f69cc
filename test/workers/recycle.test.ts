/** Workers are replaced before what requests leave behind piles up. */
import type { WorkerPool } from "../../src/workers/pool.js";
import type { WorkerPoolSettings } from "../../src/workers/limits.js";
import { fixture, startPool } from "./built.js";

const tasks = fixture("tasks.mjs");
const pools: WorkerPool[] = [];

async function onePool(overrides: Partial<WorkerPoolSettings>): Promise<WorkerPool> {
  const pool = await startPool({ workers: 1, ...overrides });
  pools.push(pool);
  return pool;
}
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.destroy()));
});

async function threadOf(pool: WorkerPool, name = "echo", input: unknown = {}): Promise<number> {
  // No test here is about the time limit: a loaded machine must not stop a task for being slow.
  const outcome = await pool.run<unknown, { threadId: number }>(
    { module: tasks, export: name, input },
    { label: `\`/${name}\``, timeLimitMs: 60_000 },
  );
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.value.threadId;
}

test("a worker is replaced after recycleAfterTasks tasks", async () => {
  const pool = await onePool({ recycleAfterTasks: 3 });
  const threads = [];
  for (let i = 0; i < 7; i++) threads.push(await threadOf(pool));
  expect(new Set(threads.slice(0, 3)).size).toBe(1);
  expect(new Set(threads.slice(3, 6)).size).toBe(1);
  expect(threads[3]).not.toBe(threads[0]);
  expect(threads[6]).not.toBe(threads[3]);
});

test("queued tasks are never lost while a worker is replaced", async () => {
  const pool = await onePool({ recycleAfterTasks: 2 });
  const outcomes = await Promise.all(
    Array.from({ length: 9 }, (_, i) =>
      pool.run<unknown, { input: number }>({ module: tasks, export: "echo", input: i }, { label: "`/echo`", timeLimitMs: 60_000 }),
    ),
  );
  expect(outcomes.map((outcome) => outcome.ok && outcome.value.input)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
});

test("a worker whose heap stays large after a task is replaced", async () => {
  const pool = await onePool({ memoryMb: 256, recycleAboveHeapMb: 48 });
  const first = await threadOf(pool, "retain", { mb: 2 });
  expect(await threadOf(pool, "retain", { mb: 2 })).toBe(first);
  expect(await threadOf(pool, "retain", { mb: 60 })).toBe(first);
  // That task left more than 48 MB in use: the next task gets a fresh worker.
  expect(await threadOf(pool)).not.toBe(first);
});
