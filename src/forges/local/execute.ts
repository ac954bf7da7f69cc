/**
 * The local forge as a worker runs it (src/runner/forge-registry.ts's `local`): a stored request whose repository
 * is a checkout's path, carried out on that checkout with the tools the environment names; its
 * reply comes back as plain text in the result, for the front end that submitted it to show.
 */
import { Runtime } from "../../core/runtime.js";
import type { ExecuteResult, ForgeAdapter } from "../../pipeline/forge.js";
import type { Request } from "../../pipeline/request.js";
import { createRegistry } from "../../tools/index.js";
import { runLocalRequest } from "./ports.js";
import { terminalSink } from "./terminal.js";

async function executeLocalRequest(request: Request, env: NodeJS.ProcessEnv): Promise<ExecuteResult> {
  const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
  const replied: string[] = [];
  // Collected as the terminal would show them: the front end that submitted the request says them.
  const sink = terminalSink({ out: (text) => replied.push(text), err: (text) => replied.push(text) });
  const status = await runLocalRequest(request, { runtime: new Runtime(registry), sink });
  return { ok: status === "ok", status, replied };
}

export const localForge: ForgeAdapter = { execute: executeLocalRequest };
