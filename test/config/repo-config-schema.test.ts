/**
 * docs/resolve-bot.schema.json is the TypeBox schema the server validates with, published: it must
 * be exactly what `npm run schema` makes now, and a JSON Schema validator must accept and refuse
 * what the server does.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { repoConfigJsonSchema } from "../../src/config/repo-config-schema.js";
import { parseRepoConfig } from "../../src/config/repo-config.js";

const published = JSON.parse(readFileSync("docs/resolve-bot.schema.json", "utf8")) as Record<string, unknown>;

test("the published schema is the server's schema (run `npm run schema` after changing src/config/repo-config.ts)", () => {
  expect(published).toEqual(repoConfigJsonSchema());
});

test.each<[string, unknown]>([
  ["an empty file", {}],
  [
    "every key",
    {
      tools: ["ast-edit"],
      permissions: { default: "maintain", resolve: "admin" },
      steering: "strict",
      gate_check: false,
      limits: { max_files: 10, max_pending: 4 },
      commit_message: "{label}",
      agents: { may_resolve: ["discard", "apply"] },
    },
  ],
  ["an agent resolution that does not exist", { agents: { may_resolve: ["undo"] } }],
  ["an agent resolution twice", { agents: { may_resolve: ["discard", "discard"] } }],
  ["an unknown key", { colour: "red" }],
  ["an unknown limit", { limits: { max_files: 1, other: 2 } }],
  ["a limit below 1", { limits: { max_pending: 0 } }],
  ["a fractional limit", { limits: { max_files: 1.5 } }],
  ["a permission level that does not exist", { permissions: { default: "owner" } }],
  ["a steering that does not exist", { steering: "loose" }],
  ["an empty commit message", { commit_message: "" }],
  ["tools as a string", { tools: "ast-edit" }],
  ["a list at the top", ["tools"]],
])("a JSON Schema validator and the server agree on %s", (_, config) => {
  const validate = new Ajv({ strict: false }).compile(published);
  expect(validate(config)).toBe(parseRepoConfig(config).ok);
});
