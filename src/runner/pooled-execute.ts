/**
 * Requests carried out in the worker pool, never on the server's event loop. What the pool stops
 * (a time limit, a memory limit, a crash) is answered on the pull request from here, since the
 * worker that would have answered is gone; a cancelled run (shutdown, lost lease), and one that
 * GitHub failed for now (pipeline/transient), are handed back to the queue to run again.
 */
import { RetryableJobError } from "../jobs/job-queue.js";
import type { WorkerPool } from "../workers/pool.js";
import { observeStopped } from "../pipeline/command-metrics.js";
import type { ExecuteResult, RequestTask } from "../pipeline/forge.js";
import type { PipelineLog } from "../pipeline/ports.js";
import { awaitsReply, requestKey, type Request } from "../pipeline/request.js";
import { requestLog } from "../pipeline/request-log.js";

/** What a worker thread runs: the composition root above this layer picks the forge adapter (src/runner/forge-registry.ts). */
const TASK = { module: new URL("./worker-task.js", import.meta.url), export: "executeRequestTask" };
/** What each worker does when it starts (workers/pool.ts): loads and builds what TASK needs. */
export const WORKER_WARM_UP = { module: TASK.module, export: "warmUpWorker" };

/** How a stop reply names the work before the worker said which command it was on. */
function requestLabel(request: Request): string {
  const intent = request.intent;
  if (intent.kind === "commands") return intent.commands.length === 1 ? `\`/${intent.commands[0]!.typed}\`` : "This comment's commands";
  if (intent.kind === "resolve-newest") return "`/resolve`";
  return "resolve-bot's update of this pull request";
}

interface StoppedRequestReply {
  /** Says `message` on the pull request (and marks the comment as failed). */
  (request: Request, message: string): Promise<void>;
}

export function pooledExecute(pool: WorkerPool, log: PipelineLog, replyStopped: StoppedRequestReply) {
  return async (request: Request, signal?: AbortSignal, rerun = false): Promise<ExecuteResult | undefined> => {
    const started = performance.now();
    const outcome = await pool.run<RequestTask, ExecuteResult>(
      { ...TASK, input: { request, rerun } },
      { label: requestLabel(request), ...(signal ? { signal } : {}) },
    );
    const retry = outcome.ok ? outcome.value.retry : undefined;
    if (retry) {
      // GitHub failed for now: the queue runs the job again after its backoff (or replies as a dead
      // letter); the intake logs the retry with its wait.
      throw new RetryableJobError(`GitHub failed for now (${requestKey(request)}): ${retry.message}`, retry.retryAfterMs);
    }
    if (outcome.ok) return outcome.value;
    if (outcome.reason === "aborted") throw new RetryableJobError(outcome.message);
    observeStopped(request, outcome.reason, (performance.now() - started) / 1000);
    requestLog(log, request).error(
      { err: new Error(`${outcome.reason}: ${outcome.detail ?? outcome.message}`) },
      "resolve-bot request stopped",
    );
    // Only someone who asked is waiting for an answer; a push or an opened PR is only logged.
    if (awaitsReply(request.origin)) await replyStopped(request, outcome.message);
    return undefined;
  };
}
