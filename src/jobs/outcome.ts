/**
 * What becomes of a job after one attempt — shared by every queue so that retries, backoff and the
 * dead letter mean the same thing whatever stores the jobs.
 */
import { RetryableJobError, defaultRetryPolicy, type Job, type JobHandler, type JobRun, type RetryPolicy } from "./job-queue.js";

export type Outcome = { kind: "done" } | { kind: "retry"; delayMs: number; error: unknown } | { kind: "dead"; error: unknown };

export function retryPolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...overrides };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new Error(`retry.maxAttempts must be a whole number of at least 1 (got ${policy.maxAttempts}).`);
  }
  return policy;
}

/** Exponential backoff, never shorter than what the failure asked for (retry-after). */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs = 0): number {
  const exponential = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(exponential, retryAfterMs);
}

/** Runs one attempt of a job and says what becomes of it. */
export async function attempt(handler: JobHandler, job: Job, run: JobRun, policy: RetryPolicy): Promise<Outcome> {
  try {
    await handler(job, run);
    return { kind: "done" };
  } catch (error) {
    if (error instanceof RetryableJobError && run.attempt < policy.maxAttempts) {
      return { kind: "retry", delayMs: backoffDelay(policy, run.attempt, error.retryAfterMs), error };
    }
    return { kind: "dead", error };
  }
}

/** The error a job was given up with when the process that ran its last attempt died. */
export function lostRunsError(attempts: number): Error {
  return new Error(`The process running this job stopped before it finished, ${attempts} time(s).`);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
