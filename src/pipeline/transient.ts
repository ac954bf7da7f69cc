/**
 * Failures that say nothing about the request: the forge answered 5xx, limited the rate, or the
 * connection dropped — after its client's own retries. Such a request is not answered with an
 * apology: it is tried again later by the job queue (pooled-execute throws RetryableJobError), and
 * only when the queue gives up does the dead letter reply.
 *
 * Recognised by shape, as HTTP clients report them (Octokit's RequestError: `status`, and
 * `response.headers` when an answer came; a failed connection is a 500 without one).
 */

/** A request that failed for now; `retryAfterMs` when the forge said how long to wait. */
export class TransientFailure extends Error {
  override name = "TransientFailure";
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

interface HttpError {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
}

/** How long the answer asks to wait: `retry-after` (seconds), or until a spent rate limit resets. */
function retryAfterMs(headers: Record<string, string | number | undefined>, now: number): number | undefined {
  const retryAfter = Number(headers["retry-after"]);
  if (headers["retry-after"] !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter * 1000);
  const reset = Number(headers["x-ratelimit-reset"]);
  if (String(headers["x-ratelimit-remaining"]) === "0" && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  return undefined;
}

/** The error as a TransientFailure when it is one (its cause kept), else undefined. */
export function transientFailure(error: unknown, now = Date.now()): TransientFailure | undefined {
  if (error instanceof TransientFailure) return error;
  const { status, message, response } = (error ?? {}) as HttpError;
  if (typeof status !== "number") return undefined;
  const headers = response?.headers ?? {};
  const wait = retryAfterMs(headers, now);
  const limited = status === 429 || (status === 403 && (wait !== undefined || /secondary rate limit/i.test(String(message))));
  if (status < 500 && !limited) return undefined;
  return new TransientFailure(`${status}: ${String(message)}`, wait, { cause: error });
}
