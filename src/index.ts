/**
 * The Probot app: webhook events go through ingress (event → Request), are recorded on the job
 * queue (deduplicated by delivery id, one pull request at a time) and acknowledged; the queue's
 * worker carries each request out with executeRequest.
 *   npm start  →  node dist/src/server.js
 */
import type { ApplicationFunctionOptions, Probot } from "probot";
import { react } from "./github/session.js";
import { INGRESS_EVENTS, toRequest } from "./github/ingress.js";
import type { JobQueue } from "./jobs/job-queue.js";
import { MemoryJobQueue } from "./jobs/memory-queue.js";
import { Acknowledgements } from "./pipeline/acknowledgements.js";
import type { ExecuteResult } from "./pipeline/execute.js";
import { pooledExecute } from "./pipeline/pooled-execute.js";
import { workerPoolSettingsFromEnv } from "./workers/limits.js";
import { WorkerPool } from "./workers/pool.js";
import { requestKey, type Request } from "./pipeline/request.js";
import { createRegistry } from "./tools/index.js";

/** Pull requests served at once (each one's requests still run one at a time). */
const JOB_CONCURRENCY = 16;

type Log = Probot["log"];

export interface ResolveBotOptions {
  env?: NodeJS.ProcessEnv;
  /** Makes the job queue: in memory by default; SQLite or Redis are one line here. */
  createQueue?: (log: Log) => JobQueue;
  /** Carries out a request: in the worker pool by default (tests may run it in this process). */
  execute?: (request: Request, signal?: AbortSignal) => Promise<ExecuteResult | undefined>;
  /** The job queue, the worker pool and the app's logger, for graceful shutdown (and tests). */
  onStarted?: (started: { queue: JobQueue; pool?: WorkerPool; log: Log }) => void;
}

function memoryQueue(log: Log): JobQueue {
  return new MemoryJobQueue({ onError: (error, job) => log.error({ err: error, key: job.key }, "resolve-bot job failed") });
}

export function resolveBot(options: ResolveBotOptions = {}) {
  return async function app(app: Probot, _options?: ApplicationFunctionOptions): Promise<void> {
    const env = options.env ?? process.env;
    // Built here too so a broken RESOLVE_BOT_TOOLS stops the server at start, not at the first command.
    const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
    const queue = (options.createQueue ?? memoryQueue)(app.log);
    const pool = options.execute
      ? undefined
      : new WorkerPool(workerPoolSettingsFromEnv(env), {
          onWorkerError: (error) => app.log.error({ err: error }, "resolve-bot worker failed between tasks"),
        });
    options.onStarted?.({ queue, ...(pool ? { pool } : {}), log: app.log });
    const execute =
      options.execute ??
      pooledExecute(pool!, app.log, async (request, message) => {
        const octokit = await app.auth(request.installationId);
        await octokit.rest.issues.createComment({ ...request.repository, issue_number: request.pullRequest, body: message });
        if (request.trigger.kind === "comment" && request.trigger.commentId !== undefined)
          await react(octokit, request.repository, request.trigger.commentId, "confused");
      });
    const acknowledgements = new Acknowledgements();

    queue.process(
      async (job, run) => {
        await acknowledgements.acknowledged(job.id);
        await execute(job.payload as Request, run.signal);
      },
      {
        concurrency: JOB_CONCURRENCY,
        onDeadLetter: (job, error) => app.log.error({ err: error, key: job.key }, "resolve-bot job failed"),
      },
    );

    app.on([...INGRESS_EVENTS], async (context) => {
      const request = toRequest(context);
      if (!request) return;
      const trigger = request.trigger;
      await acknowledgements.intake(
        request.deliveryId,
        () => queue.submit({ id: request.deliveryId, key: requestKey(request), payload: request }),
        async () => {
          if (trigger.kind !== "comment" || trigger.commentId === undefined) return;
          // The acknowledgement is a courtesy: if it fails, the command still runs.
          await react(context.octokit, request.repository, trigger.commentId, "eyes").catch((error: unknown) =>
            context.log.warn({ err: error }, "👀 reaction failed"),
          );
        },
      );
    });
    app.log.info(
      `resolve-bot ready with tools: ${registry
        .list()
        .map((tool) => tool.name)
        .join(", ")}`,
    );
  };
}

export default resolveBot();
