/**
 * The pending-action stack of one pull request (last in, first out), as durable records that are replayed, not closures kept in memory (replay.ts).
 * Front ends provide the storage: a file under .git/ locally, check runs on GitHub.
 */

export interface PendingRecord {
  /** Unique id of this action (part of the check run's external_id on GitHub). */
  id: string;
  /** Position in the pull request's history of pushes; increases with every push. */
  seq: number;
  /** Tool to re-execute on replay, and its validated parameters. */
  tool: string;
  params: Record<string, unknown>;
  /** The toolCallId of the execution, reused on replay. */
  callId: string;
  /** Which push of that execution this is (0-based). */
  index: number;
  label: string;
  sourceToolName: string;
  details?: unknown;
  /** Digest of label, source, details and change: replay must reproduce it exactly. */
  digest: string;
  /** Per changed path, a short fingerprint: names the files that differ when stale. */
  files: Record<string, string>;
  /** The revision the preview was computed on. */
  headSha: string;
  requestedBy: string;
  /** An agent proposed it for `requestedBy` (an MCP client), with the reason it gave. */
  proposedBy?: Proposal;
  createdAt: string;
  /**
   * The request step that pushed it (see `requestStep`): a request that runs again after an
   * interruption finds its earlier pushes by it instead of pushing them twice.
   */
  requestStep?: string;
}

/**
 * Names one command of one request, e.g. `<delivery id>#1` for its second command. Everything a
 * command writes carries it, so a run of the request that was cut short can be told apart from
 * work still to do (the forge itself is the journal).
 */
export function requestStep(requestId: string, index: number): string {
  return `${requestId}#${index}`;
}

/** Who proposed an action on a person's behalf: an agent (its MCP client's name) and its stated rationale. */
export interface Proposal {
  agent: string;
  rationale?: string;
}

export type NewPendingRecord = Omit<PendingRecord, "seq">;

/** What a front end may show of a preview (the check run's text on GitHub). */
export interface PreviewPresentation {
  /** The tool's own reply text. */
  summary: string;
  /** Unified diff of the declared change (may be empty for tools that declare none). */
  diff: string;
}

export interface Resolution {
  /** The record being resolved: a store pops only if this is still the top. */
  id: string;
  action: "apply" | "discard";
  reason: string;
  actor: string;
  /** The reply given for it. */
  message: string;
  /** The commit made by apply, when there was one. */
  commit?: string;
  /** The request step that resolves it, recorded with the resolution. */
  requestStep?: string;
}

export interface PendingActionStore {
  /** Pushes on top and returns the record with its sequence number. */
  push(record: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord>;
  peek(): Promise<PendingRecord | null>;
  /** Removes the top if it is `resolution.id`; returns it, or null if the top is something else. */
  pop(resolution: Resolution): Promise<PendingRecord | null>;
  hasPending(): Promise<boolean>;
  /** Newest first. */
  list(): Promise<PendingRecord[]>;
}

/** A stack in memory: tests, and a single process that needs nothing durable. */
export class MemoryPendingActionStore implements PendingActionStore {
  private readonly stack: PendingRecord[] = [];
  private nextSeq = 1;
  readonly resolutions: Resolution[] = [];

  async push(record: NewPendingRecord): Promise<PendingRecord> {
    const full = { ...record, seq: this.nextSeq++ };
    this.stack.push(full);
    return full;
  }

  async peek(): Promise<PendingRecord | null> {
    return this.stack.at(-1) ?? null;
  }

  async pop(resolution: Resolution): Promise<PendingRecord | null> {
    if (this.stack.at(-1)?.id !== resolution.id) return null;
    this.resolutions.push(resolution);
    return this.stack.pop() ?? null;
  }

  async hasPending(): Promise<boolean> {
    return this.stack.length > 0;
  }

  async list(): Promise<PendingRecord[]> {
    return [...this.stack].reverse();
  }
}
