/**
 * The Probot app, the server's composition root: webhook events go through ingress (event →
 * Request) into the runner's intake (runner/intake.ts: recorded on the durable job queue,
 * deduplicated by delivery id, one pull request at a time, 👀, the give-up reply); the queue's
 * worker carries each request out in the worker pool (runner/worker-task.ts in a worker thread).
 *
 * Roles (RESOLVE_BOT_ROLE): `all` (npm start: both), `server` (records and answers webhooks only),
 * `worker` (carries out the recorded jobs only; with REDIS_URL, as many as you like).
 *   npm start  →  node dist/src/apps/server/main.js
 */
import type { Server as HttpServer } from "node:http";
import type { ApplicationFunctionOptions, Probot } from "probot";
import { INGRESS_EVENTS, toRequest } from "../../forges/github/ingress.js";
import { gaveUp } from "../../forges/github/replies/render.js";
import { replyChannel } from "../../forges/github/replies/reply-channel.js";
import { replyStopped } from "../../forges/github/replies/stopped-reply.js";
import { jobConcurrency, jobRetryPolicy, openJobQueue } from "../../jobs/index.js";
import type { JobQueue } from "../../jobs/job-queue.js";
import { listenOps, opsHandler, workerOpsPort } from "../../ops/http.js";
import { Metrics } from "../../ops/metrics.js";
import { setObservationSink, type Observation } from "../../ops/observations.js";
import { GitHubReachability } from "../../forges/github/api/reachability.js";
import { Intake } from "../../runner/intake.js";
import type { ExecuteResult } from "../../pipeline/forge.js";
import { statusAfterMs } from "../../pipeline/cost.js";
import { pooledExecute, WORKER_WARM_UP } from "../../runner/pooled-execute.js";
import type { Request } from "../../pipeline/request.js";
import { requestLog } from "../../pipeline/request-log.js";
import { createRegistry } from "../../tools/index.js";
import { workerPoolSettingsFromEnv } from "../../workers/limits.js";
import { WorkerPool } from "../../workers/pool.js";

type Log = Probot["log"];

export type Role = "all" | "server" | "worker";

export function roleOf(env: NodeJS.ProcessEnv): Role {
  const role = env.RESOLVE_BOT_ROLE?.trim() || "all";
  if (role === "all" || role === "server" || role === "worker") return role;
  throw new Error(`RESOLVE_BOT_ROLE must be all, server or worker (got "${role}").`);
}

export interface ResolveBotOptions {
  env?: NodeJS.ProcessEnv;
  /** Makes the job queue: SQLite in RESOLVE_BOT_DATA_DIR, or Redis with REDIS_URL, by default. */
  createQueue?: (log: Log) => JobQueue;
  /** Carries out a request: in the worker pool by default (tests may run it in this process). */
  execute?: (request: Request, signal?: AbortSignal, rerun?: boolean) => Promise<ExecuteResult | undefined>;
  /**
   * The job queue, the worker pool, the app's logger and (worker role, RESOLVE_BOT_WORKER_PORT) the
   * health and metrics server, for graceful shutdown (and tests).
   */
  onStarted?: (started: { queue: JobQueue; pool?: WorkerPool; log: Log; opsServer?: HttpServer }) => void;
}

/** Said on the pull request when a job is given up (retries exhausted, or an error not worth one). */
export const GAVE_UP = gaveUp();

