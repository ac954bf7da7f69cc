/** Tool results and user-facing errors: the shapes every front end renders. */

export interface TextContent {
  type: "text";
  text: string;
}

export interface ToolResult<TDetails = unknown> {
  content: TextContent[];
  details?: TDetails;
  isError?: boolean;
}

export function textResult(text: string, details?: unknown): ToolResult {
  return details === undefined ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], details };
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The text parts of a result joined with newlines: the reply a tool gives. */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

export { UserError } from "../errors.js";
