/**
 * The tool API: what built-in and custom tools are written against (pending actions, `pushPendingAction`). Built-in tools
 * also use what the package exports beside it (src/api.ts: `stageChangeSet`, results, `UserError`)
 * and src/workspace's path helpers. Nothing here knows about GitHub or git.
 */
import type * as TypeBoxModule from "@sinclair/typebox";
import type { Static, TSchema } from "@sinclair/typebox";
import type { ToolResult } from "./result.js";
import type { Workspace } from "../workspace/workspace.js";
import type { ChangeSet } from "../workspace/changeset.js";

/** Lines of a file at the head a command was written on (a review comment on a line), 1-based, inclusive. */
export interface LineAnchor {
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * Lines a command was written on that cannot scope it: they left the diff (an outdated review
 * comment) or number the base's version. `refusal` answers a command that needs them (a tool
 * whose `atLines` reads the lines); every other command runs as if written in the conversation.
 */
export interface UnusableLines {
  refusal: string;
}

export interface CustomToolPendingAction {
  /** Short human summary, e.g. "AST Edit: 2 replacements in 1 file". */
  label: string;
  /** Performs the change (staged writes through `pi.files`); `reason` is information only. */
  apply(reason: string): Promise<ToolResult>;
  /** Cleanup on discard; a returned result replaces the default discard message. */
  reject?(reason: string): Promise<ToolResult | undefined>;
  /** Structured, JSON-serialisable data about the preview. */
  details?: unknown;
  /** Defaults to "custom_tool". */
  sourceToolName?: string;
  /**
   * resolve-bot extension: the change `apply` will stage, shown as the preview's diff.
   * When given, apply must stage exactly this change, or it fails as stale and writes nothing.
   */
  changes?: ChangeSet;
}

/** Read access to the files of the pull request head (or local checkout) being previewed. */
export type WorkspaceReader = Pick<
  Workspace,
  | "revision"
  | "limits"
  | "list"
  | "exists"
  | "isDirectory"
  | "resolvePatterns"
  | "readBytes"
  | "readText"
  | "tryReadText"
  | "tryReadTextIf"
  | "onDisk"
  | "filesHoldingAll"
>;

/** Staged writes: allowed only inside a pending action's apply(). */
export interface StagedWriter {
  write(path: string, content: string | Uint8Array): Promise<void>;
  delete(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Reads a file as the staged change leaves it. */
  read(path: string): Promise<Uint8Array>;
  exists(path: string): Promise<boolean>;
}

export interface ToolAPI {
  /** The TypeBox module, for parameter schemas. */
  typebox: typeof TypeBoxModule;
  /** Pushes a pending action onto the pull request's stack. Only valid during execute(). */
  pushPendingAction(action: CustomToolPendingAction): void;
  /** The files being previewed. Only valid during execute() and apply(). */
  readonly workspace: WorkspaceReader;
  /** Staged writes. Only valid during apply(); during a preview they are an error. */
  readonly files: StagedWriter;
  /** A fresh, empty change set on the current workspace, to declare as an action's `changes`. */
  newChangeSet(): ChangeSet;
  /**
   * Read access to the repository's default branch (trusted data such as lint rules; never code
   * from the pull request). A UserError when the front end has none.
   */
  defaultBranch(): Promise<WorkspaceReader>;
}

export interface ToolDefinition<TParams extends TSchema = TSchema> {
  /** Command name: `/ast-edit` and `/ast_edit` both call tool `ast_edit`. */
  name: string;
  label: string;
  /**
   * What it does, in markdown. `{applyCommand}` and `{trustedFiles}` (here and in parameter
   * descriptions) are filled with the front end's words (core/messages.ts, `Phrasing`): how to
   * apply a preview, and where trusted files such as rules are read.
   */
  description: string;
  parameters: TParams;
  /**
   * Parameter names filled, in order, from words that are not --options. The last one may be an
   * array and takes the rest. Example: ["from", "to"] lets `/rename-symbol old new` work.
   */
  positionals?: string[];
  /**
   * How the positional words read in usage lines, when the schema alone cannot say it: a list of
   * pairs is `<from> <to> [<from> <to>…]`, not `<paths>...`. Generated from the schema when absent.
   */
  positionalUsage?: string;
  /**
   * Parameters that name files of the repository, as `{ paths: "path", at: "position" }`: "path" is
   * a string or list of strings, each a file, directory or glob; "position" is `path:line[:column]`.
   * Where people type paths relative to somewhere else (the CLI: the current directory, as git
   * reads them), the front end rewrites these to the repository's root before the tool runs, and
   * refuses a path that leaves the repository. The tool always sees paths from the root.
   */
  pathParameters?: Record<string, "path" | "position">;
  /** Example command lines shown in /help. */
  examples?: string[];
  /**
   * A ```yaml block after the command whose documents hold `key` (e.g. ast-grep rules, which
   * hold `rule`) is not parsed into parameters but given, as written, to parameter `param`.
   */
  rawYamlBlock?: { param: string; key: string };
  /**
   * How the command reads when written on lines of a file (a review comment on a line): the
   * parameters as given (before defaults and validation) scoped to those lines. What it returns
   * is what runs and what the pending action stores, so resolving it replays the same scope.
   * Without it, the command runs as if written in the conversation. On lines that cannot scope a
   * command (outdated, or the base side), a command whose `atLines` reads `anchor` is refused, and
   * one whose `atLines` returns without reading it (say, paths were named) runs as given.
   */
  atLines?(given: Record<string, unknown>, anchor: LineAnchor): Record<string, unknown>;
  /**
   * Whether its actions may be applied in part (`/resolve apply --only <path>…`): each file's
   * change depends on that file alone, and apply() stages exactly the declared `changes`. The
   * part is committed from `changes`, and the rest is previewed again on the new head by running
   * the tool again and keeping the remaining files (core/apply-part.ts). Without it, an action is
   * applied or discarded whole.
   */
  splitsByFile?: boolean;
  execute(toolCallId: string, params: Static<TParams>, signal?: AbortSignal): Promise<ToolResult>;
}

// `any` lets factories written as in the spec infer their own params type from `parameters`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any>;

export type CustomToolFactory = (pi: ToolAPI) => AnyToolDefinition | Promise<AnyToolDefinition>;
