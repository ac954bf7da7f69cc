/**
 * The GitHub Action front end: one workflow run carries out one event. The event (event.ts) goes
 * through the server's ingress (`toRequest`) and, in this process, through the same pipeline
 * (`executeWith` → `runRequest` with the GitHub ports), on an in-memory job queue that tries a
 * request again while GitHub fails for now (the later attempts with the journal on, as the
 * server's queue does). No worker pool and no durable queue: the runner's process is the unit.
 *
 * Configuration is the repository's `.github/resolve-bot.yml` from the default branch, as on the
 * server; nothing is ever loaded from the pull request's branch, and custom tools
 * (RESOLVE_BOT_TOOLS, modules the server's operator chose) are refused here: in a workflow they
 * would be code from the repository. The repository cache lives in RUNNER_TEMP.
 */
import { appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Runtime } from "../../core/runtime.js";
import { executeWith, type GitHubConnection } from "../../forges/github/execute.js";
import { toRequest } from "../../forges/github/ingress.js";
import { gaveUp } from "../../forges/github/replies/render.js";
import { replyChannel } from "../../forges/github/replies/reply-channel.js";
import { replyStopped } from "../../forges/github/replies/stopped-reply.js";
import { RetryableJobError } from "../../jobs/job-queue.js";
import { MemoryJobQueue } from "../../jobs/memory-queue.js";
import { statusAfterMs } from "../../pipeline/cost.js";
import type { ExecuteResult } from "../../pipeline/forge.js";
import type { Request } from "../../pipeline/request.js";
import { Intake } from "../../runner/intake.js";
import { requestLog } from "../../pipeline/request-log.js";
import { createRegistry } from "../../tools/index.js";
import { connect, credentialsOf } from "./auth.js";
import { readEvent } from "./event.js";
import { runLogOf } from "./inputs.js";
import { actionLog, type ActionLog } from "./log.js";

export const CUSTOM_TOOLS_REFUSED =
  "RESOLVE_BOT_TOOLS is not read by the Action: custom tools are modules a server's operator chose, and in a workflow they would be code from the repository. Use the built-in tools.";

/**
 * Said (job log and summary) instead of running an event whose token GitHub made read-only: a
 * pull request from a fork starts `pull_request*` workflows with a read-only GITHUB_TOKEN (and no
 * secrets, so no App either), which can write neither a check run, a commit, a review nor a reply.
 */
export function readOnlyForkNotice(event: string, fork: string): string {
  return (
    `This ${event} event is on a pull request from the fork ${fork}: GitHub gives its workflow a read-only token, so resolve-bot cannot answer on the pull request. ` +
    "Write the command in the pull request's conversation instead: `issue_comment` workflows run from the default branch with write access, " +
    "and an edit GitHub does not let resolve-bot push to the fork is offered there as suggested changes and a patch."
  );
}

/** The events whose workflows get a read-only token on a pull request from a fork (GitHub's docs). */
const FORK_READ_ONLY_EVENTS = new Set(["pull_request", "pull_request_review", "pull_request_review_comment"]);

/** The fork a read-only event's pull request comes from, if it is one. */
function readOnlyFork(delivery: { name: string; payload: unknown }): string | undefined {
  if (!FORK_READ_ONLY_EVENTS.has(delivery.name)) return undefined;
  const payload = delivery.payload as {
    repository: { full_name: string };
    pull_request?: { head?: { repo?: { full_name?: string } | null } };
  };
  const head = payload.pull_request?.head;
  if (head === undefined) return undefined;
  const fork = head.repo?.full_name ?? "(deleted fork)";
  return fork.toLowerCase() === payload.repository.full_name.toLowerCase() ? undefined : fork;
}

/** Attempts at one request while GitHub fails for now (5xx, rate limits, dropped connections). */
const ATTEMPTS = 3;

/** The environment the pipeline reads, with the Action's defaults: the repository cache in RUNNER_TEMP. */
export function actionEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const temp = env.RUNNER_TEMP?.trim() || os.tmpdir();
  return { ...env, RESOLVE_BOT_DATA_DIR: env.RESOLVE_BOT_DATA_DIR?.trim() || path.join(temp, "resolve-bot") };
}

