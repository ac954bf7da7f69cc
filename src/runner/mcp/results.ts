/**
 * A request's neutral reply (pipeline/reply.ts) as an MCP tool result: the runtime's text (markdown,
 * which agents read as it is) with each preview's label and diff, the steering line last while
 * anything is pending, and the same facts as `structuredContent` for a client that reads data.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PushedAction } from "../../core/outcomes.js";
import { stackPlace, type Reply } from "../../pipeline/reply.js";
import type { PendingRecord } from "../../core/store.js";
import { shortSha } from "../../core/revision.js";

export interface McpStructured {
  [key: string]: unknown;
  status: Reply["status"];
  /** What the call pushed onto the stack: its number, label and the files it changes. */
  pushed: { seq: number; label: string; files: string[] }[];
  /** What the call resolved, and the commit an apply made. */
  resolved?: { action: "apply" | "discard"; label: string; commit?: string };
  /** How many actions are pending after the call. */
  stackDepth: number;
}

function pushedText(message: string, pushed: PushedAction[], stack: PendingRecord[]): string {
  const lines = message.split("\n");
  // The tool's first line usually is the label, which the pending line says.
  const said = pushed.some(({ record }) => record.label === lines[0]) ? lines.slice(1) : lines;
  const parts = [said.join("\n").trim()];
  for (const { record, diff } of pushed) {
    parts.push(`Pending${stackPlace(record, stack)}: ${record.label}`);
    if (diff.trim() !== "") parts.push(`\`\`\`diff\n${diff.trimEnd()}\n\`\`\``);
  }
  return parts.filter((part) => part !== "").join("\n\n");
}

/** `notes`: what the front end was told meanwhile (a bot failure's cause, on a checkout that is the caller's own). */
export function toolResult(reply: Reply, notes: string[] = []): CallToolResult {
  const parts: string[] = [];
  for (const outcome of reply.outcomes) {
    parts.push(pushedText(outcome.message, outcome.pushed ?? [], reply.stack));
    if (outcome.resolved?.commit) parts.push(`Committed ${shortSha(outcome.resolved.commit)}.`);
  }
  if (reply.notice) parts.push(reply.notice);
  if (reply.status === "bot-error") parts.push(["resolve-bot failed while carrying this call out.", ...notes].join("\n"));
  if (reply.steering) parts.push(reply.steering);
  const resolved = reply.outcomes.find((outcome) => outcome.resolved)?.resolved;
  const structured: McpStructured = {
    status: reply.status,
    pushed: reply.outcomes.flatMap((outcome) =>
      (outcome.pushed ?? []).map(({ record }) => ({ seq: record.seq, label: record.label, files: Object.keys(record.files) })),
    ),
    ...(resolved
      ? { resolved: { action: resolved.action, label: resolved.record.label, ...(resolved.commit ? { commit: resolved.commit } : {}) } }
      : {}),
    stackDepth: reply.stack.length,
  };
  return {
    content: [{ type: "text", text: parts.filter((part) => part.trim() !== "").join("\n\n") }],
    structuredContent: structured,
    ...(reply.status === "ok" ? {} : { isError: true }),
  };
}

/** A call refused before it became a request (arguments that are not the tool's): a tool error, never a protocol error. */
export function refusedCall(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
