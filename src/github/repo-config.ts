/**
 * Per-repository settings, `.github/resolve-bot.yml` on the default branch (read with Probot's
 * context.config, never from the pull request branch), validated with TypeBox.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { normaliseCommandName } from "../core/commands.js";
import { DEFAULT_COMMAND_LIMITS, type CommandLimits, type Steering } from "../core/context.js";
import type { WorkspaceLimits } from "../workspace/limits.js";

export const PERMISSION_LEVELS = ["read", "triage", "write", "maintain", "admin"] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

const Level = Type.Union(PERMISSION_LEVELS.map((level) => Type.Literal(level)));

export const RepoConfigSchema = Type.Object(
  {
    tools: Type.Optional(Type.Array(Type.String(), { description: "enabled tools (default: all)" })),
    permissions: Type.Optional(Type.Record(Type.String(), Level, { description: "minimum permission per command; key `default`" })),
    steering: Type.Optional(Type.Union([Type.Literal("stack"), Type.Literal("strict")])),
    gate_check: Type.Optional(Type.Boolean()),
    limits: Type.Optional(
      Type.Object(
        {
          max_files: Type.Optional(Type.Integer({ minimum: 1 })),
          max_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
          max_total_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
          max_commands_per_comment: Type.Optional(Type.Integer({ minimum: 1 })),
          max_pending: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    commit_message: Type.Optional(Type.String({ minLength: 1, description: "template with {label}, {reason}" })),
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
}

export const DEFAULT_COMMIT_MESSAGE = "{label}\n\n{reason}";

export const DEFAULT_PERMISSIONS: Record<string, PermissionLevel> = { default: "write", help: "read", pending: "read" };

export type ConfigResult = { ok: true; config: RepoConfig } | { ok: false; errors: string[] };

export function parseRepoConfig(raw: unknown): ConfigResult {
  const value = raw ?? {};
  const errors = [...Value.Errors(RepoConfigSchema, value)].map((error) => {
    const key = error.path.split("/").filter(Boolean).join(".") || "(top level)";
    if (error.type === ValueErrorType.ObjectAdditionalProperties) return `${key}: unknown key`;
    return `${key}: ${error.message.toLowerCase()}`;
  });
  if (errors.length > 0) return { ok: false, errors: [...new Set(errors)] };
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
  const known = new Set(commands.map(normaliseCommandName));
  const errors: string[] = [];
  for (const tool of config.tools ?? []) {
    if (!known.has(tool)) errors.push(`tools: unknown tool ${JSON.stringify(tool)}`);
  }
  for (const key of Object.keys(config.permissions)) {
    if (key !== "default" && !known.has(key)) errors.push(`permissions.${key}: unknown command`);
  }
  return errors;
}

export const DEFAULT_REPO_CONFIG: RepoConfig = (parseRepoConfig({}) as { ok: true; config: RepoConfig }).config;

/** The permission a command needs: its own entry, else `default`. */
export function requiredPermission(config: RepoConfig, command: string): PermissionLevel {
  return config.permissions[normaliseCommandName(command)] ?? config.permissions.default ?? "write";
}
