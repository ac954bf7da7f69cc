/** TypeBox's errors in words: what a union or enum allows is said, derived from the schema. */
import { Type, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeSchemaError } from "../../src/core/schema-errors.js";

/** `path: message` for each error of `value` against `schema`. */
const described = (schema: TSchema, value: unknown) =>
  [...Value.Errors(schema, value)].map((error) => `${error.path} ${describeSchemaError(error)}`);

test("a union of values names every allowed value and what was given", () => {
  const Level = Type.Union(["read", "write", "admin"].map((level) => Type.Literal(level)));
  expect(described(Type.Object({ level: Level }), { level: "superuser" })).toEqual([
    '/level must be one of read, write, admin (got "superuser")',
  ]);
  expect(described(Type.Object({ level: Level }), { level: null })).toEqual(["/level must be one of read, write, admin (got nothing)"]);
  expect(described(Type.Object({ level: Level }), { level: { a: 1 } })).toEqual(["/level must be one of read, write, admin (got a map)"]);
});

test("enums and nested unions read the same as a union of values", () => {
  const schema = Type.Object({
    colour: Type.Enum({ Red: "red", Blue: "blue" }),
    size: Type.Union([Type.Union([Type.Literal(1), Type.Literal(2)]), Type.Literal(3)]),
  });
  expect(described(schema, { colour: "green", size: 4 })).toEqual([
    '/colour must be one of red, blue (got "green")',
    "/size must be one of 1, 2, 3 (got 4)",
  ]);
});

test("a union with types says what each member takes, from the schema", () => {
  const schema = Type.Object({
    timeout: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal("off")]),
    paths: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String())]),
    ratio: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Boolean(), Type.Null()]),
    mode: Type.Union([Type.Object({ fast: Type.Boolean() }), Type.Literal("auto"), Type.Literal("manual")]),
  });
  expect(described(schema, { timeout: "soon", paths: 3, ratio: "half", mode: "x" })).toEqual([
    '/timeout must be a whole number of at least 1 or "off" (got "soon")',
    "/paths must be text that is not empty or a list (got 3)",
    '/ratio must be a number from 0 to 1, nothing, true or false (got "half")',
    '/mode must be a map, "auto" or "manual" (got "x")',
  ]);
});

test("a single value, a list and a map are named too", () => {
  const schema = Type.Object({ version: Type.Literal(2), tools: Type.Array(Type.String()), limits: Type.Object({}) });
  expect(described(schema, { version: 1, tools: "all", limits: [1, 2] })).toEqual([
    "/version must be 2 (got 1)",
    '/tools must be a list (got "all")',
    "/limits must be a map (got 2 values)",
  ]);
});
