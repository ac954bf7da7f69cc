/**
 * The event a workflow run was started by, as the runner hands it over: its name in
 * GITHUB_EVENT_NAME, the webhook payload in the JSON file at GITHUB_EVENT_PATH. The payload is
 * checked against what ingress reads of it before it becomes a Delivery (forges/github/ingress.ts).
 *
 * The delivery id is GITHUB_RUN_ID, without the attempt: "Re-run jobs" keeps the run id and starts
 * attempt 2, which is then a re-run of the same request (the pipeline's journal on), so an apply
 * that attempt 1 committed is reported, not repeated, and never pops the next pending edit.
 */
import { readFileSync } from "node:fs";
import { Type, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Delivery } from "../../forges/github/ingress.js";

const Account = Type.Object({ login: Type.String(), id: Type.Integer(), type: Type.Optional(Type.String()) });
const Common = Type.Object({
  action: Type.Optional(Type.String()),
  repository: Type.Object({ name: Type.String(), full_name: Type.String(), owner: Type.Object({ login: Type.String() }) }),
  sender: Account,
});
const Numbered = Type.Object({ number: Type.Integer() });
const Comment = Type.Object({
  id: Type.Integer(),
  body: Type.Union([Type.String(), Type.Null()]),
  user: Type.Union([Account, Type.Null()]),
});

/** What ingress reads beyond the common part, per event; events not listed are only read in common. */
const BY_EVENT: Record<string, TSchema> = {
  issue_comment: Type.Object({ issue: Numbered, comment: Comment }),
  pull_request_review_comment: Type.Object({
    pull_request: Numbered,
    comment: Type.Intersect([Comment, Type.Object({ path: Type.String() })]),
  }),
  pull_request_review: Type.Object({ pull_request: Numbered, review: Type.Object({ id: Type.Integer() }) }),
  pull_request: Type.Object({ pull_request: Numbered }),
  check_run: Type.Object({ check_run: Type.Object({ id: Type.Integer(), name: Type.String() }) }),
  check_suite: Type.Object({ check_suite: Type.Object({ pull_requests: Type.Array(Numbered) }) }),
};

/**
 * `pull_request_target` carries a `pull_request` payload (run from the base branch, with a write
 * token on forks): resolve-bot reads it the same, since it never runs the pull request's code.
 */
const SAME_PAYLOAD: Record<string, string> = { pull_request_target: "pull_request" };

export interface ActionEvent {
  delivery: Delivery;
  /** A later attempt of the workflow run ("Re-run jobs"): what an earlier attempt did is looked up first. */
  rerun: boolean;
}

export type ReadEvent = { ok: true; event: ActionEvent } | { ok: false; problem: string };

function problems(schema: TSchema, value: unknown): string | undefined {
  const errors = [...Value.Errors(schema, value)].slice(0, 3);
  return errors.length === 0 ? undefined : errors.map((error) => `${error.path || "/"}: ${error.message}`).join("; ");
}

export function readEvent(env: NodeJS.ProcessEnv): ReadEvent {
  const given = env.GITHUB_EVENT_NAME?.trim();
  const path = env.GITHUB_EVENT_PATH?.trim();
  const runId = env.GITHUB_RUN_ID?.trim();
  if (!given || !path || !runId) {
    return {
      ok: false,
      problem: "GITHUB_EVENT_NAME, GITHUB_EVENT_PATH and GITHUB_RUN_ID must be set: resolve-bot runs as a step of a workflow",
    };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { ok: false, problem: `the event payload at ${path} cannot be read: ${(error as Error).message}` };
  }
  const name = SAME_PAYLOAD[given] ?? given;
  const wrong = problems(Common, payload) ?? (BY_EVENT[name] ? problems(BY_EVENT[name], payload) : undefined);
  if (wrong) return { ok: false, problem: `the ${given} event payload does not have the shape resolve-bot reads (${wrong})` };
  const repository = (payload as { repository: { full_name: string } }).repository.full_name;
  const expected = env.GITHUB_REPOSITORY?.trim();
  if (expected && expected.toLowerCase() !== repository.toLowerCase()) {
    return { ok: false, problem: `the event is about ${repository}, but the workflow runs in ${expected}` };
  }
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? "1");
  return {
    ok: true,
    event: { delivery: { id: runId, name, payload: payload as Delivery["payload"] }, rerun: Number.isInteger(attempt) && attempt > 1 },
  };
}
