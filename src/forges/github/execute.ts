/**
 * The GitHub composition root: carries out one GitHub request from nothing but the request and the
 * environment, so it runs the same in the server's process and in a fresh worker thread (the
 * `github` entry of src/runner/forge-registry.ts): it builds its own tool registry and
 * an installation Octokit (APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH, GHE_HOST/GHE_PROTOCOL,
 * RESOLVE_BOT_THROTTLE, RESOLVE_BOT_TOOLS), runs the pipeline and answers with a JSON summary.
 * What is expensive to build is built once per thread (per distinct configuration).
 */
import type { Probot } from "probot";
import { Runtime } from "../../core/runtime.js";
import type { ExecuteOptions, ExecuteResult, ForgeAdapter } from "../../pipeline/forge.js";
import type { PipelineLog } from "../../pipeline/ports.js";
import type { Request } from "../../pipeline/request.js";
import { runRequest } from "../../pipeline/run-request.js";
import { createRegistry } from "../../tools/index.js";
import { CommandTiming } from "../../pipeline/command-metrics.js";
import { statusAfterMs } from "../../pipeline/cost.js";
import { requestLog } from "../../pipeline/request-log.js";
import { transientFailure } from "./api/http-errors.js";
import { probotFromEnv, webUrl } from "./api/octokit.js";
import { githubPorts } from "./ports.js";
import type { GitHubClient } from "./types.js";

export type { ExecuteOptions, ExecuteResult } from "../../pipeline/forge.js";

/** How long an installation's permissions are trusted before asking GitHub again. */
const PERMISSIONS_TTL_MS = 10 * 60 * 1000;

interface Executor {
  probot: Probot;
  runtime: Runtime;
  appId: number;
  webUrl: string;
  canWriteWorkflows(installationId: number | undefined): Promise<boolean>;
}

const executors = new Map<string, Promise<Executor>>();

/** The settings an executor is built from: another combination gets another executor. */
function executorKey(env: NodeJS.ProcessEnv): string {
  const keys = ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "GHE_HOST", "GHE_PROTOCOL", "RESOLVE_BOT_THROTTLE", "RESOLVE_BOT_TOOLS"];
  return JSON.stringify(keys.map((key) => env[key] ?? null));
}

async function buildExecutor(env: NodeJS.ProcessEnv): Promise<Executor> {
  const probot = probotFromEnv(env);
  const appId = Number(env.APP_ID);
  const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
  const permissions = new Map<number, { workflows: boolean; at: number }>();
  return {
    probot,
    runtime: new Runtime(registry),
    appId,
    webUrl: webUrl(env),
    async canWriteWorkflows(installationId) {
      if (installationId === undefined) return false;
      const cached = permissions.get(installationId);
      if (cached && Date.now() - cached.at < PERMISSIONS_TTL_MS) return cached.workflows;
      const appOctokit = await probot.auth();
      const { data } = await appOctokit.rest.apps.getInstallation({ installation_id: installationId });
      const workflows = data.permissions?.workflows === "write";
      permissions.set(installationId, { workflows, at: Date.now() });
      return workflows;
    },
  };
}

function executorFor(env: NodeJS.ProcessEnv): Promise<Executor> {
  const key = executorKey(env);
  let executor = executors.get(key);
  if (!executor) {
    executor = buildExecutor(env);
    // A failed build (a bad custom tool, no key) is tried again next time, not cached.
    executor.catch(() => executors.delete(key));
    executors.set(key, executor);
  }
  return executor;
}

/**
 * What carrying out a request on GitHub needs once connected: an Octokit for the repository, the
 * runtime, and who the bot is there. The server's workers connect from APP_ID/PRIVATE_KEY; the
 * GitHub Action (src/action) from the workflow's token or an App's.
 */
