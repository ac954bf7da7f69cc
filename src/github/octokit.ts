/**
 * The Octokit every part of the app uses (the webhook server and the request executor): Probot's
 * (5xx retried by its retry plugin), with two changes — a secondary rate limit (403 + retry-after)
 * is retried once when the wait is short, instead of failing the command; and writes that create
 * something are retried only after looking whether the failed try created it (idempotent-writes).
 * What still fails is retried as a job (pipeline/transient). RESOLVE_BOT_THROTTLE=off turns
 * request spacing off, for a local GitHub emulator (never against github.com).
 */
import { getPrivateKey } from "@probot/get-private-key";
import { Probot, ProbotOctokit } from "probot";
import { idempotentWrites } from "./idempotent-writes.js";

/** The longest secondary-rate-limit wait worth retrying inside one command. */
const MAX_RETRY_AFTER_SECONDS = 60;

export function resolveBotOctokit(env: NodeJS.ProcessEnv): typeof ProbotOctokit {
  return ProbotOctokit.plugin(idempotentWrites).defaults((options: Record<string, unknown>) => {
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

/**
 * A Probot app instance from the environment, with no web server: for the request executor and
 * worker-only processes (the webhook server's comes from Probot's `run`). Probot shares its
 * request throttling through REDIS_URL when it is set.
 */
export function probotFromEnv(env: NodeJS.ProcessEnv): Probot {
  const appId = Number(env.APP_ID);
  const privateKey = getPrivateKey({ env });
  if (!Number.isInteger(appId) || appId <= 0 || !privateKey) throw new Error("APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) must be set");
  return new Probot({
    appId,
    privateKey,
    baseUrl: apiUrl(env),
    Octokit: resolveBotOctokit(env),
    ...(env.REDIS_URL ? { redisConfig: env.REDIS_URL } : {}),
    // Probot's options know no "silent"; "fatal" is as quiet as it gets there.
    logLevel: env.LOG_LEVEL === "silent" ? "fatal" : (env.LOG_LEVEL ?? "info"),
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === "production" ? "json" : "pretty"),
  });
}
