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
import { sweepDeliveries } from "../../forges/github/deliveries.js";
import { INGRESS_EVENTS, toRequest, type Delivery } from "../../forges/github/ingress.js";
import type { GitHubClient } from "../../forges/github/types.js";
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
import { apiUrl, webUrl } from "../../forges/github/api/octokit.js";
import { Access } from "./mcp/access.js";
import { TokenVerifier } from "./mcp/auth.js";
import { mcpHttpEnabled, mcpWaitMs } from "./mcp/settings.js";
import { mcpHttpHandler } from "./mcp/http.js";
import { Outcomes } from "./mcp/outcomes.js";
import { packageVersion } from "../../ops/version.js";
import { openPullRequestTools } from "./mcp/tools.js";
import type { ExecuteResult } from "../../pipeline/forge.js";
import { statusAfterMs } from "../../pipeline/cost.js";
import { pooledExecute, WORKER_WARM_UP } from "../../runner/pooled-execute.js";
import type { Request } from "../../pipeline/request.js";
import { requestLog } from "../../pipeline/request-log.js";
import { createRegistry } from "../../tools/index.js";
import { workerPoolSettingsFromEnv } from "../../workers/limits.js";
import { WorkerPool } from "../../workers/pool.js";
import { DeliverySweeper, sweepIntervalMs } from "./delivery-sweeper.js";

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
   * health and metrics server, and the deliveries sweeper (when on), for graceful shutdown (and tests).
   */
  onStarted?: (started: { queue: JobQueue; pool?: WorkerPool; log: Log; opsServer?: HttpServer; sweeper?: DeliverySweeper }) => void;
}

/** Said on the pull request when a job is given up (retries exhausted, or an error not worth one). */
export const GAVE_UP = gaveUp();

export function resolveBot(options: ResolveBotOptions = {}) {
  return async function app(app: Probot, appOptions?: ApplicationFunctionOptions): Promise<void> {
    const env = options.env ?? process.env;
    const role = roleOf(env);
    // A misconfigured status threshold is said at start, not by every request's apology.
    const afterMs = statusAfterMs(env);
    // Whoever takes webhooks sweeps for the ones GitHub could not deliver.
    const sweepMs = role === "worker" ? undefined : sweepIntervalMs(env);
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
    const sweeper =
      sweepMs === undefined
        ? undefined
        : new DeliverySweeper(
            sweepMs,
            async () =>
              sweepDeliveries({
                // The App's own JWT: deliveries belong to the app, not to an installation.
                octokit: await app.auth(),
                notes: queue.notes,
                // The webhook as it was sent, through the same intake; its 👀 with the installation's token.
                submit: (delivery) =>
                  take(delivery as unknown as Delivery, (request) =>
                    app.auth(request.forge.id === "github" ? request.forge.installationId : undefined),
                  ),
                log: app.log,
              }),
            app.log,
            {
              swept: (result) => {
                metrics.deliverySweeps.inc();
                for (const { event } of result.recovered) metrics.deliveriesRecovered.inc({ event });
              },
              failed: () => metrics.deliverySweepErrors.inc(),
            },
          );
    options.onStarted?.({
      queue,
      ...(pool ? { pool } : {}),
      log: app.log,
      ...(opsServer ? { opsServer } : {}),
      ...(sweeper ? { sweeper } : {}),
    });

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

    // An agent's tool call (MCP) waits for its job's outcome when this process carries it out.
    const outcomes = role === "server" ? undefined : new Outcomes();
    if (role !== "server") {
      const execute = options.execute ?? pooledExecute(pool!, app.log, replyOnPullRequest);
      intake.process({
        execute: async (request, run) => {
          const result = await execute(request, run.signal, run.rerun);
          if (request.origin.kind === "mcp") outcomes!.settle(request.id, result);
          return result;
        },
        concurrency: jobConcurrency(env),
        // GitHub failing for now (5xx, rate limits, dropped connections) is retried with backoff.
        retry: jobRetryPolicy(env),
      });
    }

    /**
     * A webhook into the intake (a delivery, or one a sweep recovered): true when recorded now,
     * false when its id was (a repeat), undefined when the bot has nothing to do with it.
     */
    const take = async (delivery: Delivery, octokitFor: (request: Request) => Promise<GitHubClient>): Promise<boolean | undefined> => {
      const request = toRequest(delivery);
      if (!request) return undefined;
      const acknowledge = async () => {
        const octokit = await octokitFor(request);
        // Its lines (request logging) name the request too.
        octokit.log = requestLog(octokit.log, request);
        await replyChannel(octokit, request).acknowledge();
      };
      return intake.submit(request, acknowledge);
    };

    app.on([...INGRESS_EVENTS], async (context) => {
      // The acknowledgement latency: from here to the answer, which goes once the job is recorded.
      const answered = metrics.webhookAck.startTimer({ event: context.name });
      try {
        await take(context, async () => context.octokit);
      } finally {
        answered();
      }
    });
    // MCP's Streamable HTTP transport at /mcp, for agents acting with a person's GitHub token (off unless configured).
    if (role !== "worker" && appOptions?.addHandler && mcpHttpEnabled(env)) {
      const access = new Access(app, registry);
      const waitMs = mcpWaitMs(env);
      const mcp = mcpHttpHandler({
        verifier: new TokenVerifier(apiUrl(env)),
        githubWebUrl: webUrl(env),
        log: app.log,
        open: (scope) =>
          openPullRequestTools(
            {
              registry,
              access,
              submit: (request) => intake.submit(request, async () => undefined),
              ...(outcomes ? { outcomes } : {}),
              waitMs,
              githubWebUrl: webUrl(env),
              version: packageVersion(),
            },
            scope,
          ),
      });
      appOptions.addHandler(mcp);
    }
    // Probot's setup page registers the app with the server's bare address as its webhook URL:
    // webhooks posted to `/` are taken too, so the first install works without editing the URL.
    if (role !== "worker" && appOptions?.addHandler) {
      const atRoot = await app.getNodeMiddleware({ path: "/" });
      appOptions.addHandler((req, res) => (req.method === "POST" && req.url?.split("?")[0] === "/" ? atRoot(req, res) : false));
    }
    sweeper?.start();
    app.log.info(
      `resolve-bot (${role}) ready with tools: ${registry
        .list()
        .map((tool) => tool.name)
        .join(", ")}`,
    );
  };
}

export default resolveBot();
