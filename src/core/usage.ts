/** Usage text generated from a tool's schema, for /help and for bad-call replies. */
import type { TSchema } from "@sinclair/typebox";
import { describeParameters, kebab } from "./arguments.js";
import type { AnyToolDefinition } from "./tool.js";

export function commandName(toolName: string): string {
  return `/${toolName.replace(/_/g, "-")}`;
}

function placeholder(kind: string, schema: TSchema): string {
  const values = Array.isArray(schema.anyOf)
    ? (schema.anyOf as TSchema[])
        .map((item) => item.const as unknown)
        .filter((v) => v !== undefined)
        .map(String)
    : [];
  if (values.length > 0) return values.join("|");
  return kind === "number" ? "number" : kind === "json" ? "json" : "text";
}

/** One line: `/rename-symbol <from> <to> [--file <text>]`. */
export function usageLine(tool: AnyToolDefinition): string {
  const props = describeParameters(tool.parameters as TSchema);
  const positional = tool.positionals ?? [];
  const parts = [commandName(tool.name), ...(tool.positionalUsage ? [tool.positionalUsage] : positionalWords(props, positional))];
  for (const prop of props) {
    if (positional.includes(prop.name)) continue;
    const value = prop.kind === "boolean" ? "" : ` <${placeholder(prop.kind, prop.array ? (prop.schema.items as TSchema) : prop.schema)}>`;
    const word = `--${kebab(prop.name)}${value}${prop.array ? "..." : ""}`;
    parts.push(prop.required ? word : `[${word}]`);
  }
  return parts.join(" ");
}

function positionalWords(props: ReturnType<typeof describeParameters>, positional: string[]): string[] {
  return positional.flatMap((name) => {
    const prop = props.find((candidate) => candidate.name === name);
    if (!prop) return [];
    const word = prop.array ? `<${name}>...` : `<${name}>`;
    return [prop.required ? word : `[${word}]`];
  });
}

/** One line per parameter with its description and default. */
export function parameterLines(tool: AnyToolDefinition): string[] {
  const positional = tool.positionals ?? [];
  return describeParameters(tool.parameters as TSchema).map((prop) => {
    const name = positional.includes(prop.name) ? `<${prop.name}>` : `--${kebab(prop.name)}`;
    const description = typeof prop.schema.description === "string" ? prop.schema.description : "";
    const saysDefault = /\bdefault\b/i.test(description);
    const fallback = prop.schema.default !== undefined && !saysDefault ? ` (default: ${JSON.stringify(prop.schema.default)})` : "";
    return `${name}${description ? ` — ${description}` : ""}${fallback}`;
  });
}

/**
 * The usage paragraph and one list item per parameter, as markdown: a paragraph and a list,
 * separated by a blank line so neither runs into the other when rendered.
 */
export function usageBlock(tool: AnyToolDefinition): string {
  const lines = parameterLines(tool).map((line) => {
    const split = line.indexOf(" — ");
    return split < 0 ? `- \`${line}\`` : `- \`${line.slice(0, split)}\`${line.slice(split)}`;
  });
  return [`Usage: \`${usageLine(tool)}\``, ...(lines.length > 0 ? ["", ...lines] : [])].join("\n");
}
