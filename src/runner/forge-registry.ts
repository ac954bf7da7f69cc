/**
 * The forge adapters a worker can carry a stored request out with, keyed by the request's forge
 * id. Each is loaded on first use, so a worker pays only for the forges it meets.
 */
import type { ForgeAdapter } from "../pipeline/forge.js";
import type { ForgeId } from "../pipeline/request.js";

const FORGES: { [K in ForgeId]: () => Promise<ForgeAdapter> } = {
  github: async () => (await import("../forges/github/execute.js")).githubForge,
  local: async () => (await import("../forges/local/execute.js")).localForge,
};

export function forgeAdapter(id: ForgeId): Promise<ForgeAdapter> {
  return FORGES[id]();
}
