/**
 * `npm start`: the Probot server with resolve-bot loaded. Without APP_ID/PRIVATE_KEY it serves
 * Probot's setup page, which registers a GitHub App from app.yml. The Octokit is the app's own
 * (github/octokit.ts: one retry of a short secondary rate limit; RESOLVE_BOT_THROTTLE=off).
 */
import { run } from "probot";
import { resolveBotOctokit } from "./github/octokit.js";
import { resolveBot } from "./index.js";
import type { JobQueue } from "./jobs/job-queue.js";
import type { WorkerPool } from "./workers/pool.js";

/** How long SIGTERM waits for running commands (container platforms kill after ~30 s). */
const SHUTDOWN_GRACE_MS = Number(process.env.RESOLVE_BOT_SHUTDOWN_GRACE_MS ?? 25_000);

let queue: JobQueue | undefined;
let pool: WorkerPool | undefined;
let log: Pick<Console, "info" | "error"> = console;
const server = await run(
  resolveBot({
    onStarted: (started) => {
      ({ queue, pool } = started);
      log = started.log;
    },
  }),
  { Octokit: resolveBotOctokit(process.env) },
);

/**
 * SIGTERM: stop taking webhooks, let the commands already acknowledged finish (their replies
 * and commits), then exit. What is still running after the grace period is logged as abandoned.
 */
process.once("SIGTERM", () => {
  log.info("SIGTERM: no new webhooks; finishing running commands");
  void server.stop().catch(() => undefined);
  const deadline = new Promise<"timeout">((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS, "timeout").unref());
  void Promise.race([queue?.idle() ?? Promise.resolve(), deadline]).then(async (outcome) => {
    await queue?.close(0);
    await pool?.destroy();
    if (outcome === "timeout") log.error(`SIGTERM: commands still running after ${SHUTDOWN_GRACE_MS} ms were abandoned`);
    else log.info("SIGTERM: all commands finished");
    process.exit(outcome === "timeout" ? 1 : 0);
  });
});
