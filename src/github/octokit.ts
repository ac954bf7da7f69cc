/**
 * The Octokit every part of the app uses (the webhook server and the request executor): Probot's,
 * with one change — a secondary rate limit (403 + retry-after) is retried once when the wait is
 * short, instead of failing the command. RESOLVE_BOT_THROTTLE=off turns request spacing off, for a
 * local GitHub emulator (never against github.com).
 */
import { ProbotOctokit } from "probot";

/** The longest secondary-rate-limit wait worth retrying inside one command. */
const MAX_RETRY_AFTER_SECONDS = 60;

export function resolveBotOctokit(env: NodeJS.ProcessEnv): typeof ProbotOctokit {
  return ProbotOctokit.defaults((options: Record<string, unknown>) => {
    const throttle = (options.throttle ?? {}) as Record<string, unknown>;
    return {
      ...options,
      throttle: {
        ...throttle,
        enabled: env.RESOLVE_BOT_THROTTLE !== "off",
        onSecondaryRateLimit: (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) =>
          retryCount < 1 && retryAfter <= MAX_RETRY_AFTER_SECONDS,
      },
    };
  });
}

/** Where GitHub's web pages are (commit links, noreply addresses): github.com or GHE_HOST. */
export function webUrl(env: NodeJS.ProcessEnv): string {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL ?? "https"}://${env.GHE_HOST}` : "https://github.com";
}

/** The REST API's base URL, as Probot reads it from the environment. */
export function apiUrl(env: NodeJS.ProcessEnv): string {
  return env.GHE_HOST ? `${webUrl(env)}/api/v3` : "https://api.github.com";
}
