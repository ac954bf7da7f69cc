/**
 * What a task running in a pool worker tells the pool while it runs, over a port of its own:
 * which command it is on (each command gets the full time limit, and a stop reply names it) and
 * when it starts writing (from then on a stop reply no longer says "nothing was changed").
 *
 * Code that may or may not run in a pool worker (the pipeline) calls `reportCommand` and
 * `reportWriting` unconditionally: outside a pool task they do nothing.
 */
import type { MessagePort } from "node:worker_threads";

export type ProgressMessage = { type: "started" } | { type: "command"; label: string } | { type: "writing" };

/** The port of the task this worker is running (one task per worker at a time). */
let current: MessagePort | undefined;

/** A new command starts: its time limit starts afresh, and a stop reply names it (e.g. "`/move`"). */
export function reportCommand(label: string): void {
  post({ type: "command", label });
}

/** The task is about to change the branch (create a commit, move a ref, post a reply). */
export function reportWriting(): void {
  post({ type: "writing" });
}

function post(message: ProgressMessage): void {
  current?.postMessage(message);
}

/** Pool entry only: routes reports to `port` while `run` runs. */
export async function withProgressPort<T>(port: MessagePort, run: () => Promise<T>): Promise<T> {
  current = port;
  post({ type: "started" });
  try {
    return await run();
  } finally {
    current = undefined;
    port.close();
  }
}
