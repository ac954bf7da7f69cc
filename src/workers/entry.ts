/**
 * The function piscina calls in a worker thread for every task: imports the task's module, calls
 * the named export with the task's input, and returns its value with how much heap the worker
 * holds afterwards (the pool replaces a worker that grew too large). A thrown error comes back as
 * a value, so the pool can tell "the task failed" from "the worker died".
 */
import { type MessagePort, threadId, workerData } from "node:worker_threads";
import { takeObservations, type Observation } from "../ops/observations.js";
import { withProgressPort } from "./progress.js";

export interface EntryTask {
  /** File URL (or absolute path) of an ES module. */
  module: string;
  export: string;
  input: unknown;
  port: MessagePort;
}

/**
 * `threadId` and `heapUsedBytes` tell the pool which worker ran it and how large it has grown;
 * `observations` are the thread's metrics since its last task (ops/observations.ts says why here).
 */
export type EntryResult = { threadId: number; heapUsedBytes: number; observations: Observation[] } & (
  { kind: "value"; value: unknown } | { kind: "thrown"; error: string }
);

/** The pool's warm-up (pool.ts): piscina imports this module, and awaits it, before the worker takes a task. */
const warmUp = (workerData as { warmUp?: { module: string; export: string } } | null)?.warmUp;
if (warmUp !== undefined) {
  try {
    const module = (await import(warmUp.module)) as Record<string, unknown>;
    await (module[warmUp.export] as () => Promise<void>)();
  } catch {
    // Nothing is lost: the first task loads what it needs, and says what failed.
  }
}

export default async function runEntryTask(task: EntryTask): Promise<EntryResult> {
  try {
    const value = await withProgressPort(task.port, async () => {
      const module = (await import(task.module)) as Record<string, unknown>;
      const run = module[task.export];
      if (typeof run !== "function") throw new Error(`${task.module} has no function export "${task.export}".`);
      return await (run as (input: unknown) => unknown)(task.input);
    });
    return { kind: "value", value, ...worker() };
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { kind: "thrown", error: text, ...worker() };
  }
}

function worker(): { threadId: number; heapUsedBytes: number; observations: Observation[] } {
  return { threadId, heapUsedBytes: process.memoryUsage().heapUsed, observations: takeObservations() };
}
