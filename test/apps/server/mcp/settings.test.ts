import { mcpHttpEnabled, mcpWaitMs } from "../../../../src/apps/server/mcp/settings.js";

test("/mcp is off unless RESOLVE_BOT_MCP_HTTP=on; anything else is said at start", () => {
  expect([mcpHttpEnabled({}), mcpHttpEnabled({ RESOLVE_BOT_MCP_HTTP: "off" }), mcpHttpEnabled({ RESOLVE_BOT_MCP_HTTP: " ON " })]).toEqual([
    false,
    false,
    true,
  ]);
  expect(() => mcpHttpEnabled({ RESOLVE_BOT_MCP_HTTP: "yes" })).toThrow('RESOLVE_BOT_MCP_HTTP must be on or off (got "yes").');
});

test("a call waits 60 s by default, RESOLVE_BOT_MCP_WAIT_SECONDS otherwise (0: never)", () => {
  expect([mcpWaitMs({}), mcpWaitMs({ RESOLVE_BOT_MCP_WAIT_SECONDS: "0" }), mcpWaitMs({ RESOLVE_BOT_MCP_WAIT_SECONDS: "2.5" })]).toEqual([
    60_000, 0, 2_500,
  ]);
  expect(() => mcpWaitMs({ RESOLVE_BOT_MCP_WAIT_SECONDS: "soon" })).toThrow(
    'RESOLVE_BOT_MCP_WAIT_SECONDS must be a number of seconds, 0 or more (got "soon").',
  );
});
