/**
 * One request's view of a pull request: the CommandContext the runtime works on. The session keeps
 * the head its commands read and commit on: it starts at the head the pull request was read at and
 * moves only when a commit returns a new one, so the next command's files are read at the new head.
 * The store moves on its own: popping an applied action carries the rest of the stack to the commit
 * (on GitHub, CheckRunStack keeps the head its runs are on: forges/github/checks/stack.ts).
 */
import { normaliseCommandName } from "../core/commands.js";
import type { CommandContext } from "../core/context.js";
import type { Proposal } from "../core/store.js";
import type { LineAnchor, UnusableLines } from "../core/tool.js";
import type { Workspace } from "../workspace/workspace.js";
import { carriedOut } from "./journal.js";
import type { Ports, PullRequestView, RequestConfig, RequestJournal, StackStore } from "./ports.js";
import type { Origin, RequestActor } from "./request.js";
import { lineRefusal } from "./requirements.js";

export interface Session {
  context: CommandContext;
  store: StackStore;
}

/** Who asks, and which request this is (its id names what each command writes). */
export interface SessionRequest {
  actor: RequestActor;
  requestId?: string;
  /** What an interrupted earlier run of the request did (a re-run only). */
  journal?: RequestJournal;
  /** The lines the commands were written on (a line comment): tools scope themselves to them. */
  anchor?: LineAnchor | UnusableLines;
  /** An agent asks on the actor's behalf (MCP): its previews say so. */
  proposedBy?: Proposal;
}

/**
 * The lines a request's commands were written on, if any: head-side lines of the diff, or, when
 * they cannot scope a command (outdated, base side), why a command that needs them is refused.
 */
export function anchorOf(origin: Origin): LineAnchor | UnusableLines | undefined {
  if (origin.kind !== "line-comment") return undefined;
  if (origin.lines === undefined || origin.side !== "head") return { refusal: lineRefusal(origin) };
  return { path: origin.path, startLine: origin.lines.start, endLine: origin.lines.end };
}

/** An agent's request (MCP) on a person's behalf: what it previews is labelled as the agent's proposal. */
export function proposalOf(origin: Origin): Proposal | undefined {
  if (origin.kind !== "mcp") return undefined;
  return { agent: origin.agent?.name ?? "an MCP client", ...(origin.rationale !== undefined ? { rationale: origin.rationale } : {}) };
}

export function openSession<C extends RequestConfig, P extends PullRequestView>(
  ports: Ports<C, P>,
  pr: P,
  config: C,
  { actor, requestId, journal, anchor, proposedBy }: SessionRequest,
): Session {
  let head = pr.headSha;
  const store = ports.stack.open(pr, head, config);
  const enabled = config.tools ? new Set(config.tools) : undefined;
  // Read once per head: a comment's commands share the files until one of them commits.
  let files: { sha: string; workspace: Promise<Workspace> } | undefined;
  const context: CommandContext = {
    store,
    actor: actor.login,
    ...(proposedBy ? { proposedBy } : {}),
    steering: config.steering,
    limits: config.commandLimits,
    isToolEnabled: (name) => !enabled || enabled.has(normaliseCommandName(name)),
    workspace() {
      if (files?.sha !== head) files = { sha: head, workspace: ports.workspace.at(pr, head, config) };
      return files.workspace;
    },
    async commit(changes, request) {
      const commit = await ports.commit.commit(pr, head, changes, request, actor, config);
      if (commit !== undefined) head = commit;
      return commit;
    },
    report: (error, what) => ports.log.warn({ err: error, ...(requestId !== undefined ? { requestId } : {}) }, what),
    ...(ports.history ? { appliedCommits: () => ports.history!.applied(pr) } : {}),
    ...(ports.suggest ? { suggest: (label: string, diff: string) => ports.suggest!.offer(pr, label, diff) } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(anchor ? { anchor } : {}),
    ...(journal ? { carriedOut: async (step, command) => carriedOut(journal, step, command) } : {}),
    ...(ports.phrasing ? { phrasing: ports.phrasing } : {}),
    ...(ports.readPath ? { readPath: ports.readPath } : {}),
    ...(ports.progress ? { progress: ports.progress } : {}),
  };
  return { context, store };
}
