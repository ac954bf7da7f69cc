/**
 * How many times and how soon a job GitHub keeps failing is tried again: from the environment,
 * with the queue's defaults when unset and a clear error for a value that is not a count.
 */
import { jobRetryPolicy } from "../../src/jobs/index.js";
import { backoffDelay, retryPolicy } from "../../src/jobs/outcome.js";

test("unset: the queue's defaults (5 attempts, 1 s doubling)", () => {
  expect(jobRetryPolicy({})).toEqual({});
  expect(retryPolicy(jobRetryPolicy({}))).toEqual({ maxAttempts: 5, backoffMs: 1_000, maxBackoffMs: 300_000 });
});

test("RESOLVE_BOT_JOB_ATTEMPTS and RESOLVE_BOT_JOB_BACKOFF_MS set the attempts and the first wait", () => {
  const policy = retryPolicy(jobRetryPolicy({ RESOLVE_BOT_JOB_ATTEMPTS: " 2 ", RESOLVE_BOT_JOB_BACKOFF_MS: "200" }));
  expect(policy).toEqual({ maxAttempts: 2, backoffMs: 200, maxBackoffMs: 300_000 });
  expect([1, 2, 3].map((attempt) => backoffDelay(policy, attempt))).toEqual([200, 400, 800]);
  // GitHub's retry-after wins over a shorter backoff.
  expect(backoffDelay(policy, 1, 7_000)).toBe(7_000);
});

test.each([
  [{ RESOLVE_BOT_JOB_ATTEMPTS: "0" }, 'RESOLVE_BOT_JOB_ATTEMPTS must be a whole number of at least 1 (got "0").'],
  [{ RESOLVE_BOT_JOB_BACKOFF_MS: "soon" }, 'RESOLVE_BOT_JOB_BACKOFF_MS must be a whole number of at least 0 (got "soon").'],
])("%o is refused with a message", (env, message) => {
  expect(() => jobRetryPolicy(env)).toThrow(message);
});
