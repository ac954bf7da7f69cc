/**
 * The JSON Schema of `.github/resolve-bot.yml`, for editors (yaml-language-server) and CI linters:
 * the TypeBox schema the server validates with, as plain JSON plus a title. One source of truth:
 * docs/resolve-bot.schema.json is this function's output (`npm run schema`), and a test fails when
 * the two differ.
 */
import { RepoConfigSchema } from "./repo-config.js";

export function repoConfigJsonSchema(): Record<string, unknown> {
  // TypeBox's own markers are symbol keys: JSON drops them, leaving standard JSON Schema.
  const schema = JSON.parse(JSON.stringify(RepoConfigSchema)) as Record<string, unknown>;
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "resolve-bot repository configuration (.github/resolve-bot.yml)",
    description: "Read from the default branch only. `resolve-bot config validate` checks a file as the gate check does.",
    ...schema,
  };
}