export interface GitHubConnection {
  octokit: GitHubClient;
  runtime: Runtime;
  /** Where failures are logged unless the caller names a logger. */
  log: PipelineLog;
  webUrl: string;
  /** Whose check runs are the stack (checks/read-runs.ts). */
  appId?: number;
  appSlug?: string;
  /** The gate's Apply/Discard buttons (default yes). */
  gateButtons?: boolean;
  /** Where the apology for a failure says its error is (replies/render.ts `internalError`): the app's log by default. */
  errorLog?: string;
  canWriteWorkflows(): Promise<boolean>;
}

/**
 * Connects, then runs the pipeline on one request; GitHub failing for now (while connecting too)
 * comes back as a `retry` result, anything else is thrown.
 */
export async function executeWith(
  request: Request,
  env: NodeJS.ProcessEnv,
  options: ExecuteOptions,
  connect: () => Promise<GitHubConnection>,
): Promise<ExecuteResult> {
  const replied: string[] = [];
  try {
    return await carryOut(request, await connect(), env, options, replied);
  } catch (error) {
    // Plain JSON across the worker thread: pooled-execute turns it into a job retry.
    const transient = transientFailure(error);
    if (!transient) throw error;
    const retryAfter = transient.retryAfterMs === undefined ? {} : { retryAfterMs: transient.retryAfterMs };
    return { ok: false, status: "bot-error", replied, retry: { message: transient.message, ...retryAfter } };
  }
}

export function executeRequest(request: Request, env: NodeJS.ProcessEnv, options: ExecuteOptions = {}): Promise<ExecuteResult> {
  return executeWith(request, env, options, () => connectAsApp(request, env));
}

/** The server's connection: the app's installation Octokit from the environment. */
async function connectAsApp(request: Request, env: NodeJS.ProcessEnv): Promise<GitHubConnection> {
  const executor = await executorFor(env);
  const installationId = installationOf(request);
  return {
    octokit: await executor.probot.auth(installationId),
    runtime: executor.runtime,
    log: executor.probot.log,
    appId: executor.appId,
    webUrl: executor.webUrl,
    canWriteWorkflows: () => executor.canWriteWorkflows(installationId),
  };
}

async function carryOut(
  request: Request,
  connection: GitHubConnection,
  env: NodeJS.ProcessEnv,
  options: ExecuteOptions,
  replied: string[],
): Promise<ExecuteResult> {
  const { octokit, runtime } = connection;
  // A new Octokit per request: its own lines (request logging, rate-limit warnings) name the request too.
  octokit.log = requestLog(octokit.log, request);
  const afterMs = statusAfterMs(env);
  const timing = new CommandTiming(request, (name) => runtime.registry.command(name) !== undefined, options.progress);
  const ports = githubPorts(octokit, request, {
    runtime,
    log: requestLog(options.log ?? connection.log, request),
    ...(connection.appId === undefined ? {} : { appId: connection.appId }),
    ...(connection.appSlug === undefined ? {} : { appSlug: connection.appSlug }),
    ...(connection.gateButtons === undefined ? {} : { gateButtons: connection.gateButtons }),
    ...(connection.errorLog === undefined ? {} : { errorLog: connection.errorLog }),
    webUrl: connection.webUrl,
    canWriteWorkflows: () => connection.canWriteWorkflows(),
    onReply: (body) => replied.push(body),
    progress: timing.progress,
    ...(options.rerun ? { rerun: true } : {}),
    ...(afterMs !== undefined ? { statusAfterMs: afterMs } : {}),
  });
  const result = await runRequest(request, ports);
  timing.finish(result);
  // Only an agent's call is answered with the neutral reply too (its diffs would cross the thread boundary for nobody).
  const forAgent = request.origin.kind === "mcp" && result.reply ? { reply: result.reply } : {};
  return { ok: result.status === "ok", status: result.status, replied, ...forAgent };
}

function installationOf(request: Request): number | undefined {
  return request.forge.id === "github" ? request.forge.installationId : undefined;
}

export const githubForge: ForgeAdapter = {
  execute: executeRequest,
  warmUp: async (env) => {
    await executorFor(env);
  },
};
