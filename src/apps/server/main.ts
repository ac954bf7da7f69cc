/**
 * `npm start`: the Probot server with resolve-bot loaded. Without APP_ID/PRIVATE_KEY it serves
 * Probot's setup page, which registers a GitHub App from app.yml. The Octokit is the app's own
 * (forges/github/api/octokit.ts: one retry of a short secondary rate limit; RESOLVE_BOT_THROTTLE=off).
 *
 * RESOLVE_BOT_ROLE=worker (`resolve-bot worker`) runs no web server: it only carries out the jobs
 * that `server` processes recorded (REDIS_URL, or the same RESOLVE_BOT_DATA_DIR).
 */
import { run } from "probot";
import { probotFromEnv, resolveBotOctokit } from "../../forges/github/api/octokit.js";
import { resolveBot, roleOf, type ResolveBotOptions } from "./app.js";
import { DataDirHeld } from "../../jobs/index.js";
import type { JobQueue } from "../../jobs/job-queue.js";
import type { WorkerPool } from "../../workers/pool.js";
import type { DeliverySweeper } from "./delivery-sweeper.js";

/** How long SIGTERM waits for running commands (container platforms kill after ~30 s). */
const SHUTDOWN_GRACE_MS = Number(process.env.RESOLVE_BOT_SHUTDOWN_GRACE_MS ?? 25_000);
/** How long closing the job queue may take after that (a Redis that is gone never answers). */
const CLOSE_LIMIT_MS = 3_000;

let queue: JobQueue | undefined;
let pool: WorkerPool | undefined;
let sweeper: DeliverySweeper | undefined;
let log: Pick<Console, "info" | "error"> & { fatal?: (message: string) => void } = console;
const options: ResolveBotOptions = {
  onStarted: (started) => {
    ({ queue, pool, sweeper } = started);
    log = started.log;
  },
};

const role = roleOf(process.env);
let stopServer: () => Promise<void> = async () => undefined;
try {
  if (role === "worker") {
    await resolveBot(options)(probotFromEnv(process.env));
  } else {
    const server = await run(resolveBot(options), { Octokit: resolveBotOctokit(process.env) });
    stopServer = () => server.stop();
  }
} catch (error) {
  // Another process holds the data directory (often the previous server in its shutdown grace):
  // a sentence, not a stack trace of SQLite's lock.
  if (!(error instanceof DataDirHeld)) throw error;
  (log.fatal ?? log.error).call(log, `resolve-bot cannot start: ${error.message}`);
  process.exit(1);
}

/**
 * SIGTERM: stop taking webhooks, let the commands already started finish (their replies and
 * commits) within the grace period, then hand what is left back to the queue (it runs again on
 * the next start, or on another worker) and exit. A queue that cannot close (its Redis is gone)
 * does not keep the process: what it held is in Redis, and its leases expire.
 */
process.once("SIGTERM", () => {
  log.info("SIGTERM: no new webhooks; finishing running commands");
  void stopServer().catch(() => undefined);
  void (async () => {
    const deadline = new Promise<"timeout">((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS, "timeout").unref());
    // A server-only process runs no jobs: what it recorded is the workers' to carry out.
    const running = Promise.all([
      role === "server" ? Promise.resolve() : (queue?.idle() ?? Promise.resolve()),
      // A sweep under way ends before the queue closes (no webhook it recovers is lost to the close).
      sweeper?.stop(),
    ]);
    const outcome = await Promise.race([
      running.then(
        () => "finished" as const,
        () => "unknown" as const,
      ),
      deadline,
    ]);
    const closed = await Promise.race([
      (queue?.close(0) ?? Promise.resolve()).then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => setTimeout(resolve, CLOSE_LIMIT_MS, false).unref()),
    ]);
    await pool?.destroy();
    if (!closed) log.error("SIGTERM: could not close the job queue (is Redis reachable?); jobs it held run again once their leases expire");
    if (outcome === "timeout") log.error(`SIGTERM: commands still running after ${SHUTDOWN_GRACE_MS} ms were handed back to the queue`);
    else if (outcome === "unknown") log.error("SIGTERM: the job queue could not say whether commands were still running");
    else log.info("SIGTERM: all commands finished");
    process.exit(outcome === "finished" && closed ? 0 : 1);
  })();
});
