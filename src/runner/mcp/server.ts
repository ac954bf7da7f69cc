/**
 * The MCP server every MCP front end shares (stdio on a checkout: apps/mcp; Streamable HTTP on a
 * pull request: the server): the registry's tools listed with their schemas, each call carried out
 * as one Request through the pipeline by the front end's `McpBackend`.
 *
 * The SDK's low-level `Server`, not `McpServer`: McpServer takes zod schemas and validates
 * arguments itself, with its own messages, where the tools' TypeBox schemas are the JSON Schema
 * we publish and core/arguments answers bad arguments with the tool's usage, as for a comment.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Implementation,
} from "@modelcontextprotocol/sdk/types.js";
import type { SlashCommand } from "../../core/commands.js";
import type { ToolRegistry } from "../../core/registry.js";
import type { Reply } from "../../pipeline/reply.js";
import { argumentProblems } from "./arguments.js";
import { refusedCall, toolResult } from "./results.js";
import {
  listTools,
  pendingCommand,
  PENDING_TOOL,
  previewCommand,
  resolveCommand,
  RESOLVE_TOOL,
  splitArguments,
  type ExtraArguments,
  type Listing,
} from "./tools.js";

/** One tool call, as the front end carries it out. */
export interface McpCall {
  /** The slash command the call stands for (one). */
  command: SlashCommand;
  /** The front end's own arguments (`extra`; HTTP: owner, repo, pull_number), as given. */
  target: Record<string, unknown>;
  /** The client as it named itself at initialize. */
  agent?: Implementation;
}

/** What a front end supplies: where requests run, and what they may see. */
export interface McpBackend {
  registry: ToolRegistry;
  /**
   * The arguments every tool takes besides its own (JSON Schema properties), none on a checkout;
   * on a pull request e.g. `owner`, `repo`, `pull_number` and an optional `rationale`. They come
   * back in `McpCall.target`, never in the tool's parameters.
   */
  extra?: ExtraArguments;
  /** The tools offered now (the repository's settings and stack decide). */
  listing(): Promise<Listing>;
  /**
   * Runs the call as one Request; its reply, and what was noted meanwhile (a failure's cause). Or
   * the front end's own answer (`result`): a call it refused before any request (HTTP: a person
   * without the permission), or one queued for another process to carry out.
   */
  run(call: McpCall): Promise<{ reply: Reply; notes?: string[] } | { result: CallToolResult }>;
}

export interface ResolveBotMcp {
  server: Server;
  /** Tells the client when the offered tools changed since it last asked (steering narrowing or widening). */
  checkTools(): Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function createResolveBotMcp(backend: McpBackend, info: Implementation): ResolveBotMcp {
  const server = new Server(info, {
    capabilities: { tools: { listChanged: true } },
    instructions:
      "resolve-bot's tools preview edits and push each onto a stack of pending actions; nothing is written until `resolve` applies the newest one (or discards it). A person may resolve them too.",
  });
  let offered: string | undefined;
  const names = async () => {
    const listing = await backend.listing();
    return { listing, key: JSON.stringify(listTools(backend.registry, listing, backend.extra).map((tool) => tool.name)) };
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { listing, key } = await names();
    offered = key;
    return { tools: listTools(backend.registry, listing, backend.extra) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (!isRecord(args)) return refusedCall(`The arguments of \`${name}\` must be an object.`);
    const { own, tool } = splitArguments(args, backend.extra);
    let command: SlashCommand;
    if (name === RESOLVE_TOOL) {
      const resolved = resolveCommand(tool);
      if ("error" in resolved) return refusedCall(resolved.error);
      command = resolved;
    } else if (name === PENDING_TOOL) {
      command = pendingCommand();
    } else {
      const listing = await backend.listing();
      const known = backend.registry.list().filter((candidate) => listing.enabled(candidate.name));
      const definition = known.find((candidate) => candidate.name === name);
      if (!definition) {
        const names = [...known.map((candidate) => candidate.name), PENDING_TOOL, RESOLVE_TOOL];
        return refusedCall(`Unknown tool \`${name}\`. Tools: ${names.map((known) => `\`${known}\``).join(", ")}.`);
      }
      const problems = argumentProblems(definition, tool);
      if (problems !== undefined) return refusedCall(problems);
      // One steering holds back (strict, something pending) is refused by the runtime, in its usual sentence.
      command = previewCommand(name, tool);
    }
    const agent = server.getClientVersion();
    const ran = await backend.run({ command, target: own, ...(agent ? { agent } : {}) });
    await checkTools();
    return "result" in ran ? ran.result : toolResult(ran.reply, ran.notes);
  });

  // One check at a time (a call's and a watcher's may overlap), so a change is told once.
  let checking = Promise.resolve();
  function checkTools(): Promise<void> {
    const check = checking.then(async () => {
      // Only a client that has listed the tools is told they changed.
      if (offered === undefined) return;
      const { key } = await names();
      if (key === offered) return;
      offered = key;
      await server.sendToolListChanged();
    });
    checking = check.catch(() => undefined);
    return check;
  }

  return { server, checkTools };
}
