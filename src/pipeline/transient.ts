/**
 * Failures that say nothing about the request: the forge answered 5xx, limited the rate, or the
 * connection dropped — after its client's own retries. Such a request is not answered with an
 * apology: it is tried again later by the job queue (pooled-execute throws RetryableJobError), and
 * only when the queue gives up does the dead letter reply. Which errors are such failures only the
 * forge's adapter can tell (GitHub: forges/github/api/http-errors.ts); it says so through `Ports.transient`.
 * An adapter also throws one when a write lost a race that running the request again wins (another
 * request's apply moved the branch first: forges/github/edits/commit-writer.ts).
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
