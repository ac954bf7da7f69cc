/**
 * Our check runs' names and ids, in one place for everyone who tells them apart (ingress, the
 * lifecycle, the journal, the stack and the gate): the gate is named `resolve-bot`, each action's
 * run `resolve-bot: <label>`. The external id names the pull request: `pr:N` on the gate,
 * `pr:N:<action id>` on an action's run. GitHub lists no pull requests on runs of fork heads, so
 * a button pressed on one is traced back through it (ingress.ts).
 */
import type { PendingRecord } from "../../../core/store.js";
import { decodeRecord } from "./record-codec.js";

export const GATE_CHECK_NAME = "resolve-bot";
export const ACTION_CHECK_PREFIX = "resolve-bot: ";

/** An action's run name (a second action of the same label gets its place on the stack: `(#seq)`). */
export function actionRunName(label: string): string {
  return `${ACTION_CHECK_PREFIX}${label}`;
}

/** Whether a run is named like the gate or an action's run. */
export function isOurRunName(name: string): boolean {
  return name === GATE_CHECK_NAME || name.startsWith(ACTION_CHECK_PREFIX);
}

/** The parts of a check run that say which action it holds (listed runs and webhook payloads carry them). */
export interface NamedRun {
  name: string;
  output: { summary?: string | null };
}

/** The pending record an action's run holds, or undefined for the gate and runs of others. */
export function actionRecordOf(run: NamedRun): PendingRecord | undefined {
  return run.name.startsWith(ACTION_CHECK_PREFIX) ? decodeRecord(run.output.summary) : undefined;
}

/** Our action run's pending record id, or undefined for the gate and runs of others. */
export function actionIdOf(run: NamedRun): string | undefined {
  return actionRecordOf(run)?.id;
}

export function checkRunExternalId(pullRequest: number, actionId?: string): string {
  return actionId === undefined ? `pr:${pullRequest}` : `pr:${pullRequest}:${actionId}`;
}

/** The pull request an external id names, if it is one of ours. */
export function externalIdPullRequest(externalId: string | null | undefined): number | undefined {
  const number = /^pr:(\d+)(?::|$)/.exec(externalId ?? "")?.[1];
  return number === undefined ? undefined : Number(number);
}
