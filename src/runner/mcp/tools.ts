/**
 * What an MCP client sees of the tool registry: each preview tool with its TypeBox parameters as
 * the input schema (TypeBox schemas are JSON Schema), `pending`, and `resolve`; and a call turned
 * into the slash command a comment would hold, so it runs through the same pipeline.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SlashCommand } from "../../core/commands.js";
import type { ToolRegistry } from "../../core/registry.js";
import { resolveCommandArgs } from "../../core/resolve.js";
import { UserError } from "../../errors.js";
import type { AnyToolDefinition } from "../../core/tool.js";

export const RESOLVE_TOOL = "resolve";
export const PENDING_TOOL = "pending";

/** A JSON Schema object's properties, for the arguments every tool of a front end takes (HTTP: the pull request). */
export interface ExtraArguments {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}

const NO_EXTRA: ExtraArguments = { properties: {}, required: [] };

/** The JSON Schema of a TypeBox schema: its symbols (TypeBox's kind markers) dropped, as JSON carries it. */
function jsonSchema(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

function withExtra(schema: Record<string, unknown>, extra: ExtraArguments): Tool["inputSchema"] {
  const properties = { ...extra.properties, ...((schema.properties as Record<string, object> | undefined) ?? {}) };
  const required = [...extra.required, ...((schema.required as string[] | undefined) ?? [])];
  return { ...schema, type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

function previewTool(tool: AnyToolDefinition, extra: ExtraArguments): Tool {
  return {
    name: tool.name,
    title: tool.label,
    description: `${tool.description}\n\nPreviews only: nothing is written until \`resolve\` is called with action "apply".`,
    inputSchema: withExtra(jsonSchema(tool.parameters), extra),
    annotations: { title: tool.label, readOnlyHint: true, openWorldHint: false },
  };
}

/** `resolve`'s arguments; `only` is `/resolve apply --only <path>…` (commit part, the rest stays pending). */
export const RESOLVE_PROPERTIES = {
  action: {
    type: "string",
    enum: ["apply", "discard", "undo"],
    description:
      'apply: commit the newest pending action; discard: drop it; undo: preview reverting the newest commit resolve-bot made (then resolve it with "apply").',
  },
  reason: { type: "string", minLength: 1, description: "Why: required, and written into the commit message." },
  only: {
    type: "array",
    items: { type: "string", minLength: 1 },
    minItems: 1,
    description:
      'With action "apply": commit the newest action\'s changes to these files only (repository paths); the rest stays pending as "<label> (rest)".',
  },
} as const;

function resolveTool(extra: ExtraArguments, actions: readonly ResolveToolAction[]): Tool {
  const all = actions.length === RESOLVE_PROPERTIES.action.enum.length;
  const action = all
    ? RESOLVE_PROPERTIES.action
    : { ...RESOLVE_PROPERTIES.action, enum: [...actions], description: `Only ${actions.join(" or ")} is offered here.` };
  const properties = { ...RESOLVE_PROPERTIES, action };
  return {
    name: RESOLVE_TOOL,
    title: "Resolve",
    description:
      "Applies (commits) or discards the newest pending action (last in, first out), or previews undoing resolve-bot's newest commit. The reason is required.",
    inputSchema: withExtra({ type: "object", properties, required: ["action", "reason"] }, extra),
    annotations: { title: "Resolve", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  };
}

function pendingTool(extra: ExtraArguments): Tool {
  return {
    name: PENDING_TOOL,
    title: "Pending",
    description: "Lists the pending actions, newest first (the first is resolved next).",
    inputSchema: withExtra({ type: "object", properties: {} }, extra),
    annotations: { title: "Pending", readOnlyHint: true, openWorldHint: false },
  };
}

export interface Listing {
  /** The repository's `tools:` setting. */
  enabled(name: string): boolean;
  /** `steering: strict` with something pending: only `resolve` and `pending` are offered. */
  narrowed: boolean;
  /**
   * The actions `resolve` offers (default: all). None: `resolve` is not listed (on a pull request,
   * an agent resolves only what the repository's `agents.may_resolve` allows).
   */
  resolveActions?: readonly ResolveToolAction[];
}

export type ResolveToolAction = (typeof RESOLVE_PROPERTIES.action.enum)[number];

/** The tools offered now: the enabled preview tools (none while narrowed), then `pending` and `resolve`. */
export function listTools(registry: ToolRegistry, listing: Listing, extra: ExtraArguments = NO_EXTRA): Tool[] {
  const previews = listing.narrowed ? [] : registry.list().filter((tool) => listing.enabled(tool.name));
  const actions = listing.resolveActions ?? RESOLVE_PROPERTIES.action.enum;
  const resolve = actions.length > 0 ? [resolveTool(extra, actions)] : [];
  return [...previews.map((tool) => previewTool(tool, extra)), pendingTool(extra), ...resolve];
}

/** The arguments split: the front end's own (`extra`) and the tool's. */
export function splitArguments(args: Record<string, unknown>, extra: ExtraArguments = NO_EXTRA) {
  const own: Record<string, unknown> = {};
  const tool: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) (key in extra.properties ? own : tool)[key] = value;
  return { own, tool };
}

/**
 * A preview call as a comment would write it: the command with its parameters as a ```json block,
 * which core/arguments binds, defaults and validates as it does a comment's (same errors, same usage).
 */
export function previewCommand(name: string, args: Record<string, unknown>): SlashCommand {
  return { name, typed: name.replace(/_/g, "-"), args: "", block: { language: "json", text: JSON.stringify(args) }, line: 1 };
}

export function pendingCommand(): SlashCommand {
  return { name: "pending", typed: "pending", args: "", line: 1 };
}

/**
 * `resolve` as `/resolve <action> <reason>`; a reason is one line in a comment, so its line breaks
 * become spaces. Returns a usage sentence when the arguments are not `resolve`'s.
 */
export function resolveCommand(args: Record<string, unknown>): SlashCommand | { error: string } {
  const { action, reason } = args;
  if (action !== "apply" && action !== "discard" && action !== "undo") {
    return {
      error: `\`resolve\` needs \`action\`: "apply", "discard" or "undo" (got ${JSON.stringify(action ?? null)}). ${RESOLVE_CALL_USAGE}`,
    };
  }
  if (typeof reason !== "string" || reason.trim() === "") {
    return { error: `\`resolve\` with action "${action}" needs a \`reason\`: why, in words. ${RESOLVE_CALL_USAGE}` };
  }
  const only = args.only;
  if (only !== undefined && (!Array.isArray(only) || only.length === 0 || !only.every((path) => typeof path === "string" && path !== ""))) {
    return { error: `\`only\` is a list of the files to apply, e.g. ["src/a.ts"] (got ${JSON.stringify(only)}). ${RESOLVE_CALL_USAGE}` };
  }
  try {
    const text = resolveCommandArgs(action, reason.replace(/\s+/g, " ").trim(), only as string[] | undefined);
    return { name: "resolve", typed: "resolve", args: text, line: 1 };
  } catch (error) {
    if (error instanceof UserError) return { error: error.message };
    throw error;
  }
}

export const RESOLVE_CALL_USAGE =
  'Usage: `resolve` with `{ "action": "apply" | "discard" | "undo", "reason": "<why>" }` (and `"only": ["<path>", …]` to apply part).';
