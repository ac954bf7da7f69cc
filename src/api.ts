/**
 * The public API of the resolve-bot package, for custom-tool authors:
 *   import type { CustomToolFactory, CustomToolPendingAction, ToolResult } from "resolve-bot";
 */
export type {
  AnyToolDefinition,
  CustomToolFactory,
  CustomToolPendingAction,
  StagedWriter,
  ToolAPI,
  ToolDefinition,
  WorkspaceReader,
} from "./core/tool.js";
export type { TextContent, ToolResult } from "./core/result.js";
export { textResult, errorResult, UserError } from "./core/result.js";
export { stageChangeSet, STORE_UNAVAILABLE } from "./core/execution.js";
export type { ChangeSet, FileChange } from "./workspace/changeset.js";
