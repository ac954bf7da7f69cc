/**
 * A request read back from the job queue: whatever was stored is checked against the request's
 * schema before anything runs, never cast. A request stored by an older build (version 1: a
 * GitHub-named `trigger`, no version field) is brought to this version; any other version, or a
 * payload that does not fit, is refused with a sentence for the operator's log.
 */
import { Value } from "@sinclair/typebox/value";
import { REQUEST_VERSION, RequestSchema, type Intent, type Origin, type Request } from "../pipeline/request.js";

export type StoredRequest = { ok: true; request: Request } | { ok: false; problem: string };

export function readStoredRequest(payload: unknown): StoredRequest {
  if (payload === null || typeof payload !== "object") return { ok: false, problem: "the stored job is not a request object" };
  const stored = payload as Record<string, unknown>;
  const version = stored.version ?? (stored.trigger !== undefined ? 1 : undefined);
  const candidate = version === 1 ? fromVersion1(stored) : payload;
  if (version !== 1 && version !== REQUEST_VERSION) {
    return {
      ok: false,
      problem: `the stored request has version ${JSON.stringify(version ?? null)}; this build reads versions 1 and ${REQUEST_VERSION}`,
    };
  }
  if (candidate === undefined) return { ok: false, problem: "the stored version-1 request has a trigger this build does not know" };
  const errors = [...Value.Errors(RequestSchema, candidate)].slice(0, 3);
  if (errors.length > 0) {
    const where = errors.map((error) => `${error.path || "/"}: ${error.message}`).join("; ");
    return { ok: false, problem: `the stored request (version ${String(version)}) does not fit its schema (${where})` };
  }
  return { ok: true, request: candidate as Request };
}

/** Version 1 (before intents and origins): `trigger`, `deliveryId`, `installationId`; GitHub only. */
function fromVersion1(stored: Record<string, unknown>): unknown {
  const trigger = (stored.trigger ?? {}) as Record<string, unknown>;
  const converted = convertTrigger(trigger);
  if (converted === undefined) return undefined;
  const installationId = stored.installationId;
  return {
    version: REQUEST_VERSION,
    forge: { id: "github", ...(installationId === undefined ? {} : { installationId }) },
    repository: stored.repository,
    pullRequest: stored.pullRequest,
    actor: stored.actor,
    id: stored.deliveryId,
    ...converted,
  };
}

function convertTrigger(trigger: Record<string, unknown>): { intent: Intent; origin: Origin } | undefined {
  const none: Origin = { kind: "none" };
  switch (trigger.kind) {
    case "comment":
      return {
        intent: { kind: "commands", commands: trigger.commands as never },
        origin: trigger.commentId === undefined ? none : { kind: "comment", commentId: trigger.commentId as number },
      };
    case "button":
      return {
        intent: { kind: "resolve-newest", action: trigger.action as "apply" },
        origin: { kind: "button", checkRunId: trigger.checkRunId as number },
      };
    case "push":
      return { intent: { kind: "head-moved", before: trigger.before as string, after: trigger.after as string }, origin: none };
    case "opened":
    case "reopened":
      return { intent: { kind: "opened" }, origin: none };
    case "closed":
      return { intent: { kind: "closed", merged: trigger.merged as boolean }, origin: none };
    case "check_suite":
    case "stale":
      return { intent: { kind: "refresh" }, origin: none };
    case "rerequested":
      return {
        intent: { kind: "re-preview", ...(trigger.actionId === undefined ? {} : { actionId: trigger.actionId as string }) },
        origin: none,
      };
    default:
      return undefined;
  }
}
