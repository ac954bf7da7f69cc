/**
 * TypeBox's validation errors in words for the person who typed the command:
 * `needs at least 2 values (got 1)` rather than `expected array length to be greater or equal to 2`.
 */
import { ValueErrorType, type ValueError } from "@sinclair/typebox/value";
import { plural } from "./text.js";

function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return plural(value.length, "value");
  if (value === null) return "nothing";
  if (typeof value === "object") return "a map";
  // Numbers and booleans (all that is left of YAML or JSON) as written.
  return JSON.stringify(value) ?? "nothing";
}

/** TypeBox schemas are JSON Schema: unions are read by their keywords, so plain JSON schemas read the same. */
type JsonSchema = Record<string, unknown>;

/** A union's (or enum's) members, nested unions flattened: `anyOf`, or `enum` as literals. */
function members(schema: JsonSchema): JsonSchema[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).flatMap(members);
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => ({ const: value }));
  // Among other members, true and false read best as the two values they are.
  if (schema.type === "boolean") return [{ const: true }, { const: false }];
  return [schema];
}

const isLiteral = (schema: JsonSchema) => schema.const !== undefined;

/** What a (non-literal) schema takes, as a noun phrase: "a whole number of at least 1". */
function kind(schema: JsonSchema): string {
  const [min, max] = [schema.minimum, schema.maximum].map((bound) => (typeof bound === "number" ? bound : undefined));
  const bounded = (noun: string) =>
    min !== undefined && max !== undefined
      ? `${noun} from ${min} to ${max}`
      : min !== undefined
        ? `${noun} of at least ${min}`
        : max !== undefined
          ? `${noun} of at most ${max}`
          : noun;
  switch (schema.type) {
    case "integer":
      return bounded("a whole number");
    case "number":
      return bounded("a number");
    case "string":
      return (schema.minLength as number | undefined) ? "text that is not empty" : "text";
    case "null":
      return "nothing";
    case "array":
      return "a list";
    case "object":
      return "a map";
    default:
      return "a value of another kind";
  }
}

/** "a, b or c" */
function either(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/**
 * What a union (or enum) allows, derived from its members: `one of read, write` when all are
 * values, `a whole number or "off"` when some are types.
 */
export function allowedByUnion(schema: JsonSchema): string {
  const all = members(schema);
  const values = all.filter(isLiteral).map((member) => member.const);
  const kinds = [...new Set(all.filter((member) => !isLiteral(member)).map(kind))];
  if (kinds.length === 0) return values.length === 1 ? String(values[0]) : `one of ${values.join(", ")}`;
  return either([...kinds, ...values.map((value) => JSON.stringify(value))]);
}

/** What is wrong, without the parameter's name (the caller puts it in front). */
export function describeSchemaError(error: Pick<ValueError, "type" | "schema" | "value" | "message">): string {
  const { schema, value } = error;
  const values = (count: number) => plural(count, "value");
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ArrayMinItems:
      return `needs at least ${values(schema.minItems as number)} (got ${(value as unknown[]).length})`;
    case ValueErrorType.ArrayMaxItems:
      return `takes at most ${values(schema.maxItems as number)} (got ${(value as unknown[]).length})`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${schema.minimum} (got ${shown(value)})`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${schema.maximum} (got ${shown(value)})`;
    case ValueErrorType.Integer:
      return `must be a whole number (got ${shown(value)})`;
    case ValueErrorType.Number:
      return `must be a number (got ${shown(value)})`;
    case ValueErrorType.Boolean:
      return `must be true or false (got ${shown(value)})`;
    case ValueErrorType.String:
      return `must be text (got ${shown(value)})`;
    case ValueErrorType.StringMinLength:
      return (schema.minLength as number) === 1 ? "must not be empty" : `needs at least ${schema.minLength} characters`;
    case ValueErrorType.Union:
      return `must be ${allowedByUnion(schema)} (got ${shown(value)})`;
    case ValueErrorType.Literal:
      return `must be ${String(schema.const)} (got ${shown(value)})`;
    case ValueErrorType.Array:
      return `must be a list (got ${shown(value)})`;
    case ValueErrorType.Object:
      return `must be a map (got ${shown(value)})`;
    default:
      return error.message.toLowerCase();
  }
}
