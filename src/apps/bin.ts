#!/usr/bin/env node
/** The `resolve-bot` command, the package's one binary: it starts a front end, the CLI (apps/cli), the MCP server on stdio (apps/mcp) or the server in a role (apps/server). */
import { main, USAGE } from "./cli/main.js";
import { packageVersion } from "../ops/version.js";
import { styleFor } from "../forges/local/terminal.js";

/**
 * Writes lines to a stream until its reader goes away (`resolve-bot preview … | head`): then the
 * rest is dropped quietly, as Unix tools do, and the command still finishes and sets its exit code.
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(`${text}\n`);
  };
}

const [verb] = process.argv.slice(2);
if (verb === "server" || verb === "worker" || verb === "all") {
  // The GitHub App in one role, or both (`all`: what `npm start` runs; the container's default).
  process.env.RESOLVE_BOT_ROLE = verb;
  await import("./server/main.js");
} else if (verb === "mcp") {
  // An MCP server on stdio: stdout carries the protocol only.
  const { mcpVerb } = await import("./mcp/main.js");
  process.exitCode = await mcpVerb(process.argv.slice(3), { err: lineWriter(process.stderr), usage: USAGE, version: packageVersion() });
} else {
  process.exitCode = await main(process.argv.slice(2), {
    out: lineWriter(process.stdout),
    err: lineWriter(process.stderr),
    style: styleFor(process.stdout, process.env),
    interactive: process.stderr.isTTY === true,
  });
}
