/**
 * `npm start`: the Probot server with resolve-bot loaded. Without APP_ID/PRIVATE_KEY it serves
 * Probot's setup page, which registers a GitHub App from app.yml.
 *
 * Octokit stays Probot's, with one change: a secondary rate limit (403 + retry-after) is retried
 * once when the wait is short, instead of failing the command. RESOLVE_BOT_THROTTLE=off turns
 * request spacing off, for a local GitHub emulator (never against github.com).
 */
import { ProbotOctokit, run } from "probot";
import { resolveBot } from "./index.js";
import type { WorkQueue } from "./github/work-queue.js";

/** How long SIGTERM waits for running commands (container platforms kill after ~30 s). */
const SHUTDOWN_GRACE_MS = Number(process.env.RESOLVE_BOT_SHUTDOWN_GRACE_MS ?? 25_000);

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

let queue: WorkQueue | undefined;
let log: Pick<Console, "info" | "error"> = console;
const server = await run(
  resolveBot({
    onQueue: (created, appLog) => {
      queue = created;
      log = appLog;
    },
  }),
  { Octokit },
);

/**
 * SIGTERM: stop taking webhooks, let the commands already acknowledged finish (their replies
 * and commits), then exit. What is still running after the grace period is logged as abandoned.
 */
process.once("SIGTERM", () => {
  log.info("SIGTERM: no new webhooks; finishing running commands");
  void server.stop().catch(() => undefined);
  const deadline = new Promise<"timeout">((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS, "timeout").unref());
  void Promise.race([queue?.idle() ?? Promise.resolve(), deadline]).then((outcome) => {
    if (outcome === "timeout") log.error(`SIGTERM: commands still running after ${SHUTDOWN_GRACE_MS} ms were abandoned`);
    else log.info("SIGTERM: all commands finished");
    process.exit(outcome === "timeout" ? 1 : 0);
  });
});
