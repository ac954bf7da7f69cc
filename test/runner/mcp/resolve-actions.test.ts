/** What `resolve` a listing offers: every action by default, only some (a repository's agents.may_resolve), or none at all. */
import { listTools, RESOLVE_PROPERTIES } from "../../../src/runner/mcp/tools.js";
import { createRegistry } from "../../../src/tools/index.js";

const listing = { enabled: () => true, narrowed: false };

test("resolve offers apply, discard and undo by default; only the actions given; and is not listed for none", async () => {
  const registry = await createRegistry();
  const resolveOf = (resolveActions?: ("apply" | "discard" | "undo")[]) =>
    listTools(registry, { ...listing, ...(resolveActions ? { resolveActions } : {}) }).find((tool) => tool.name === "resolve");
  expect(resolveOf()?.inputSchema.properties?.action).toEqual(RESOLVE_PROPERTIES.action);
  expect(resolveOf(["discard", "apply"])?.inputSchema.properties?.action).toEqual({
    type: "string",
    enum: ["discard", "apply"],
    description: "Only discard or apply is offered here.",
  });
  expect(resolveOf([])).toBeUndefined();
  expect(listTools(registry, { ...listing, resolveActions: [] }).map((tool) => tool.name)).toContain("pending");
});
