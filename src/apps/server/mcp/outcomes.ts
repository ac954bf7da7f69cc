/**
 * An agent's tool call waits for its request's outcome when this process carries the job out
 * (RESOLVE_BOT_ROLE=all): the worker settles it here by request id. The wait is bounded; past it,
 * or when another process runs the jobs (`server` role), the call answers that the request is
 * queued and where its answer will be (the pull request). Nothing here is durable: the job is.
 */
import type { ExecuteResult } from "../../../pipeline/forge.js";

export type Outcome = { done: true; result: ExecuteResult | undefined } | { done: false };

export class Outcomes {
  private readonly waiting = new Map<string, (result: ExecuteResult | undefined) => void>();

  /** Starts waiting for `id` (before the request is submitted, so a quick job is not missed). */
  expect(id: string, timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ done: false });
      }, timeoutMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve({ done: true, result });
      });
    });
  }

  /** The job of request `id` ended (`undefined`: the pool stopped it, and said so on the pull request). */
  settle(id: string, result: ExecuteResult | undefined): void {
    this.waiting.get(id)?.(result);
  }
}
