/**
 * The one error model, as a type: whatever a request throws is exactly one of these, and each has
 * one answer (run-request.ts):
 * - `user`: the person who typed the command can act on it (a UserError): a reply that says why;
 * - `transient`: the forge failing for now (5xx, rate limit, lost connection): the job queue tries
 *   the request again, and the journal makes that safe even in the middle of an apply;
 * - `bug`: anything else: logged with the request, answered with an apology that never carries
 *   the internal message.
 */
import { UserError } from "../errors.js";
import { TransientFailure } from "./transient.js";

export type Failure = { kind: "user"; error: UserError } | { kind: "transient"; error: TransientFailure } | { kind: "bug"; error: unknown };

/** How a forge recognises its client's failures that may pass (see Ports.transient). */
export type TransientClassifier = (error: unknown) => TransientFailure | undefined;

export function classifyFailure(error: unknown, transient?: TransientClassifier): Failure {
  if (error instanceof UserError) return { kind: "user", error };
  const passing = error instanceof TransientFailure ? error : transient?.(error);
  if (passing) return { kind: "transient", error: passing };
  return { kind: "bug", error };
}
