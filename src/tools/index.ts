/** The built-in tools, and a registry with them, the runtime's undo and the server's custom tools. */
import { loadCustomTools } from "../core/custom-tools.js";
import { ToolRegistry } from "../core/registry.js";
import type { CustomToolFactory } from "../core/tool.js";
import { undoTool } from "../core/undo.js";
import astEdit from "./ast-edit.js";
import astFix from "./ast-fix.js";
import move from "./move.js";
import renameSymbol from "./rename-symbol.js";

export const BUILTIN_TOOLS: readonly CustomToolFactory[] = [astEdit, astFix, move, renameSymbol];

export interface RegistryOptions {
  /** RESOLVE_BOT_TOOLS: comma-separated module paths or package names. */
  customTools?: string;
  /** Where relative custom-tool paths start (default: the process's working directory). */
  baseDir?: string;
}

export async function createRegistry(options: RegistryOptions = {}): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  registry.registerHidden(undoTool(registry.api));
  for (const factory of BUILTIN_TOOLS) await registry.registerFactory(factory);
  await loadCustomTools(options.customTools, registry, options.baseDir);
  return registry;
}
