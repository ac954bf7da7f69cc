/**
 * GitHub failing for now (5xx, rate limits, dropped connections) is told apart from every other
 * failure, is never apologised for by runRequest, and becomes a job retry in pooledExecute —
 * no sooner than GitHub asked.
 */
import { RequestError } from "@octokit/request-error";
import { parseCommands } from "../../src/core/commands.js";
import { RetryableJobError } from "../../src/jobs/job-queue.js";
import type { ExecuteResult } from "../../src/pipeline/forge.js";
import { pooledExecute } from "../../src/runner/pooled-execute.js";
import type { AnyPorts } from "../../src/pipeline/ports.js";
import { REQUEST_VERSION, type Request } from "../../src/pipeline/request.js";
import { runRequest } from "../../src/pipeline/run-request.js";
import { transientFailure } from "../../src/forges/github/api/http-errors.js";
import { TransientFailure } from "../../src/pipeline/transient.js";
import type { WorkerPool } from "../../src/workers/pool.js";

const REQUEST = { method: "POST", url: "https://api.github.com/repos/acme/w/check-runs", headers: {} } as const;

function answered(status: number, message: string, headers: Record<string, string> = {}): RequestError {
  return new RequestError(message, status, { request: REQUEST, response: { status, url: REQUEST.url, headers, data: { message } } });
}

const COMMENT: Request = {
  version: REQUEST_VERSION,
  forge: { id: "github", installationId: 1 },
  repository: { owner: "acme", repo: "w" },
  pullRequest: 3,
  actor: { login: "alice" },
  id: "d-1",
  intent: { kind: "commands", commands: parseCommands("/pending") },
  origin: { kind: "comment", commentId: 11 },
};

test("runRequest hands a transient failure back instead of apologising: no reply, no reaction", async () => {
  const said: unknown[] = [];
  const logged: unknown[] = [];
  const ports = {
    config: { load: () => Promise.reject(answered(502, "Bad Gateway")) },
    // read while the configuration is (run-request.ts): it answers, the configuration fails
    pullRequest: { read: async () => ({ number: 3, headSha: "a".repeat(40), state: "open", merged: false }) },
    permission: { refusal: async () => undefined },
    workspace: { at: () => Promise.reject(new Error("no files are read here")) },
    transient: transientFailure,
    reply: { send: async (reply: unknown) => void said.push(reply), finish: async (ok: boolean) => void said.push(ok) },
    log: { warn: (details: unknown) => logged.push(details), error: (details: unknown) => logged.push(details) },
  } as unknown as AnyPorts;
  const failure = await runRequest(COMMENT, ports).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(TransientFailure);
  expect((failure as TransientFailure).message).toBe("502: Bad Gateway");
  expect(said).toEqual([]);
  expect(logged).toEqual([]);
});

test("pooledExecute turns a retry outcome into RetryableJobError with GitHub's wait; nothing is said on the pull request", async () => {
  const result: ExecuteResult = {
    ok: false,
    status: "bot-error",
    replied: [],
    retry: { message: "403: secondary rate limit", retryAfterMs: 7_000 },
  };
  const pool = { run: async () => ({ ok: true, value: result }) } as unknown as WorkerPool;
  const warnings: unknown[] = [];
  const replies: string[] = [];
  const execute = pooledExecute(pool, { warn: (details) => warnings.push(details), error: () => undefined }, async (_request, message) => {
    replies.push(message);
  });
  const failure = await execute(COMMENT).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(RetryableJobError);
  expect(failure).toMatchObject({ retryAfterMs: 7_000, message: "GitHub failed for now (acme/w#3): 403: secondary rate limit" });
  // The intake says the retry, with its wait (the queue knows it): not said twice.
  expect(warnings).toEqual([]);
  expect(replies).toEqual([]);
});
