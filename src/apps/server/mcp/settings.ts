/** The server's MCP settings, from its environment (docs/mcp-http.md). */

/** `RESOLVE_BOT_MCP_HTTP=on` serves /mcp; anything else but `off` or unset is a mistake said at start. */
export function mcpHttpEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.RESOLVE_BOT_MCP_HTTP?.trim().toLowerCase() ?? "";
  if (value === "" || value === "off") return false;
  if (value === "on") return true;
  throw new Error(`RESOLVE_BOT_MCP_HTTP must be on or off (got "${env.RESOLVE_BOT_MCP_HTTP}").`);
}

/** How long a tool call waits for its request's outcome before answering that it is queued (default 60 s). */
export function mcpWaitMs(env: NodeJS.ProcessEnv): number {
  const raw = env.RESOLVE_BOT_MCP_WAIT_SECONDS?.trim() || "60";
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`RESOLVE_BOT_MCP_WAIT_SECONDS must be a number of seconds, 0 or more (got "${raw}").`);
  }
  return seconds * 1000;
}
