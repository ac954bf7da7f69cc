/**
 * Binds a command's argument text to a tool's TypeBox schema: shell-style words (shell-quote),
 * options read by node's util.parseArgs, positionals as the tool declares them, an optional
 * fenced JSON/YAML block, then TypeBox defaults, conversion and validation.
 */
import { parseArgs } from "node:util";
import { parse as shellParse } from "shell-quote";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import type { SlashCommand } from "./commands.js";
import type { AnyToolDefinition, LineAnchor, UnusableLines } from "./tool.js";
import { describeSchemaError } from "./schema-errors.js";
import { pluralWord } from "./text.js";

/**
 * `asSuggestion`: the command carried `--as-suggestion` (any preview tool: offer, do not push).
 * `refusal`: the command needs the lines it was written on, which cannot scope it: the whole answer.
 */
export type Binding =
  { ok: true; params: Record<string, unknown>; asSuggestion?: true } | { ok: false; errors: string[]; refusal?: string; wrong?: string[] };

/** The option every preview tool takes: show the preview as suggested changes instead of pushing it. */
export const AS_SUGGESTION = "as-suggestion";

type Kind = "string" | "number" | "boolean" | "json";

interface Property {
  name: string;
  kind: Kind;
  array: boolean;
  required: boolean;
  schema: TSchema;
}

function scalarKind(schema: TSchema | undefined): Kind {
  if (!schema) return "string";
  if (schema.type === "number" || schema.type === "integer") return "number";
  if (schema.type === "boolean") return "boolean";
  if (schema.type === "object" || schema.type === "array") return "json";
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) {
    const kinds = new Set((schema.anyOf as TSchema[]).map(scalarKind));
    return kinds.size === 1 ? [...kinds][0]! : "string";
  }
  return "string";
}

/** The top-level parameters of a tool, described for parsing and usage. */
export function describeParameters(schema: TSchema): Property[] {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, prop]) => {
    const array = prop.type === "array";
    const kind = array ? scalarKind(prop.items as TSchema) : scalarKind(prop);
    return { name, array, kind, required: required.has(name) && prop.default === undefined, schema: prop };
  });
}

/** A parameter as usage and errors name it: `<paths>` for a positional one, `--lang` for an option. */
export function parameterName(tool: AnyToolDefinition, name: string): string {
  return (tool.positionals ?? []).includes(name) ? `<${name}>` : `--${kebab(name)}`;
}

export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/_/g, "-");
}

/** Shell-style words; operators and globs that shell-quote recognises are kept as the text typed. */
export function splitWords(text: string): string[] {
  // Keep `$NAME` literal: ast-grep metavariables are not shell variables.
  const entries = shellParse(text, (key) => `$${key}`);
  return entries.map((entry) => {
    if (typeof entry === "string") return entry;
    if ("op" in entry && entry.op === "glob") return (entry as { pattern: string }).pattern;
    if ("op" in entry) return entry.op;
    return `#${entry.comment}`;
  });
}

function parseBlock(block: NonNullable<SlashCommand["block"]>): Record<string, unknown> {
  const value: unknown = block.language === "json" ? JSON.parse(block.text) : parseYaml(block.text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`the ${block.language} block must hold an object of parameters`);
  }
  return value as Record<string, unknown>;
}

/** A ```yaml block the tool takes as written (see ToolDefinition.rawYamlBlock): several documents, or one holding its key. */
function isRawYamlBlock(tool: AnyToolDefinition, block: NonNullable<SlashCommand["block"]>): boolean {
  if (tool.rawYamlBlock === undefined || block.language !== "yaml") return false;
  const docs = parseAllDocuments(block.text);
  if (!Array.isArray(docs)) return false;
  if (docs.length > 1) return true;
  const key = tool.rawYamlBlock.key;
  // A rule with a YAML mistake still goes to the tool, whose reply then carries the parser's message.
  if (docs[0] === undefined || docs[0].errors.length > 0) return new RegExp(`^${key}\\s*:`, "m").test(block.text);
  const value = docs[0].toJS() as unknown;
  return value !== null && typeof value === "object" && key in value;
}

/** What went wrong, and the parameters it is about (a usage error shows their help). */
interface Problems {
  errors: string[];
  wrong: Set<string>;
}

function convert(prop: Property, raw: string, problems: Problems): unknown {
  if (prop.kind !== "json") return raw; // numbers and booleans are converted by TypeBox below
  try {
    return JSON.parse(raw);
  } catch {
    problems.errors.push(`--${kebab(prop.name)}: expected JSON, got ${JSON.stringify(raw)}`);
    problems.wrong.add(prop.name);
    return undefined;
  }
}

/** Thrown by the lines of an `UnusableLines` anchor when a tool's `atLines` reads them. */
class LinesNeeded extends Error {}

function needed(): never {
  throw new LinesNeeded();
}

/** Lines no tool may read: reading one says the command needs lines it cannot have. */
const UNREADABLE_LINES: LineAnchor = Object.freeze({
  get path(): string {
    return needed();
  },
  get startLine(): number {
    return needed();
  },
  get endLine(): number {
    return needed();
  },
});

/**
 * The parameters as given, scoped by the tool to the lines (tool.ts, `atLines`); on lines that
 * cannot scope a command, the refusal when the tool reads them, the parameters unchanged when not.
 */
function atLines(
  tool: AnyToolDefinition,
  given: Record<string, unknown>,
  anchor: LineAnchor | UnusableLines,
): { params: Record<string, unknown> } | { refusal: string } {
  if (!tool.atLines) return { params: given };
  if (!("refusal" in anchor)) return { params: tool.atLines(given, anchor) };
  try {
    return { params: tool.atLines(given, UNREADABLE_LINES) };
  } catch (error) {
    if (error instanceof LinesNeeded) return { refusal: anchor.refusal };
    throw error;
  }
}

