/**
 * What a forge gives the pipeline: the ports `runRequest` calls. GitHub implements them with
 * Octokit (forges/github/ports.ts), the local CLI with a checkout (forges/local/ports.ts). `C` is the forge's
 * configuration and `P` what it knows of a pull request: the pipeline only passes them back.
 */
import type { Phrasing } from "../core/messages.js";
import type { PathReader } from "../core/tool-paths.js";
import type { AppliedCommit, CommitRequest, CommandLimits, Progress, Steering } from "../core/context.js";
import type { Runtime } from "../core/runtime.js";
import type { PendingActionStore, PendingRecord, PreviewPresentation } from "../core/store.js";
import type { ChangeSet } from "../workspace/changeset.js";
import type { Workspace } from "../workspace/workspace.js";
import type { TransientClassifier } from "./failure.js";
import type { Reply, ReplyStatus } from "./reply.js";
import type { RequestActor } from "./request.js";

/** The part of a forge's configuration the pipeline reads itself. */
export interface RequestConfig {
  steering: Steering;
  commandLimits: CommandLimits;
  /** Enabled tools, normalised names; every tool when absent. */
  tools?: string[];
  /** Commands added to a comment by editing it run (once); off when absent. */
  runOnEdit?: boolean;
}

/** A configuration that could not be used names its file and each problem. */
export type LoadedConfig<C> = { ok: true; config: C } | { ok: false; file: string; errors: string[] };

/** What the pipeline needs to know of a pull request (or a checkout). */
export interface PullRequestView {
  headSha: string;
  state: string;
  merged?: boolean;
}

/** A command the actor may not run. */
export interface PermissionRefusal {
  command: string;
  needed: string;
  actual: string;
}

/** A re-preview after new commits: the new record and what it shows, or why nothing is left. */
export type Repreviewed = { record: PendingRecord; preview: PreviewPresentation; note: string } | { closed: string };

/** What a request's commands did before its run was cut short, by request step (`<request>#<index>`). */
export interface RequestJournal {
  /** The actions each step pushed, in push order (wherever they are now). */
  pushed: Map<string, PendingRecord[]>;
  /** The action each step applied or discarded: its commit, and its record when it is still known. */
  resolved: Map<string, { action: "apply" | "discard"; commit?: string; record?: PendingRecord }>;
}

/**
 * The early word of a request that runs long, said where its reply goes (pipeline/cost.ts). Once
 * per request: a re-run finds the status its interrupted run said, and it stands for this run's.
 */
export interface WorkingStatus {
  /** How long a request runs before it says so (ms). */
  afterMs: number;
  /** Says the request is working (GitHub: a comment); nothing when a status of the request is already out. */
  say(text: string): Promise<void>;
  /** Whether a status of this request is out (this run's or, on a re-run, its interrupted run's). */
  out(): Promise<boolean>;
  /** The request is answered: its status, if any, stops claiming that work goes on. */
  settle(): Promise<void>;
}

/** The pending stack at one head commit, plus what a forge keeps beside it. */
export interface StackStore extends PendingActionStore {
  /** Brings the forge's gate (GitHub: the `resolve-bot` check) in line with the stack. */
  updateGate?(): Promise<void>;
  /** Moves the stack to `sha` after someone else's commits, previewing each action again. */
  resync?(sha: string, repreview: (record: PendingRecord) => Promise<Repreviewed>): Promise<void>;
}

/**
 * What a forge does to a pull request's stack when the forge itself, not a command, moved things
 * (GitHub: check suites, stale runs, Re-run, a closed pull request). Each answers with what to
 * tell the pull request (plain text), if anything.
 */
export interface LifecyclePort<C, P> {
  /** Finds the stack wherever it is now (earlier heads, stale runs) and puts the gate on the head. */
  refresh(pr: P, config: C): Promise<string | undefined>;
  /** Re-run on one of the bot's checks: the action it shows is previewed again; the gate refreshed. */
  rerun(pr: P, config: C, actionId: string | undefined): Promise<string | undefined>;
  /** The pull request was closed or merged: pending actions and the gate are completed, not applied. */
  closed(pr: P, config: C, merged: boolean): Promise<string | undefined>;
  /** A configuration nobody can use: said on the gate, so a required check does not wait forever. */
  brokenConfig(pr: P, file: string, errors: string[]): Promise<void>;
}

/** A log line's details: the error, and what it is about (the request, its step). */
export interface LogDetails {
  err: unknown;
  [about: string]: unknown;
}

export interface PipelineLog {
  warn(details: LogDetails, message: string): void;
  error(details: LogDetails, message: string): void;
}

