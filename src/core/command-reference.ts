/**
 * The commands' reference in the docs (docs/commands.md, the README's table), made from the same
 * tool definitions and usage lines as /help, so the two cannot disagree. scripts/docs-usage.mjs
 * writes it into the docs (`npm run docs:usage`); test/docs/usage.test.ts fails when they differ.
 */
import { COMMENT_PHRASING, phrased, RESOLVE_USAGE, type Phrasing } from "./messages.js";
import type { AnyToolDefinition } from "./tool.js";
import { commandName, usageDetails, usageLine } from "./usage.js";

const RESOLVE_SUMMARIES: Record<string, string> = {
  apply:
    "Commits the newest pending action (last in, first out), or with `--only` its changes to those files, leaving the rest pending; the reason goes into the commit message.",
  discard: "Drops the newest pending action.",
  undo: "Previews reverting the newest commit resolve-bot applied, as a new pending action.",
};

/** The runtime's own commands (no tools: they have no schema), as the table lists them. */
export const RESERVED_USAGE: ReadonlyArray<{ usage: string; summary: string }> = [
  ...RESOLVE_USAGE.split(" | ").map((usage) => ({ usage, summary: RESOLVE_SUMMARIES[usage.split(" ")[1]!]! })),
  { usage: "/pending", summary: "Lists the pending stack, newest first." },
  { usage: "/help [<command>]", summary: "Lists the tools with their usage and parameters, or one tool's." },
];

/** The first sentence of a description: what a table row says of a tool. */
export function summary(description: string): string {
  const end = /\.\s+(?=[A-Z])/.exec(description);
  return end ? description.slice(0, end.index + 1) : description;
}

/**
 * Prose for a doc: `<from>` or `<script>` outside code spans would be read as HTML (and dropped by
 * GitHub), so `<` and `>` there are written as entities; code spans are kept as they are.
 */
function prose(value: string): string {
  let out = "";
  let rest = value;
  for (let span = /(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest); span; span = /(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest)) {
    out += escapeAngles(rest.slice(0, span.index)) + span[0];
    rest = rest.slice(span.index + span[0].length);
  }
  return out + escapeAngles(rest);
}

function escapeAngles(value: string): string {
  return value.replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A table cell: a `|` would end it, even in a code span. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** Every command, with its usage line (`short`: its options as `[options]`) and what it does, as a markdown table. */
export function commandsTable(tools: readonly AnyToolDefinition[], { short = false } = {}, phrasing: Phrasing = COMMENT_PHRASING): string {
  const rows = [
    ...tools.map((tool) => ({ usage: usageLine(tool, { short }), summary: prose(summary(phrased(tool.description, phrasing))) })),
    ...RESERVED_USAGE,
  ];
  return [
    "| command | what it does |",
    "| --- | --- |",
    ...rows.map((row) => `| ${cell(`\`${row.usage}\``)} | ${cell(row.summary)} |`),
  ].join("\n");
}

/** Each tool's section: a heading, what it does, its usage, parameters and examples (what `/help <command>` says). */
export function toolReference(tools: readonly AnyToolDefinition[], phrasing: Phrasing = COMMENT_PHRASING): string {
  return tools
    .map(
      (tool) =>
        `### \`${commandName(tool.name)}\`\n\n${prose(`${phrased(tool.description, phrasing)}\n\n${usageDetails(tool, phrasing)}`)}`,
    )
    .join("\n\n");
}
