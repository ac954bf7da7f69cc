/**
 * Whether GitHub answers, for GET /readyz: kept from the API calls the app makes anyway (their
 * observations), not probed per request. Not ready while the newest call, within the window, got
 * no answer at all (DNS, refused or dropped connections): a 5xx or a rate limit is an answer.
 */
import type { Observation } from "../../../ops/observations.js";

/** How long one unanswered call keeps the server unready unless a call is answered since. */
export const UNREACHABLE_WINDOW_MS = 5 * 60_000;

export class GitHubReachability {
  private lastFailure: { at: number; route: string; reason: string } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  record(observation: Observation): void {
    if (observation.kind !== "github-call") return;
    if (observation.status !== "error") this.lastFailure = undefined;
    else this.lastFailure = { at: this.now(), route: observation.route, reason: observation.failure ?? "no answer" };
  }

  /** Why the server is not ready (GitHub gave no answer lately), or undefined. */
  unreadyReason(): string | undefined {
    const failure = this.lastFailure;
    if (!failure || this.now() - failure.at > UNREACHABLE_WINDOW_MS) return undefined;
    const ago = Math.max(0, Math.round((this.now() - failure.at) / 1000));
    return `GitHub is unreachable: ${failure.route} got no answer ${ago} s ago (${failure.reason}), and no call has been answered since`;
  }
}
