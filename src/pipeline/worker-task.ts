/**
 * What a pool worker thread runs for one job: the request, carried out from the environment the
 * worker inherited, telling the pool which command runs and when writing starts (so its time limit
 * is per command and its stop reply is true).
 */
import { reportCommand, reportWriting } from "../workers/progress.js";
import { executeRequest, type ExecuteResult } from "./execute.js";
import type { Request } from "./request.js";

/** `rerun`: an attempt after the first (kept out of the request, which is what was asked). */
export interface RequestTask {
  request: Request;
  rerun: boolean;
}

export async function executeRequestTask({ request, rerun }: RequestTask): Promise<ExecuteResult> {
  return executeRequest(request, process.env, { progress: { command: reportCommand, writing: reportWriting }, rerun });
}
