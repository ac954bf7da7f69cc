/** Usage text generated from a tool's schema, for /help and for bad-call replies. */
import type { TSchema } from "@sinclair/typebox";
import { describeParameters, kebab, parameterName } from "./arguments.js";
import { COMMENT_PHRASING, phrased, type Phrasing } from "./messages.js";
import { pluralWord } from "./text.js";
import type { AnyToolDefinition } from "./tool.js";

export function commandName(toolName: string): string {
  return `/${toolName.replace(/_/g, "-")}`;
}

/** An option's value as usage names it: the schema's `title` (`<pattern>`), its choices (`<auto|single>`), or its kind (`<text>`). */
function placeholder(kind: string, schema: TSchema, title: unknown): string {
  if (typeof title === "string" && title !== "") return title;
  const values = Array.isArray(schema.anyOf)
    ? (schema.anyOf as TSchema[])
        .map((item) => item.const as unknown)
        .filter((v) => v !== undefined)
        .map(String)
    : [];
  if (values.length > 0) return values.join("|");
  return kind === "number" ? "number" : kind === "json" ? "json" : "text";
}

/**
 * One line: `/rename-symbol <from> [<to>] [--file <path>]`. `short`: the optional options as one
 * `[options]` (for a table; /help and errors give the whole line).
 */
export function usageLine(tool: AnyToolDefinition, { short = false } = {}): string {
  const props = describeParameters(tool.parameters as TSchema);
  const positional = tool.positionals ?? [];
  const parts = [commandName(tool.name), ...(tool.positionalUsage ? [tool.positionalUsage] : positionalWords(props, positional))];
  let optional = false;
  for (const prop of props) {
    if (positional.includes(prop.name)) continue;
    const item = prop.array ? (prop.schema.items as TSchema) : prop.schema;
    const value = prop.kind === "boolean" ? "" : ` <${placeholder(prop.kind, item, prop.schema.title ?? item.title)}>`;
    const word = `--${kebab(prop.name)}${value}${prop.array ? "..." : ""}`;
    if (prop.required) parts.push(word);
    else if (short) optional = true;
    else parts.push(`[${word}]`);
  }
  return [...parts, ...(optional ? ["[options]"] : [])].join(" ");
}

function positionalWords(props: ReturnType<typeof describeParameters>, positional: string[]): string[] {
  return positional.flatMap((name) => {
    const prop = props.find((candidate) => candidate.name === name);
    if (!prop) return [];
    const word = prop.array ? `<${name}>...` : `<${name}>`;
    return [prop.required ? word : `[${word}]`];
  });
}

/** One line per parameter with its description and default; `only` keeps the parameters named. */
export function parameterLines(tool: AnyToolDefinition, phrasing: Phrasing = COMMENT_PHRASING, only?: readonly string[]): string[] {
  return describeParameters(tool.parameters as TSchema)
    .filter((prop) => only === undefined || only.includes(prop.name))
    .map((prop) => {
      const name = parameterName(tool, prop.name);
      const description = typeof prop.schema.description === "string" ? phrased(prop.schema.description, phrasing) : "";
      const saysDefault = /\bdefault\b/i.test(description);
      const fallback = prop.schema.default !== undefined && !saysDefault ? ` (default: ${JSON.stringify(prop.schema.default)})` : "";
      return `${name}${description ? ` — ${description}` : ""}${fallback}`;
    });
}

/** Parameter lines as a markdown list: the name as code, then what it is. */
function parameterList(lines: string[]): string[] {
  return lines.map((line) => {
    const split = line.indexOf(" — ");
    return split < 0 ? `- \`${line}\`` : `- \`${line.slice(0, split)}\`${line.slice(split)}`;
  });
}

/**
 * The usage paragraph and one list item per parameter, as markdown: a paragraph and a list,
 * separated by a blank line so neither runs into the other when rendered.
 */
export function usageBlock(tool: AnyToolDefinition, phrasing: Phrasing = COMMENT_PHRASING): string {
  const lines = parameterList(parameterLines(tool, phrasing));
  return [`Usage: \`${usageLine(tool)}\``, ...(lines.length > 0 ? ["", ...lines] : [])].join("\n");
}

/** A tool's usage, parameters and examples: what /help and docs/commands.md show after its description. */
export function usageDetails(tool: AnyToolDefinition, phrasing: Phrasing = COMMENT_PHRASING): string {
  const parts = [usageBlock(tool, phrasing)];
  const examples = tool.examples ?? [];
  if (examples.length > 0)
    parts.push(`${pluralWord(examples.length, "Example")}:\n\n${examples.map((example) => `- \`${example}\``).join("\n")}`);
  return parts.join("\n\n");
}

/** A tool's whole help, as /help shows it: what it does, its usage and parameters, examples. */
export function helpSection(tool: AnyToolDefinition, phrasing: Phrasing = COMMENT_PHRASING): string {
  return `**\`${commandName(tool.name)}\`** — ${phrased(tool.description, phrasing)}\n\n${usageDetails(tool, phrasing)}`;
}

/**
 * A call that could not be bound: what is wrong, the parameters it is about, the one usage line,
 * and where the rest is (`/help <command>`), not every parameter again.
 */
export function usageError(
  tool: AnyToolDefinition,
  typed: string,
  errors: string[],
  wrong: readonly string[],
  phrasing: Phrasing = COMMENT_PHRASING,
): string {
  const about = parameterList(parameterLines(tool, phrasing, wrong));
  return [
    `\`${typed}\` was not run:`,
    errors.map((error) => `- ${error}`).join("\n"),
    `Usage: \`${usageLine(tool)}\``,
    ...(about.length > 0 ? [about.join("\n")] : []),
    `Every parameter, and examples: ${phrasing.helpCommand(commandName(tool.name).slice(1))}.`,
  ].join("\n\n");
}