export interface Ports<C extends RequestConfig, P extends PullRequestView> {
  /** Runs the commands (tools, resolve, help, pending). */
  runtime: Runtime;
  config: { load(): Promise<LoadedConfig<C>>; fallback: C };
  permission: {
    /** The first command the actor may not run; undefined when all are allowed. */
    refusal(actor: RequestActor, commands: string[], config: C): Promise<PermissionRefusal | undefined>;
    /**
     * Starts reading what `refusal` will need (the actor's permission) while the configuration is
     * still being read; `refusal` still decides, once the configuration is known.
     */
    prefetch?(actor: RequestActor, commands: string[]): void;
  };
  pullRequest: { read(): Promise<P> };
  /**
   * What an earlier, interrupted run of this request (a killed worker, a lost lease) already did,
   * read back from the forge. Given only when the request runs again: a first run pays nothing.
   */
  journal?: { read(pr: P): Promise<RequestJournal> };
  stack: { open(pr: P, headSha: string, config: C): StackStore };
  /**
   * The files at a commit (with the default branch's, for trusted configuration, and `revert`,
   * git's revert of a commit onto them, for undo).
   */
  workspace: {
    at(pr: P, sha: string, config: C): Promise<Workspace>;
    /**
     * Starts bringing the pull request's files to where commands read them while the request is
     * still being decided, if the forge can before the head is read (GitHub: a first fetch of the
     * repository by the pull request's ref); `at` then finds them there or waits for them. Only
     * for an actor who may run the commands; a request refused later may leave it running (it only
     * fills a cache the next command uses).
     */
    prefetch?(actor: RequestActor, commands: string[]): void;
  };
  /** The commits resolve-bot applied on the pull request, newest first (`/resolve undo`); a forge without them leaves it out. */
  history?: { applied(pr: P): Promise<AppliedCommit[]> };
  /** Offers a change as suggested changes (`--as-suggestion`); says where. A forge without suggestions leaves it out. */
  suggest?: { offer(pr: P, label: string, diff: string): Promise<string> };
  /** Makes one commit of `changes` on top of `parent`; returns the new head, or undefined when nothing was committed. */
  commit: {
    commit(pr: P, parent: string, changes: ChangeSet, request: CommitRequest, actor: RequestActor, config: C): Promise<string | undefined>;
  };
  /**
   * The reply channel, chosen by the forge for the request's origin (GitHub: the conversation, or
   * the review thread of a line comment, with reactions on the comment that asked).
   */
  reply: {
    /** Says the reply (a comment on GitHub; stdout and stderr locally). */
    send(reply: Reply): Promise<void>;
    /** Says the request is taken where it was asked (GitHub: 👀), when intake could not (an edit). */
    acknowledge?(): Promise<void>;
    /** An edited comment's commands that earlier edits already ran, by key (the origin's `edit.keys`). */
    ran?(): Promise<Set<string>>;
    /** Marks the request as finished where it was asked (GitHub: 🚀 or 😕 on the comment). */
    finish?(ok: boolean): Promise<void>;
    /**
     * The status of this request's reply when an earlier run already said it (it was interrupted
     * before the job was marked done). Given only when the request runs again.
     */
    sent?(): Promise<ReplyStatus | undefined>;
    /** Says early that a request runs long (pipeline/cost.ts); a forge without it says nothing early. */
    working?: WorkingStatus;
  };
  log: PipelineLog;
  /**
   * Recognises this forge's failures that may pass (GitHub: 5xx, rate limits, dropped connections)
   * as TransientFailure: the request is tried again by the job queue instead of answered. A forge
   * whose failures never pass (a local checkout) leaves it out.
   */
  transient?: TransientClassifier;
  /** Told which command runs and when writing starts (a worker pool's time limit and stop reply). */
  progress?: Progress;
  /** Stack upkeep for forge events; a forge without such events leaves it out. */
  lifecycle?: LifecyclePort<C, P>;
  /** Where this forge's resolve buttons are, for the reason a button's resolve records (e.g. "the Checks tab"). */
  buttonPlace?: string;
  /** This front end's words in the runtime's sentences (default: a pull request comment's). */
  phrasing?: Phrasing;
  /** How typed paths are read (the CLI: from the current directory); absent, from the repository's root. */
  readPath?: PathReader;
}

/**
 * Ports of any forge, for code that does not look past `RequestConfig` and `PullRequestView`
 * (method parameters are bivariant, so every forge's ports are these).
 */
export type AnyPorts = Ports<RequestConfig, PullRequestView>;
