/**
 * The Octokit every part of the app uses (the webhook server and the request executor): Probot's
 * (5xx retried by its retry plugin), with two changes — a rate limit (secondary: 403 + retry-after;
 * primary: the reset time) is waited out once in place only when the wait is short, and writes that
 * create something are retried only after looking whether the failed try created it
 * (idempotent-writes). One layer of retries, each logged at warn with its wait (retries.ts). Every call is counted for GET /metrics (octokit-metrics). What still fails is retried as a job (pipeline/transient).
 * RESOLVE_BOT_THROTTLE=off turns request spacing off, for a local GitHub emulator (never against
 * github.com); rate-limit answers are handled the same either way.
 */
import { getPrivateKey } from "@probot/get-private-key";
import { Probot, ProbotOctokit } from "probot";
import { idempotentWrites } from "./idempotent-writes.js";
import { githubCallMetrics } from "./octokit-metrics.js";
import { retryLayers } from "./retries.js";

/** The longest rate-limit wait worth retrying inside one command; a longer one is a job retry. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** Retried once, when the wait is short: a job waits out the rest (pipeline/transient). */
const retryOnceIfShort = (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) =>
  retryCount < 1 && retryAfter <= MAX_RETRY_AFTER_SECONDS;

/**
 * A stand-in for the throttling plugin's Bottleneck groups that never waits: against a local
 * emulator requests need no spacing, but rate-limit answers are still handled as in production.
 */
const unspaced = {
  key: () => ({ schedule: (_options: unknown, task: (...args: unknown[]) => unknown, ...args: unknown[]) => task(...args) }),
};

export function resolveBotOctokit(env: NodeJS.ProcessEnv): typeof ProbotOctokit {
  const spacing =
    env.RESOLVE_BOT_THROTTLE === "off"
      ? { global: unspaced, auth: unspaced, search: unspaced, write: unspaced, notifications: unspaced }
      : {};
  return ProbotOctokit.plugin(idempotentWrites, githubCallMetrics, retryLayers).defaults((options: Record<string, unknown>) => {
    const throttle = (options.throttle ?? {}) as Record<string, unknown>;
    return {
      ...options,
      throttle: { ...throttle, ...spacing, onSecondaryRateLimit: retryOnceIfShort, onRateLimit: retryOnceIfShort },
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
    // Errors also go to Sentry, as Probot's server does with SENTRY_DSN (in workers and their threads too).
    ...(env.SENTRY_DSN ? { sentryDsn: env.SENTRY_DSN } : {}),
  });
}
