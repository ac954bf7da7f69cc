/**
 * What a failed GitHub request means, read in one place. Octokit reports a failure as a
 * RequestError: `status`, and `response` (headers, GitHub's `{ message }`) when an answer came; a
 * connection that failed is a 500 without one. Everything else in the adapter asks this module
 * instead of looking at statuses itself, so a rate limit is never mistaken for a refusal, nor a
 * refusal for an outage.
 */
import { TransientFailure } from "../../../pipeline/transient.js";

export interface HttpFailure {
  status: number;
  /** GitHub's own message (`response.data.message`), else the error's. */
  message: string;
  /**
   * GitHub may answer differently later: a 5xx, a dropped connection, a primary or secondary rate
   * limit. Such a failure is a job retry, never a reply.
   */
  transient: boolean;
  /** How long GitHub asked to wait (`retry-after`, or until a spent rate limit resets). */
  retryAfterMs?: number;
  /** A 5xx or a dropped connection: the write may have been carried out although it failed. */
  mayHaveWritten: boolean;
}

interface RequestErrorShape {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** How long the answer asks to wait: `retry-after` (seconds), or until a spent rate limit resets. */
function retryAfterMs(headers: Record<string, string | number | undefined>, now: number): number | undefined {
  const retryAfter = Number(headers["retry-after"]);
  if (headers["retry-after"] !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter * 1000);
  const reset = Number(headers["x-ratelimit-reset"]);
  if (String(headers["x-ratelimit-remaining"]) === "0" && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  return undefined;
}

function githubMessage(error: RequestErrorShape): string {
  const data = error.response?.data as { message?: unknown } | undefined;
  if (typeof data?.message === "string" && data.message.trim() !== "") return data.message.trim();
  return typeof error.message === "string" ? error.message.trim() : "";
}

/** The failure as GitHub answered it; undefined for anything that is not an HTTP failure. */
export function httpFailure(error: unknown, now = Date.now()): HttpFailure | undefined {
  const shape = (error ?? {}) as RequestErrorShape;
  if (error instanceof TransientFailure) return httpFailure(error.cause, now);
  if (typeof shape.status !== "number") return undefined;
  const status = shape.status;
  const message = githubMessage(shape);
  const wait = retryAfterMs(shape.response?.headers ?? {}, now);
  // GitHub answers a rate limit with 429, or with 403 and either a wait or these words.
  const limited = status === 429 || (status === 403 && (wait !== undefined || /rate limit/i.test(message)));
  const transient = status >= 500 || limited;
  return { status, message, transient, ...(transient && wait !== undefined ? { retryAfterMs: wait } : {}), mayHaveWritten: status >= 500 };
}

/** ENOTFOUND, ECONNREFUSED…: the code of the fetch failure under Octokit's error, or its message. */
export function noAnswerReason(error: unknown): string {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Whether GitHub refused the request for good with one of `statuses` (a rate limit is not a refusal). */
export function refusedWith(error: unknown, ...statuses: number[]): HttpFailure | undefined {
  const failure = httpFailure(error);
  return failure && !failure.transient && statuses.includes(failure.status) ? failure : undefined;
}

/** The error as a TransientFailure (its cause kept) when GitHub may answer differently later. */
export function transientFailure(error: unknown, now = Date.now()): TransientFailure | undefined {
  if (error instanceof TransientFailure) return error;
  const failure = httpFailure(error, now);
  if (!failure?.transient) return undefined;
  // A connection that failed is no 500 of GitHub's: say that no answer came, and why.
  const said = (error as RequestErrorShape).response ? `${failure.status}: ${failure.message}` : `no answer (${noAnswerReason(error)})`;
  return new TransientFailure(said, failure.retryAfterMs, { cause: error });
}
