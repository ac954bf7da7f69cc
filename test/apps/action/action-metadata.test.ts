/**
 * action.yml against the schema of action metadata (GitHub's "Metadata syntax for GitHub Actions",
 * the JavaScript-action subset resolve-bot uses, written as TypeBox: no published schema package
 * ships it, and actionlint checks workflows, not action metadata), and against the code: the
 * inputs it declares are the ones src/apps/action reads, and `main` is what `npm run build` makes.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { parse } from "yaml";

/** `inputs.<id>`: starts with a letter or `_`, then letters, digits, `-` or `_`. */
const INPUT_ID = "^[A-Za-z_][A-Za-z0-9_-]*$";

const Input = Type.Object(
  {
    description: Type.String({ minLength: 1 }),
    required: Type.Optional(Type.Boolean()),
    default: Type.Optional(Type.String()),
    deprecationMessage: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const JavaScriptRuns = Type.Object(
  {
    using: Type.Union([Type.Literal("node20"), Type.Literal("node24")]),
    main: Type.String({ minLength: 1 }),
    pre: Type.Optional(Type.String()),
    "pre-if": Type.Optional(Type.String()),
    post: Type.Optional(Type.String()),
    "post-if": Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const COLORS = ["white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"] as const;

const ActionMetadata = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    author: Type.Optional(Type.String()),
    description: Type.String({ minLength: 1 }),
    inputs: Type.Optional(Type.Record(Type.String({ pattern: INPUT_ID }), Input, { additionalProperties: false })),
    outputs: Type.Optional(
      Type.Record(Type.String({ pattern: INPUT_ID }), Type.Object({ description: Type.String() }), { additionalProperties: false }),
    ),
    runs: JavaScriptRuns,
    branding: Type.Optional(
      Type.Object(
        { icon: Type.Optional(Type.String()), color: Type.Optional(Type.Union(COLORS.map((color) => Type.Literal(color)))) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const metadata = parse(readFileSync("action.yml", "utf8")) as { inputs: Record<string, { default?: string }>; runs: { main: string } };

test("action.yml fits the action metadata schema", () => {
  expect([...Value.Errors(ActionMetadata, metadata)].map((error) => `${error.path}: ${error.message}`)).toEqual([]);
});

test("the schema catches what GitHub refuses (a check that cannot fail proves nothing)", () => {
  const broken = {
    ...metadata,
    runs: { using: "node12", main: "x.js" },
    inputs: { "1token": { description: "x" }, key: { description: "" } },
  };
  expect([...Value.Errors(ActionMetadata, broken)].map((error) => error.path)).toEqual(
    expect.arrayContaining(["/runs/using", "/inputs/1token", "/inputs/key/description"]),
  );
  expect(Value.Check(ActionMetadata, { name: "x", runs: metadata.runs })).toBe(false); // no description
});

test("the inputs action.yml declares are exactly those src/apps/action reads; the token defaults to the workflow's", () => {
  const read = new Set<string>();
  for (const file of readdirSync("src/apps/action")) {
    for (const match of readFileSync(path.join("src/apps/action", file), "utf8").matchAll(/input\(env, "([^"]+)"\)/g)) read.add(match[1]!);
  }
  expect([...read].sort()).toEqual(Object.keys(metadata.inputs).sort());
  expect(metadata.inputs.token!.default).toBe("${{ github.token }}");
});

test("the Action runs on Node 24 (GitHub's runners removed Node 20), and the bundle is built for it", () => {
  expect((metadata.runs as { using?: string }).using).toBe("node24");
  expect(readFileSync("scripts/build-action.mjs", "utf8")).toContain('target: "node24"');
});

test("`runs.main` is the bundle npm run build makes, with the native parts beside it", () => {
  expect(metadata.runs.main).toBe("dist/action/index.js");
  expect(existsSync(metadata.runs.main)).toBe(true);
  expect(existsSync("dist/action/node_modules/@ast-grep/napi/index.js")).toBe(true);
  expect(existsSync("dist/action/node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep")).toBe(true);
});
