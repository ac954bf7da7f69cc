/**
 * One layer of in-place retries, each said at warn with its wait. Octokit's retry plugin tries a
 * failed call again (after 1, 4, 9 s); the job queue is the layer above it (a request GitHub failed
 * for now runs again later: pipeline/transient). Two things made that quiet and slow:
 * - an installation's token is fetched inside the first call that needs it (auth-app's hook), through
 *   the same Octokit, so the plugin retried the token call inside its own retries of that call (up to
 *   4 × 4 tries), and calls waiting on one token fetch shared its error, whose retry state they then
 *   overwrote (waits nobody logged). A failed token call is not retried in place: the job is.
 * - the plugin's retries were silent: with GitHub unreachable nothing was logged for minutes.
 */
import type { ProbotOctokit } from "probot";
import { noAnswerReason } from "./http-errors.js";
import { routeOf } from "./octokit-metrics.js";

type OctokitPlugin = Parameters<typeof ProbotOctokit.plugin>[0];
type RetryRequest = (error: unknown, retries: number, retryAfter: number) => unknown;

const TOKEN_CALL = "POST /app/installations/{id}/access_tokens";
/** The retry plugin's base wait (`retryAfterBaseValue`) unless the Octokit's options say otherwise. */
const DEFAULT_RETRY_BASE_MS = 1_000;

export const retryLayers: OctokitPlugin = (octokit, octokitOptions) => {
  const baseMs = (octokitOptions as { retry?: { retryAfterBaseValue?: number } }).retry?.retryAfterBaseValue ?? DEFAULT_RETRY_BASE_MS;
  const retry = (octokit as unknown as { retry?: { retryRequest?: RetryRequest } }).retry;
  const original = retry?.retryRequest;
  if (!retry || !original) return;
  // The plugin asks this before each retry it may make, with retryAfter = (retries made + 1)², and
  // retries while `retries` allows.
  retry.retryRequest = (error, retries, retryAfter) => {
    const failed = error as { request?: { method?: string; url?: string } };
    if (routeOf(failed.request?.method ?? "", failed.request?.url ?? "") === TOKEN_CALL) return original(error, 0, retryAfter);
    const next = Math.round(Math.sqrt(retryAfter));
    if (next <= retries) octokit.log.warn(retrySaid(error, next, retries, retryAfter * baseMs));
    return original(error, retries, retryAfter);
  };
};

/** `GitHub GET /repos/… answered 502: retry 1 of 3 in 1 s` (or `got no answer (ECONNREFUSED)`). */
export function retrySaid(error: unknown, next: number, retries: number, waitMs: number): string {
  const failed = error as { status?: number; response?: unknown; request?: { method?: string; url?: string } };
  const route = routeOf(failed.request?.method ?? "", failed.request?.url ?? "");
  const what = failed.response ? `answered ${failed.status}` : `got no answer (${noAnswerReason(error)})`;
  return `GitHub ${route} ${what}: retry ${next} of ${retries} in ${Math.round(waitMs / 100) / 10} s`;
}
