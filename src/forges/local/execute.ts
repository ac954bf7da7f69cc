/**
 * The local forge as a worker runs it (src/runner/forge-registry.ts's `local`): a stored request whose repository
 * is a checkout's path, carried out on that checkout with the tools the environment names, its
 * reply written to this process's stdout and stderr.
 */
import { Runtime } from "../../core/runtime.js";
import type { ExecuteResult, ForgeAdapter } from "../../pipeline/forge.js";
import type { Request } from "../../pipeline/request.js";
import { createRegistry } from "../../tools/index.js";
import { runLocalRequest } from "./ports.js";

async function executeLocalRequest(request: Request, env: NodeJS.ProcessEnv): Promise<ExecuteResult> {
  const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
  const replied: string[] = [];
  const output = {
    out: (text: string) => void (replied.push(text), process.stdout.write(`${text}\n`)),
    err: (text: string) => void (replied.push(text), process.stderr.write(`${text}\n`)),
  };
  const status = await runLocalRequest(request, { runtime: new Runtime(registry), output });
  return { ok: status === "ok", status, replied };
}

export const localForge: ForgeAdapter = { execute: executeLocalRequest };
