/**
 * What a pool worker thread runs for one job: the request, carried out by its forge's adapter
 * (src/runner/forge-registry.ts) from the environment the worker inherited, telling the pool which command runs
 * and when writing starts (so its time limit is per command and its stop reply is true).
 */
import { forgeAdapter } from "./forge-registry.js";
import { warmUpTools } from "../tools/warm-up.js";
import type { ExecuteResult, RequestTask } from "../pipeline/forge.js";
import { reportCommand, reportWriting } from "../workers/progress.js";

/**
 * What a pool worker does when it starts (workers/pool.ts `warmUp`): loads the GitHub adapter's
 * modules and builds its executor, ~0.6 s that the first request after a start paid before, then
 * starts running the tools' hot code (tools/warm-up.ts). Only GitHub's: the server that has a pool
 * answers GitHub; the local front end runs in-process.
 */
export async function warmUpWorker(): Promise<void> {
  const adapter = await forgeAdapter("github");
  await adapter.warmUp?.(process.env);
  // Not awaited: the worker takes tasks meanwhile (a command right after a start waits for one
  // step of it at most, not for all of it).
  void warmUpTools().catch(() => undefined);
}

export async function executeRequestTask({ request, rerun }: RequestTask): Promise<ExecuteResult> {
  const adapter = await forgeAdapter(request.forge.id);
  return adapter.execute(request, process.env, { progress: { command: reportCommand, writing: reportWriting }, rerun });
}
