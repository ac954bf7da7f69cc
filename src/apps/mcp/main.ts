/**
 * `resolve-bot mcp`: an MCP server on stdio over the checkout around `cwd`, for an agent on the
 * same machine. Each tool call is a request through the local forge, as a CLI verb is: the same
 * stack (`.git/resolve-bot/stack.json`, which a person may resolve beside the agent with
 * `resolve-bot resolve apply`), the same settings (`.github/resolve-bot.yml` as committed at HEAD).
 */
import { watch } from "node:fs";
import { mkdir } from "node:fs/promises";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { normaliseCommandName } from "../../core/commands.js";
import { mcpPhrasing } from "../../core/messages.js";
import { Runtime } from "../../core/runtime.js";
import { localPorts, openCheckout, runLocalCommands, type LocalOptions } from "../../forges/local/ports.js";
import type { Reply } from "../../pipeline/reply.js";
import { createResolveBotMcp, type McpBackend, type ResolveBotMcp } from "../../runner/mcp/server.js";
import { createRegistry } from "../../tools/index.js";

export interface McpOptions {
  cwd: string;
  /** `--strict`: steering strict whatever the settings say. */
  strict: boolean;
  env: NodeJS.ProcessEnv;
  version: string;
}

/** The checkout's words for MCP: its settings file, and what made steering strict. */
function checkoutPhrasing(strict: boolean) {
  return mcpPhrasing({
    configFile: "`.github/resolve-bot.yml` (as committed at HEAD)",
    strictBy: strict ? "`resolve-bot mcp --strict` is on" : "`.github/resolve-bot.yml` (as committed at HEAD) sets `steering: strict`",
  });
}

/** The backend on a checkout: the local forge's ports, an `mcp` origin, MCP's phrasing. */
export async function checkoutBackend(options: McpOptions): Promise<McpBackend> {
  const registry = await createRegistry({ customTools: options.env.RESOLVE_BOT_TOOLS });
  const runtime = new Runtime(registry);
  const checkout = await openCheckout(options.cwd);
  const steering = options.strict ? ("strict" as const) : ("stack" as const);
  const base: Omit<LocalOptions, "sink"> = { cwd: checkout.root, runtime, steering, phrasing: checkoutPhrasing(options.strict) };
  return {
    registry,
    async listing() {
      const ports = localPorts(checkout, { ...base, sink: { reply: () => undefined, note: () => undefined } });
      const loaded = await ports.config.load();
      const config = loaded.ok ? loaded.config : ports.config.fallback;
      const enabled = config.tools ? new Set(config.tools) : undefined;
      return {
        enabled: (name) => !enabled || enabled.has(normaliseCommandName(name)),
        narrowed: config.steering === "strict" && (await checkout.store.hasPending()),
      };
    },
    async run(call) {
      let reply: Reply | undefined;
      const notes: string[] = [];
      const origin = { kind: "mcp" as const, ...(call.agent ? { agent: { name: call.agent.name, version: call.agent.version } } : {}) };
      await runLocalCommands([call.command], {
        ...base,
        origin,
        sink: { reply: (given) => (reply = given), note: (text) => notes.push(text) },
      });
      if (!reply) throw new Error("The request ended without a reply.");
      return { reply, notes };
    },
  };
}

/**
 * Serves MCP on stdin/stdout until the client closes them. The stack's directory is watched, so a
 * person resolving in a terminal beside the agent widens a strict list at once (`list_changed`).
 */
export async function serveMcp(options: McpOptions): Promise<ResolveBotMcp> {
  const mcp = createResolveBotMcp(await checkoutBackend(options), { name: "resolve-bot", version: options.version });
  const { store } = await openCheckout(options.cwd);
  await mkdir(store.directory, { recursive: true });
  // A failed check (the client gone) leaves the next to try again.
  const watcher = watch(store.directory, () => void mcp.checkTools().catch(() => undefined));
  const closed = mcp.server.onclose;
  mcp.server.onclose = () => {
    watcher.close();
    closed?.();
  };
  await mcp.server.connect(new StdioServerTransport());
  // The client going away closes stdin: the server closes (the SDK's transport does not watch for it).
  process.stdin.once("end", () => void mcp.server.close());
  return mcp;
}

/**
 * `resolve-bot mcp [--cwd DIR] [--strict]`: stdout is the protocol's, so whatever goes wrong
 * before it starts is said on stderr. Resolves with the exit code once the client has gone.
 */
export async function mcpVerb(argv: string[], io: { err(text: string): void; usage: string; version: string }): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { cwd: { type: "string" }, strict: { type: "boolean" } } }));
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${io.usage}`);
    return 2;
  }
  let mcp: ResolveBotMcp;
  try {
    mcp = await serveMcp({ cwd: values.cwd ?? process.cwd(), strict: values.strict ?? false, env: process.env, version: io.version });
  } catch (error) {
    io.err((error as Error).message);
    return 1;
  }
  await new Promise<void>((resolve) => {
    const closed = mcp.server.onclose;
    mcp.server.onclose = () => {
      closed?.();
      resolve();
    };
  });
  return 0;
}