/**
 * `anchor`: the lines the command was written on (a review comment on a line); a tool with
 * `atLines` scopes the parameters as given to them before defaults and validation.
 */
export function bindArguments(
  tool: AnyToolDefinition,
  command: Pick<SlashCommand, "args" | "block">,
  anchor?: LineAnchor | UnusableLines,
): Binding {
  const schema = tool.parameters as TSchema;
  const props = describeParameters(schema);
  const byOption = new Map<string, Property>();
  for (const prop of props) {
    byOption.set(prop.name, prop);
    byOption.set(kebab(prop.name), prop);
  }
  const errors: string[] = [];
  const problems: Problems = { errors, wrong: new Set() };
  const failed = (): Binding => ({ ok: false, errors, ...(problems.wrong.size > 0 ? { wrong: [...problems.wrong] } : {}) });
  let params: Record<string, unknown> = {};
  if (command.block && isRawYamlBlock(tool, command.block)) {
    params[tool.rawYamlBlock!.param] = command.block.text;
  } else if (command.block) {
    try {
      params = parseBlock(command.block);
    } catch (error) {
      errors.push(`The ${command.block.language} block is not valid: ${(error as Error).message}`);
    }
  }

  let words: string[];
  try {
    words = splitWords(command.args);
  } catch (error) {
    return { ok: false, errors: [`Could not read the arguments: ${(error as Error).message}`] };
  }
  const options: Record<string, { type: "string" | "boolean"; multiple: boolean }> = {};
  for (const [option, prop] of byOption) options[option] = { type: prop.kind === "boolean" ? "boolean" : "string", multiple: prop.array };
  const { tokens } = parseArgs({ args: words, options, strict: false, allowPositionals: true, tokens: true });

  const positionals: string[] = [];
  let asSuggestion = false;
  // Array options given on the command line replace a block's list, then accumulate.
  const givenArrays = new Set<string>();
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    if (token.name === AS_SUGGESTION && token.value === undefined && !byOption.has(AS_SUGGESTION)) {
      asSuggestion = true;
      continue;
    }
    let prop = byOption.get(token.name);
    let value: unknown = token.value;
    if (!prop && token.name.startsWith("no-") && byOption.get(token.name.slice(3))?.kind === "boolean") {
      prop = byOption.get(token.name.slice(3))!;
      value = "false";
    }
    if (!prop) {
      errors.push(`Unknown option ${token.rawName}.`);
      continue;
    }
    if (prop.kind === "boolean") value ??= "true";
    else if (value === undefined) {
      errors.push(`${token.rawName} needs a value.`);
      problems.wrong.add(prop.name);
      continue;
    }
    const converted = convert(prop, String(value), problems);
    if (prop.array) {
      const existing = params[prop.name];
      const list = Array.isArray(existing) && givenArrays.has(prop.name) ? existing : [];
      givenArrays.add(prop.name);
      params[prop.name] =
        Array.isArray(converted) && prop.kind === "json"
          ? [...(list as unknown[]), ...(converted as unknown[])]
          : [...(list as unknown[]), converted];
    } else params[prop.name] = converted;
  }

  bindPositionals(tool, props, positionals, params, givenArrays, problems);
  if (errors.length > 0) return failed();
  if (anchor) {
    const scoped = atLines(tool, params, anchor);
    if ("refusal" in scoped) return { ok: false, errors: [], refusal: scoped.refusal };
    params = scoped.params;
  }

  const withDefaults = Value.Default(schema, params) as Record<string, unknown>;
  const value = Value.Convert(schema, withDefaults) as Record<string, unknown>;
  const schemaErrors = [...Value.Errors(schema, value)];
  if (schemaErrors.length > 0) {
    // One error per parameter: the first is the most telling ("required" before "expected string").
    const seen = new Set<string>();
    for (const error of schemaErrors) {
      if (seen.has(error.path)) continue;
      seen.add(error.path);
      errors.push(`${describePath(error.path, tool)} ${describeSchemaError(error)}`);
      const name = error.path.split("/").filter(Boolean)[0];
      if (name !== undefined) problems.wrong.add(name);
    }
    return failed();
  }
  return { ok: true, params: value, ...(asSuggestion ? { asSuggestion: true as const } : {}) };
}

function bindPositionals(
  tool: AnyToolDefinition,
  props: Property[],
  positionals: string[],
  params: Record<string, unknown>,
  givenArrays: Set<string>,
  problems: Problems,
): void {
  const names = tool.positionals ?? [];
  let next = 0;
  for (const [index, name] of names.entries()) {
    const prop = props.find((candidate) => candidate.name === name);
    if (!prop || next >= positionals.length) break;
    if (prop.array && index === names.length - 1) {
      // `--paths a b` is one list of two: the words join what the option gave, never replace it.
      const given = givenArrays.has(name) && Array.isArray(params[name]) ? (params[name] as unknown[]) : [];
      params[name] = [...given, ...positionals.slice(next).map((word) => convert(prop, word, problems))];
      next = positionals.length;
    } else params[name] = convert(prop, positionals[next++]!, problems);
  }
  if (next < positionals.length) {
    const extra = positionals
      .slice(next)
      .map((word) => JSON.stringify(word))
      .join(", ");
    problems.errors.push(`Unexpected ${pluralWord(positionals.length - next, "argument")}: ${extra}.`);
  }
}

function describePath(pointer: string, tool: AnyToolDefinition): string {
  const [first, ...rest] = pointer.split("/").filter(Boolean);
  if (!first) return "Parameters";
  const name = parameterName(tool, first);
  return rest.length > 0 ? `${name} (${rest.join(".")})` : name;
}