export function resolveBot(options: ResolveBotOptions = {}) {
  return async function app(app: Probot, appOptions?: ApplicationFunctionOptions): Promise<void> {
    const env = options.env ?? process.env;
    const role = roleOf(env);
    // A misconfigured status threshold is said at start, not by every request's apology.
    const afterMs = statusAfterMs(env);
    // Built here too so a broken RESOLVE_BOT_TOOLS stops the server at start, not at the first command.
    const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
    const queue = (options.createQueue ?? ((log: Log) => openJobQueue(env, (message, error) => log.error({ err: error }, message))))(
      app.log,
    );
    const metrics = new Metrics(role, () => pool?.gauges());
    const reachability = new GitHubReachability();
    const record = (observation: Observation) => {
      metrics.record(observation);
      reachability.record(observation);
    };
    setObservationSink(record);
    const pool =
      options.execute || role === "server"
        ? undefined
        : new WorkerPool(workerPoolSettingsFromEnv(env), {
            onWorkerError: (error) => app.log.error({ err: error }, "resolve-bot worker failed between tasks"),
            onObservations: (observations) => observations.forEach(record),
            warmUp: WORKER_WARM_UP,
          });
    // GET /healthz, /readyz, /metrics: on the webhook server, or on RESOLVE_BOT_WORKER_PORT for a worker.
    const ops = opsHandler({
      metrics,
      metricsToken: env.RESOLVE_BOT_METRICS_TOKEN?.trim(),
      frontPage: role !== "worker",
      unready: async () =>
        [await queue.unreadyReason(), pool?.unreadyReason(), reachability.unreadyReason()].filter((reason) => reason !== undefined),
    });
    if (role !== "worker") appOptions?.addHandler(ops);
    const opsPort = role === "worker" ? workerOpsPort(env) : undefined;
    const opsServer = opsPort === undefined ? undefined : await listenOps(ops, opsPort, env.HOST?.trim() || undefined);
    options.onStarted?.({ queue, ...(pool ? { pool } : {}), log: app.log, ...(opsServer ? { opsServer } : {}) });

    /** A reply from this process, where the request is answered, for what the worker that would have replied cannot say. */
    const replyOnPullRequest = async (request: Request, message: string): Promise<void> => {
      if (request.forge.id !== "github") return;
      await replyStopped(await app.auth(request.forge.installationId), request, message, afterMs);
    };
    const intake = new Intake({
      queue,
      log: app.log,
      giveUp: { message: GAVE_UP, reply: replyOnPullRequest },
      observe: {
        queued: () => metrics.jobsQueued.inc(),
        running: (delta) => (delta > 0 ? metrics.jobsRunning.inc() : metrics.jobsRunning.dec()),
        retried: () => metrics.jobsRetried.inc(),
        deadLettered: () => metrics.jobsDeadLettered.inc(),
      },
    });

    if (role !== "server") {
      const execute = options.execute ?? pooledExecute(pool!, app.log, replyOnPullRequest);
      intake.process({
        execute: (request, run) => execute(request, run.signal, run.rerun),
        concurrency: jobConcurrency(env),
        // GitHub failing for now (5xx, rate limits, dropped connections) is retried with backoff.
        retry: jobRetryPolicy(env),
      });
    }

    app.on([...INGRESS_EVENTS], async (context) => {
      // The acknowledgement latency: from here to the answer, which goes once the job is recorded.
      const answered = metrics.webhookAck.startTimer({ event: context.name });
      try {
        const request = toRequest(context);
        if (!request) return;
        // Its Octokit is the event's own: its lines (request logging) name the request too.
        context.octokit.log = requestLog(context.octokit.log, request);
        await intake.submit(request, () => replyChannel(context.octokit, request).acknowledge());
      } finally {
        answered();
      }
    });
    // Probot's setup page registers the app with the server's bare address as its webhook URL:
    // webhooks posted to `/` are taken too, so the first install works without editing the URL.
    if (role !== "worker" && appOptions?.addHandler) {
      const atRoot = await app.getNodeMiddleware({ path: "/" });
      appOptions.addHandler((req, res) => (req.method === "POST" && req.url?.split("?")[0] === "/" ? atRoot(req, res) : false));
    }
    app.log.info(
      `resolve-bot (${role}) ready with tools: ${registry
        .list()
        .map((tool) => tool.name)
        .join(", ")}`,
    );
  };
}

export default resolveBot();
