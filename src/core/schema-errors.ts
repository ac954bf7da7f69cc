/**
 * TypeBox's validation errors in words for the person who typed the command:
 * `needs at least 2 values (got 1)` rather than `expected array length to be greater or equal to 2`.
 */
import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/value";

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : Array.isArray(value) ? `${value.length} values` : String(value);
}

function literals(schema: TSchema): unknown[] {
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as TSchema[]) : [];
  return members.map((member) => member.const as unknown).filter((value) => value !== undefined);
}

/** What is wrong, without the parameter's name (the caller puts it in front). */
export function describeSchemaError(error: Pick<ValueError, "type" | "schema" | "value" | "message">): string {
  const { schema, value } = error;
  const values = (count: number) => `${count} value${count === 1 ? "" : "s"}`;
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
    case ValueErrorType.Union: {
      const allowed = literals(schema);
      if (allowed.length > 0) return `must be one of ${allowed.join(", ")} (got ${shown(value)})`;
      return error.message.toLowerCase();
    }
    default:
      return error.message.toLowerCase();
  }
}
