/**
 * Per-repository settings, `.github/resolve-bot.yml` on the default branch (read with Probot's
 * context.config, never from the pull request branch), validated with TypeBox.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { normaliseCommandName } from "../core/commands.js";
import { describeSchemaError } from "../core/schema-errors.js";
import { DEFAULT_COMMAND_LIMITS, type CommandLimits, type Steering } from "../core/context.js";
import type { WorkspaceLimits } from "../workspace/limits.js";

export const PERMISSION_LEVELS = ["read", "triage", "write", "maintain", "admin"] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** What `agents.may_resolve` may allow; by default an agent never resolves (a person's `/resolve` does). */
export const AGENT_RESOLUTIONS = ["discard", "apply"] as const;
export type AgentResolution = (typeof AGENT_RESOLUTIONS)[number];

const Level = Type.Union(PERMISSION_LEVELS.map((level) => Type.Literal(level)));

/** Its descriptions are what an editor shows for each key (docs/resolve-bot.schema.json is made from it). */
export const RepoConfigSchema = Type.Object(
  {
    tools: Type.Optional(
      Type.Array(Type.String(), { description: "Enabled tools (default: all). `ast-edit`, `ast_edit` and `AST_Edit` mean the same." }),
    ),
    permissions: Type.Optional(
      Type.Record(Type.String(), Level, {
        description: "Minimum permission per command; key `default` for the rest (default: write; help and pending need read).",
      }),
    ),
    steering: Type.Optional(
      Type.Union([Type.Literal("stack"), Type.Literal("strict")], {
        description: "stack (default): previews pile up; strict: new previews are refused until the stack is empty.",
      }),
    ),
    gate_check: Type.Optional(Type.Boolean({ description: "The `resolve-bot` check run, for branch protection (default: true)." })),
    limits: Type.Optional(
      Type.Object(
        {
          max_files: Type.Optional(Type.Integer({ minimum: 1, description: "Files in the repository, or touched by one change." })),
          max_file_bytes: Type.Optional(Type.Integer({ minimum: 1, description: "Bigger files are left alone." })),
          max_total_bytes: Type.Optional(
            Type.Integer({ minimum: 1, description: "Bytes of all files together (the tarball read, a change's writes)." }),
          ),
          max_commands_per_comment: Type.Optional(
            Type.Integer({ minimum: 1, description: "A comment with more commands is refused whole; nothing runs." }),
          ),
          max_pending: Type.Optional(Type.Integer({ minimum: 1, description: "Previews are refused while the stack holds this many." })),
        },
        { additionalProperties: false },
      ),
    ),
    commit_message: Type.Optional(
      Type.String({
        minLength: 1,
        description: "Commit message template with {label}, {reason}, {tool}, {id}; trailers are always added.",
      }),
    ),
    run_on_edit: Type.Optional(
      Type.Boolean({ description: "Run the commands a comment's edit adds (never one that already ran). Default off." }),
    ),
    agents: Type.Optional(
      Type.Object(
        {
          may_resolve: Type.Optional(
            Type.Array(Type.Union(AGENT_RESOLUTIONS.map((action) => Type.Literal(action))), {
              uniqueItems: true,
              description: "What an agent (the MCP server at /mcp) may do to a pending action: discard, apply. Default none.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type RawRepoConfig = Static<typeof RepoConfigSchema>;

export interface RepoConfig {
  tools?: string[];
  permissions: Record<string, PermissionLevel>;
  steering: Steering;
  gateCheck: boolean;
  /** The repository's own limits, each only lowering the server's (workspace/limits.ts withinServerLimits). */
  limits: Partial<Pick<WorkspaceLimits, "maxFiles" | "maxFileBytes" | "maxTotalBytes">>;
  /** How many commands one comment may hold, and how many actions a PR's stack. */
  commandLimits: CommandLimits;
  commitMessage: string;
  /** Commands added to a comment by editing it run (once); off by default. */
  runOnEdit: boolean;
  /** What an agent may resolve over MCP on this repository (none by default). */
  agentsMayResolve: AgentResolution[];
}

export const DEFAULT_COMMIT_MESSAGE = "{label}\n\n{reason}";

export const DEFAULT_PERMISSIONS: Record<string, PermissionLevel> = { default: "write", help: "read", pending: "read" };

export type ConfigResult = { ok: true; config: RepoConfig } | { ok: false; errors: string[] };

/**
 * One problem of a configuration file: where it is (keys and indexes from the top; empty for the
 * whole file) and what the gate says about it. `resolve-bot config validate` shows the same text
 * with the line and column of `path`.
 */
export interface ConfigProblem {
  path: (string | number)[];
  message: string;
  /** The problem is the path's last key itself (unknown), not its value. */
  isKey?: true;
}

/** What the schema refuses in a configuration, worded as the gate check words it (and as tool parameters are). */
export function schemaProblems(raw: unknown): ConfigProblem[] {
  const problems = [...Value.Errors(RepoConfigSchema, raw ?? {})].map((error) => {
    // A JSON pointer: `/limits/max_files`, with `~1` for `/` and `~0` for `~` inside keys.
    const path = error.path
      .split("/")
      .filter(Boolean)
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
    const key = path.join(".") || "(top level)";
    if (error.type === ValueErrorType.ObjectAdditionalProperties) return { path, message: `${key}: unknown key`, isKey: true as const };
    return { path, message: `${key}: ${describeSchemaError(error)}` };
  });
  return problems.filter((problem, index) => problems.findIndex((other) => other.message === problem.message) === index);
}

export function parseRepoConfig(raw: unknown): ConfigResult {
  const value = raw ?? {};
  const problems = schemaProblems(value);
  if (problems.length > 0) return { ok: false, errors: problems.map((problem) => problem.message) };
  const config = value as RawRepoConfig;
  return {
    ok: true,
    config: {
      // Names as typed (`ast-edit`, `AST_Edit`) mean the command: one normaliser for all of them.
      tools: config.tools?.map(normaliseCommandName),
      permissions: { ...DEFAULT_PERMISSIONS, ...normaliseKeys(config.permissions ?? {}) },
      steering: config.steering ?? "stack",
      gateCheck: config.gate_check ?? true,
      // Only within the server's limits: the workspace port applies them (workspace/limits.ts).
      limits: withoutUndefined({
        maxFiles: config.limits?.max_files,
        maxFileBytes: config.limits?.max_file_bytes,
        maxTotalBytes: config.limits?.max_total_bytes,
      }),
      commandLimits: {
        maxCommandsPerComment: config.limits?.max_commands_per_comment ?? DEFAULT_COMMAND_LIMITS.maxCommandsPerComment,
        maxPending: config.limits?.max_pending ?? DEFAULT_COMMAND_LIMITS.maxPending,
      },
      commitMessage: config.commit_message ?? DEFAULT_COMMIT_MESSAGE,
      runOnEdit: config.run_on_edit ?? false,
      agentsMayResolve: config.agents?.may_resolve ?? [],
    },
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

function normaliseKeys(permissions: Record<string, PermissionLevel>): Record<string, PermissionLevel> {
  return Object.fromEntries(Object.entries(permissions).map(([key, level]) => [normaliseCommandName(key), level]));
}

/** Tool names and permission keys must name real commands (normalised: `ast-edit` = `ast_edit`). */
export function checkNames(config: RepoConfig, commands: string[]): string[] {
  return nameProblems(config, commands).map((problem) => problem.message);
}

/** `checkNames` with where each name is: `["tools", index]`, `["permissions", key as normalised]`. */
export function nameProblems(config: RepoConfig, commands: string[]): ConfigProblem[] {
  return namedProblems(config.tools ?? [], Object.keys(config.permissions), commands);
}

/**
 * The names a file holds that are no command, read from the file as it is, so they are said beside
 * the schema's problems in one pass (a tool list with a typo and a bad limit: both, at once). A
 * name the schema already refuses (not a string) is left to it.
 */
export function rawNameProblems(raw: unknown, commands: string[]): ConfigProblem[] {
  const file = (typeof raw === "object" && raw !== null ? raw : {}) as { tools?: unknown; permissions?: unknown };
  const tools = Array.isArray(file.tools)
    ? file.tools.map((tool) => (typeof tool === "string" ? normaliseCommandName(tool) : undefined))
    : [];
  const permissions =
    typeof file.permissions === "object" && file.permissions !== null && !Array.isArray(file.permissions)
      ? Object.keys(file.permissions).map(normaliseCommandName)
      : [];
  return namedProblems(tools, permissions, commands);
}

function namedProblems(tools: readonly (string | undefined)[], permissionKeys: readonly string[], commands: string[]): ConfigProblem[] {
  const known = new Set(commands.map(normaliseCommandName));
  const problems: ConfigProblem[] = [];
  tools.forEach((tool, index) => {
    if (tool !== undefined && !known.has(tool))
      problems.push({ path: ["tools", index], message: `tools: unknown tool ${JSON.stringify(tool)}` });
  });
  for (const key of permissionKeys) {
    if (key !== "default" && !known.has(key))
      problems.push({ path: ["permissions", key], message: `permissions.${key}: unknown command`, isKey: true });
  }
  return problems;
}

export const DEFAULT_REPO_CONFIG: RepoConfig = (parseRepoConfig({}) as { ok: true; config: RepoConfig }).config;

/** The permission a command needs: its own entry, else `default`. */
export function requiredPermission(config: RepoConfig, command: string): PermissionLevel {
  return config.permissions[normaliseCommandName(command)] ?? config.permissions.default ?? "write";
}
