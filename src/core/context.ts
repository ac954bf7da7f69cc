/** What a front end gives the runtime for one pull request (or one local checkout). */
import type { ChangeSet } from "../workspace/changeset.js";
import type { Workspace } from "../workspace/workspace.js";
import type { SlashCommand } from "./commands.js";
import type { CommandOutcome } from "./outcomes.js";
import type { LineAnchor, UnusableLines } from "./tool.js";
import type { PendingActionStore, PendingRecord, Proposal } from "./store.js";
import type { Phrasing } from "./messages.js";
import type { PathReader } from "./tool-paths.js";

export type Steering = "stack" | "strict";

/** Bounds on work: commands one comment may run, actions one stack may hold. */
export interface CommandLimits {
  maxCommandsPerComment: number;
  maxPending: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = { maxCommandsPerComment: 10, maxPending: 20 };

export interface CommitRequest {
  record: PendingRecord;
  reason: string;
  actor: string;
  /** The apply() result text (or the default `Applied: <label>.`). */
  message: string;
  /** The request step that applies it (a forge records it in the commit). */
  requestStep?: string;
}

/** A commit resolve-bot applied (its message carries the `Resolve-Action:` trailer: commit-message.ts). */
export interface AppliedCommit {
  sha: string;
  /** The first line of its message. */
  subject: string;
}

export interface CommandContext {
  store: PendingActionStore;
  /** Who typed the command (a login, or a local user name). */
  actor: string;
  /** An agent asks for `actor` (MCP): what it previews is labelled as its proposal. */
  proposedBy?: Proposal;
  steering: Steering;
  /** Files at the current head. Loaded lazily, once per context. */
  workspace(): Promise<Workspace>;
  /**
   * Makes the applied change real (one commit). Returns a short name for it (e.g. a SHA), or
   * undefined when nothing was committed. Throwing leaves the action pending.
   */
  commit(changes: ChangeSet, request: CommitRequest): Promise<string | undefined>;
  /** Bounds on work; DEFAULT_COMMAND_LIMITS when absent. */
  limits?: CommandLimits;
  /** This front end's words in the runtime's sentences (default: a pull request comment's, COMMENT_PHRASING). */
  phrasing?: Phrasing;
  /**
   * Offers a proposed change (a git-format diff) as suggested changes instead of pushing it
   * (`--as-suggestion`); says where, as a sentence. Absent where there is nothing to suggest on.
   */
  suggest?(label: string, diff: string): Promise<string>;
  /**
   * The commits resolve-bot applied on this pull request (or checkout), newest first: what
   * `/resolve undo` reverts. Absent where the front end cannot read its history.
   */
  appliedCommits?(): Promise<AppliedCommit[]>;
  /**
   * Where the commands were written, when on lines of a file: a tool that knows how scopes itself
   * to them; lines that cannot scope a command refuse only the commands that need them.
   */
  anchor?: LineAnchor | UnusableLines;
  /**
   * How this front end reads a path someone typed (a tool's `pathParameters`): the CLI's are
   * relative to the current directory. Absent: paths are typed from the repository's root.
   */
  readPath?: PathReader;
  /** Per-repository tool switch; all tools are enabled when absent. */
  isToolEnabled?(name: string): boolean;
  /**
   * A failure the runtime answered truthfully without stopping (the edit was committed, but
   * recording it failed): for the operator's log, never for the reply.
   */
  report?(error: unknown, what: string): void;
  /** Told as work goes on (a worker pool restarts its time limit per command and words its stop reply). */
  progress?: Progress;
  /** The request being carried out (a webhook's delivery id): each command's writes name their step. */
  requestId?: string;
  /** The step of the command being run (set by the runtime per command when `requestId` is known). */
  step?: string;
  /**
   * A request run again after an interruption: the outcome of a command the cut-short run already
   * carried out, as the forge recorded it, so it is reported and not run twice.
   */
  carriedOut?(step: string, command: SlashCommand): Promise<CommandOutcome | undefined>;
}

/** Where the runtime is: which command runs, and when it starts writing. */
export interface Progress {
  /** A command starts, e.g. "`/move`". */
  command(label: string): void;
  /** The branch is about to change (a commit). */
  writing(): void;
}

/** Memoises a workspace loader so a comment with several commands reads the files once. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}
