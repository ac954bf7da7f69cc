/**
 * `npm start`: the Probot server with resolve-bot loaded. Without APP_ID/PRIVATE_KEY it serves
 * Probot's setup page, which registers a GitHub App from app.yml.
 *
 * Octokit stays Probot's, with one change: a secondary rate limit (403 + retry-after) is retried
 * once when the wait is short, instead of failing the command. RESOLVE_BOT_THROTTLE=off turns
 * request spacing off, for a local GitHub emulator (never against github.com).
 */
import { ProbotOctokit, run } from "probot";
import app from "./index.js";

/** The longest secondary-rate-limit wait worth retrying inside one command. */
const MAX_RETRY_AFTER_SECONDS = 60;

const Octokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const throttle = (options.throttle ?? {}) as Record<string, unknown>;
  return {
    ...options,
    throttle: {
      ...throttle,
      enabled: process.env.RESOLVE_BOT_THROTTLE !== "off",
      onSecondaryRateLimit: (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) =>
        retryCount < 1 && retryAfter <= MAX_RETRY_AFTER_SECONDS,
    },
  };
});

await run(app, { Octokit });
