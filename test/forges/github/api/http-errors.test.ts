/**
 * The one reader of GitHub's failed answers: what may pass (a retry), what is a refusal (a reply),
 * and what may have been written although it failed.
 */
import { RequestError } from "@octokit/request-error";
import { refusedRefUpdate } from "../../../../src/forges/github/edits/commit-writer.js";
import { httpFailure, refusedWith, transientFailure } from "../../../../src/forges/github/api/http-errors.js";
import { UserError } from "../../../../src/errors.js";
import { TransientFailure } from "../../../../src/pipeline/transient.js";

const NOW = Date.UTC(2026, 0, 1);
const REQUEST = { method: "POST", url: "https://api.github.com/repos/acme/w/check-runs", headers: {} } as const;

function answered(status: number, message: string, headers: Record<string, string> = {}): RequestError {
  return new RequestError(message, status, { request: REQUEST, response: { status, url: REQUEST.url, headers, data: { message } } });
}

const SECONDARY = answered(403, "You have exceeded a secondary rate limit.", { "retry-after": "600" });

describe("transientFailure", () => {
  test.each([
    ["a 502", answered(502, "Bad Gateway"), undefined],
    ["a dropped connection (Octokit: 500 without an answer)", new RequestError("fetch failed", 500, { request: REQUEST }), undefined],
    ["a secondary rate limit with retry-after", answered(403, "You have exceeded a secondary rate limit.", { "retry-after": "7" }), 7_000],
    ["a secondary rate limit without retry-after", answered(403, "You have exceeded a secondary rate limit."), undefined],
    ["a 429", answered(429, "Too Many Requests", { "retry-after": "2" }), 2_000],
    [
      "a spent primary rate limit",
      answered(403, "API rate limit exceeded", { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(NOW / 1000 + 90) }),
      90_000,
    ],
  ])("%s is transient", (_what, error, retryAfterMs) => {
    const transient = transientFailure(error, NOW);
    expect(transient).toBeInstanceOf(TransientFailure);
    expect(transient!.retryAfterMs).toBe(retryAfterMs);
    expect(transient!.cause).toBe(error);
  });

  test("what it says: GitHub's status and message, or that no answer came and why (Octokit's 500 is no answer)", () => {
    expect(transientFailure(answered(502, "Bad Gateway"), NOW)!.message).toBe("502: Bad Gateway");
    const refused = new RequestError("fetch failed", 500, { request: REQUEST });
    refused.cause = Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    expect(transientFailure(refused, NOW)!.message).toBe("no answer (ECONNREFUSED)");
    expect(transientFailure(new RequestError("fetch failed", 500, { request: REQUEST }), NOW)!.message).toBe("no answer (fetch failed)");
  });

  test.each([
    ["a 403 that is a refusal", answered(403, "Resource not accessible by integration")],
    ["a 404", answered(404, "Not Found")],
    ["a 422", answered(422, "Reference update failed")],
    ["the user's error", new UserError("the branch moved")],
    ["a bug", new TypeError("x is undefined")],
    ["a thrown string", "boom"],
  ])("%s is not", (_what, error) => {
    expect(transientFailure(error, NOW)).toBeUndefined();
  });
});

describe("refusals", () => {
  test("a refusal is named by its status and GitHub's message; a rate limit with the same status is not a refusal", () => {
    const notFastForward = answered(422, "Update is not a fast forward");
    expect(refusedWith(notFastForward, 422)).toMatchObject({ status: 422, message: "Update is not a fast forward", transient: false });
    expect(refusedWith(notFastForward, 404)).toBeUndefined();
    expect(refusedWith(answered(403, "Resource not accessible by integration"), 403, 404)).toMatchObject({ status: 403 });
    expect(refusedWith(SECONDARY, 403)).toBeUndefined();
    expect(refusedWith(answered(502, "Bad Gateway"), 403, 404, 422, 502)).toBeUndefined();
    expect(refusedWith(new TypeError("x"), 403)).toBeUndefined();
  });

  test("a ref update answered with a secondary rate limit is not reported as GitHub refusing the push", () => {
    expect(refusedRefUpdate(SECONDARY, "topic")).toBeUndefined();
    expect(refusedRefUpdate(answered(403, "Resource not accessible by integration"), "topic")).toBe(
      "GitHub refused the push to topic: Resource not accessible by integration. Nothing was committed; the edit stays pending.",
    );
  });

  test("a 5xx or a dropped connection may have written; a refusal or a rate limit did not", () => {
    expect(httpFailure(answered(502, "Bad Gateway"))?.mayHaveWritten).toBe(true);
    expect(httpFailure(new RequestError("fetch failed", 500, { request: REQUEST }))?.mayHaveWritten).toBe(true);
    expect(httpFailure(answered(422, "Validation Failed"))?.mayHaveWritten).toBe(false);
    expect(httpFailure(SECONDARY)).toEqual({
      status: 403,
      message: "You have exceeded a secondary rate limit.",
      transient: true,
      retryAfterMs: 600_000,
      mayHaveWritten: false,
    });
  });
});
