/**
 * A preview call's arguments checked against the tool's schema before the call becomes a request,
 * worded for an MCP client: JSON names (`ops/0/pat`), and the parameters as its input schema has
 * them, where a comment's check (core/arguments) names `--options` and `<positionals>`. The same
 * TypeBox defaults, conversion and validation run, so what passes here binds there.
 */
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { describeParameters } from "../../core/arguments.js";
import { describeSchemaError } from "../../core/schema-errors.js";
import type { AnyToolDefinition } from "../../core/tool.js";

/** `- `name` (required) — description (default: …)`, one per parameter of the tool's input schema. */
export function mcpParameterLines(tool: AnyToolDefinition): string[] {
  return describeParameters(tool.parameters as TSchema).map((prop) => {
    const description = typeof prop.schema.description === "string" ? prop.schema.description : "";
    const saysDefault = /\bdefault\b/i.test(description);
    const fallback = prop.schema.default !== undefined && !saysDefault ? ` (default: ${JSON.stringify(prop.schema.default)})` : "";
    return `- \`${prop.name}\`${prop.required ? " (required)" : ""}${description ? ` — ${description}` : ""}${fallback}`;
  });
}

/** Undefined when the arguments are the tool's; else the answer: what is wrong, then the parameters. */
export function argumentProblems(tool: AnyToolDefinition, args: Record<string, unknown>): string | undefined {
  const schema = tool.parameters as TSchema;
  const value = Value.Convert(schema, Value.Default(schema, structuredClone(args)));
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    // One problem per argument: the first is the most telling ("required" before "expected string").
    if (seen.has(error.path)) continue;
    seen.add(error.path);
    const name = error.path.replace(/^\//, "");
    problems.push(`- ${name === "" ? "The arguments" : `\`${name}\``} ${describeSchemaError(error)}`);
  }
  if (problems.length === 0) return undefined;
  const parameters = mcpParameterLines(tool);
  return [`\`${tool.name}\` was not run:`, problems.join("\n"), `Arguments of \`${tool.name}\`:`, parameters.join("\n")].join("\n\n");
}
