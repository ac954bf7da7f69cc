/**
 * `.github/resolve-bot.yml` read and checked the same way by every forge: the forge says how to
 * read it (GitHub: the default branch through Probot's context.config; local: the file as committed
 * at HEAD), and every problem is named (schema, then unknown tool and command names).
 */
import { RESERVED_COMMANDS, type ToolRegistry } from "../core/registry.js";
import { parseRepoConfig, rawNameProblems, type RepoConfig } from "./repo-config.js";

export const CONFIG_PATH = ".github/resolve-bot.yml";

export type LoadedRepoConfig = { ok: true; config: RepoConfig } | { ok: false; file: string; errors: string[] };

/** Reads (undefined or null: no file, the defaults) and checks the configuration; errors name each bad key. */
export async function loadRepoConfig(readConfig: () => Promise<unknown>, registry: ToolRegistry): Promise<LoadedRepoConfig> {
  let raw: unknown;
  try {
    raw = await readConfig();
  } catch (error) {
    return { ok: false, file: CONFIG_PATH, errors: [`${CONFIG_PATH} cannot be read: ${(error as Error).message}`] };
  }
  const commands = [...registry.list().map((tool) => tool.name), ...RESERVED_COMMANDS];
  const parsed = parseRepoConfig(raw);
  // Every problem in one pass: the schema's and the names that are no command, as `config validate` says them.
  const names = rawNameProblems(raw, commands).map((problem) => problem.message);
  if (!parsed.ok) return { ok: false, file: CONFIG_PATH, errors: [...parsed.errors, ...names] };
  return names.length > 0 ? { ok: false, file: CONFIG_PATH, errors: names } : parsed;
}
