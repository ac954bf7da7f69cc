/**
 * Loads custom tools named in the server's own configuration (RESOLVE_BOT_TOOLS: comma-separated
 * module paths or package names). Never from a repository or a pull request branch: a tool runs with the server's rights, so only the operator names it.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolRegistry } from "./registry.js";
import type { AnyToolDefinition, CustomToolFactory } from "./tool.js";

export function parseToolList(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function specifierFor(entry: string, baseDir: string): string {
  const looksLikePath = entry.startsWith(".") || path.isAbsolute(entry) || /\.(m?js|cjs|ts)$/.test(entry);
  return looksLikePath ? pathToFileURL(path.resolve(baseDir, entry)).href : entry;
}

/** Imports each module and registers its default export (a factory, or an array of them). */
export async function loadCustomTools(
  list: string | undefined,
  registry: ToolRegistry,
  baseDir = process.cwd(),
): Promise<AnyToolDefinition[]> {
  const loaded: AnyToolDefinition[] = [];
  for (const entry of parseToolList(list)) {
    let module: Record<string, unknown>;
    try {
      module = (await import(specifierFor(entry, baseDir))) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`Could not load custom tool module "${entry}": ${(error as Error).message}`, { cause: error });
    }
    const exported = module.default ?? module.factory;
    const factories = (Array.isArray(exported) ? exported : [exported]) as unknown[];
    if (factories.length === 0 || factories.some((factory) => typeof factory !== "function")) {
      throw new Error(`Custom tool module "${entry}" must export default a CustomToolFactory (pi => tool) or an array of them.`);
    }
    for (const factory of factories) {
      try {
        loaded.push(await registry.registerFactory(factory as CustomToolFactory));
      } catch (error) {
        throw new Error(`Custom tool module "${entry}" could not be registered: ${(error as Error).message}`, { cause: error });
      }
    }
  }
  return loaded;
}