/** A reply as people read it: without the hidden markers that name its request (forges/github/replies/render.ts). */
function readable(body: string): string {
  return body.replace(/\n*<!-- resolve-bot:[^>]*-->/g, "");
}

/** Markdown for the job's summary page (GITHUB_STEP_SUMMARY), where the run's page shows it. */
function appendSummary(env: NodeJS.ProcessEnv, markdown: string, log: ActionLog): void {
  const file = env.GITHUB_STEP_SUMMARY?.trim();
  if (!file || markdown === "") return;
  try {
    appendFileSync(file, markdown);
  } catch (error) {
    log.warn({ err: error }, "resolve-bot could not write the step summary");
  }
}

/** Carries out the run's event; resolves to the process's exit code. */
export async function runAction(given: NodeJS.ProcessEnv, log: ActionLog = actionLog(given)): Promise<number> {
  if (given.RESOLVE_BOT_TOOLS?.trim()) {
    log.error({}, CUSTOM_TOOLS_REFUSED);
    return 1;
  }
  const read = readEvent(given);
  if (!read.ok) {
    log.error({}, `resolve-bot cannot run: ${read.problem}`);
    return 1;
  }
  const { delivery, rerun } = read.event;
  const request = toRequest(delivery);
  const action = (delivery.payload as { action?: string }).action;
  if (!request) {
    log.info({}, `resolve-bot has nothing to do for ${delivery.name}${action ? `.${action}` : ""}.`);
    return 0;
  }
  const fork = readOnlyFork(delivery);
  if (fork !== undefined) {
    const notice = readOnlyForkNotice(delivery.name, fork);
    log.info({}, `::notice::${notice}`);
    appendSummary(given, `${notice}\n`, log);
    return 0;
  }
  const credentials = credentialsOf(given);
  if (!credentials.ok) {
    log.error({}, `resolve-bot cannot run: ${credentials.problem}`);
    return 1;
  }
  const env = actionEnvironment(given);
  // The modules that read settings (the repository cache, limits, time limits) read process.env.
  Object.assign(process.env, env);
  const requestLogger = requestLog(log, request);
  const runtime = new Runtime(await createRegistry({}));

  let connection: Promise<GitHubConnection> | undefined;
  const connected = (): Promise<GitHubConnection> => {
    connection ??= connect(env, credentials.credentials, request.repository, runtime, requestLogger);
    // A failed connection (GitHub failing for now) is tried again by the next attempt.
    connection.catch(() => (connection = undefined));
    return connection;
  };

  const outcome = await carryOut(request, rerun, env, connected, log);
  appendSummary(env, (outcome?.replied ?? []).map((body) => `${readable(body)}\n\n`).join(""), requestLogger);
  if (outcome === undefined) return 1;
  for (const body of outcome.replied) requestLogger.info({}, `resolve-bot replied:\n${readable(body)}`);
  return outcome.status === "bot-error" ? 1 : 0;
}

/**
 * The request through the runner's intake on an in-memory queue (👀 once recorded, retries with
 * backoff, later attempts as re-runs, the give-up reply); undefined when given up.
 */
async function carryOut(
  request: Request,
  rerun: boolean,
  env: NodeJS.ProcessEnv,
  connected: () => Promise<GitHubConnection>,
  log: ActionLog,
): Promise<ExecuteResult | undefined> {
  let outcome: ExecuteResult | undefined;
  const queue = new MemoryJobQueue({ maxAttempts: ATTEMPTS, onError: (error) => log.error({ err: error }, "resolve-bot failed") });
  const intake = new Intake({
    queue,
    log,
    giveUp: {
      message: gaveUp(runLogOf(env)),
      reply: async (stopped, message) => replyStopped((await connected()).octokit, stopped, message, statusAfterMs(env)),
    },
  });
  intake.process({
    async execute(stored, run) {
      const requestLogger = requestLog(log, stored);
      const result = await executeWith(stored, env, { log: requestLogger, rerun: rerun || run.rerun }, connected);
      // The intake logs the retry with its wait.
      if (result.retry) throw new RetryableJobError(result.retry.message, result.retry.retryAfterMs);
      outcome = result;
    },
    concurrency: 1,
    retry: { maxAttempts: ATTEMPTS },
  });
  await intake.submit(request, async () => replyChannel((await connected()).octokit, request).acknowledge());
  await queue.idle();
  await queue.close();
  return outcome;
}
