/**
 * A forge adapter as the worker sees it: it carries out one stored request from nothing but the
 * request and the environment (so it runs the same in the server's process and in a worker
 * thread) and answers with a JSON summary. src/runner/forge-registry.ts keys the adapters by forge id.
 */
import type { Progress } from "../core/context.js";
import type { PipelineLog } from "./ports.js";
import type { Reply, ReplyStatus } from "./reply.js";
import type { Request } from "./request.js";

export interface ExecuteResult {
  /** The request did what was asked (a refusal or a failed command is not ok). */
  ok: boolean;
  status: ReplyStatus;
  /** Each reply posted, as rendered. */
  replied: string[];
  /** The neutral reply of an agent's request (`mcp` origin): its MCP front end answers the call with it too. */
  reply?: Reply;
  /** The forge failed for now (pipeline/transient): the job is to be tried again, no sooner than it asked. */
  retry?: { message: string; retryAfterMs?: number };
}

export interface ExecuteOptions {
  /** Where failures are logged (default: the adapter's own logger). */
  log?: PipelineLog;
  progress?: Progress;
  /** The job's earlier attempt was cut short: what it did is looked up and not done again. */
  rerun?: boolean;
}

export interface ForgeAdapter {
  execute(request: Request, env: NodeJS.ProcessEnv, options?: ExecuteOptions): Promise<ExecuteResult>;
  /** Builds, ahead of the first request, what `execute` builds once per thread (a worker's warm-up). */
  warmUp?(env: NodeJS.ProcessEnv): Promise<void>;
}

/** A job for a worker thread. `rerun`: an attempt after the first (kept out of the request, which is what was asked). */
export interface RequestTask {
  request: Request;
  rerun: boolean;
}
