/**
 * The pending stack of a pull request, kept in check runs on its head commit (one per action,
 * `in_progress`; the durable record in the summary), plus the `resolve-bot` gate check that
 * branch protection can require. One list call reads the whole stack.
 */
import type { NewPendingRecord, PendingActionStore, PendingRecord, PreviewPresentation, Resolution } from "../core/store.js";
import { diffHunks } from "../workspace/diff.js";
import {
  interruptedApplySummary,
  actionSummary,
  annotationMessage,
  annotationTitle,
  carriedNote,
  closedSummary,
  completedTitle,
  diffText,
  gateOutput,
  limitTitle,
  movedSummary,
  resolutionSummary,
  supersededSummary,
} from "./check-run-output.js";
import { decodeRecord, encodeRecord } from "./record-codec.js";
import type { GitHubClient, PullRequestInfo } from "./types.js";

export const GATE_CHECK_NAME = "resolve-bot";
export const ACTION_CHECK_PREFIX = "resolve-bot: ";
export { OUTPUT_LIMIT } from "./check-run-output.js";
/**
 * GitHub takes 50 annotations per request; more would cost one more write per 50 hunks. The first
 * 50 hunks are annotated and the text holds the whole diff, so a preview's cost stays flat.
 */
const MAX_ANNOTATIONS = 50;

interface CheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  html_url?: string | null;
  output: { title: string | null; summary: string | null; text?: string | null };
}

interface PendingEntry {
  runId: number;
  record: PendingRecord;
  /** The run's output text (the rendered diff), carried along when the stack moves. */
  text: string;
}

/** What a new action run shows: a fresh preview (diff + annotations), or a carried run's text. */
type RunContent = { preview: PreviewPresentation; note?: string } | { carriedText: string; note: string };

interface HeadState {
  sha: string;
  pending: PendingEntry[]; // oldest first
  names: Set<string>;
  maxSeq: number;
  gate?: { id: number; conclusion: string | null; title: string | null; summary: string | null };
}

export interface CheckRunStoreOptions {
  /** Only runs of this app count (GitHub filters server-side). */
  appId?: number;
  gateCheck: boolean;
  /** Link target for a commit, e.g. `https://github.com/o/r/commit/<sha>`. */
  commitUrl(sha: string): string;
}

export class CheckRunStore implements PendingActionStore {
  private state?: HeadState;

  constructor(
    private readonly octokit: GitHubClient,
    private readonly pr: PullRequestInfo,
    private readonly options: CheckRunStoreOptions,
  ) {}

  get headSha(): string {
    return this.pr.headSha;
  }

  /** Reads every run of this app on a commit, in one call per 100 runs. */
  async load(sha = this.pr.headSha): Promise<HeadState> {
    if (this.state?.sha === sha) return this.state;
    const runs = (await this.octokit.paginate(this.octokit.rest.checks.listForRef, {
      owner: this.pr.owner,
      repo: this.pr.repo,
      ref: sha,
      filter: "all",
      per_page: 100,
      ...(this.options.appId ? { app_id: this.options.appId } : {}),
    })) as CheckRun[];
    const state: HeadState = { sha, pending: [], names: new Set(), maxSeq: 0 };
    for (const run of runs) {
      state.names.add(run.name);
      if (run.name === GATE_CHECK_NAME) {
        // Newest first: the first gate listed is the one the pull request shows.
        state.gate ??= { id: run.id, conclusion: run.conclusion, title: run.output.title, summary: run.output.summary };
        continue;
      }
      if (!run.name.startsWith(ACTION_CHECK_PREFIX)) continue;
      const record = decodeRecord(run.output.summary);
      if (!record) continue;
      state.maxSeq = Math.max(state.maxSeq, record.seq);
      if (run.status !== "completed") state.pending.push({ runId: run.id, record, text: run.output.text ?? "" });
    }
    state.pending.sort((a, b) => a.record.seq - b.record.seq);
    if (sha !== this.pr.headSha) return state;
    const ours = runs.some((run) => run.name === GATE_CHECK_NAME || run.name.startsWith(ACTION_CHECK_PREFIX));
    if (!ours) await this.finishInterruptedApply(state);
    this.state = state;
    return state;
  }

  /**
   * A head with none of our runs may be our own apply whose stack was never moved (the bot died,
   * or GitHub kept failing, after the ref update). The commit's `Resolve-Action:` trailer says
   * which action it applied: that one is completed as applied (never applied twice) and the rest
   * of the stack is carried from the parent, so nothing pending is lost.
   */
  private async finishInterruptedApply(state: HeadState): Promise<void> {
    const { data: commit } = await this.octokit.rest.git.getCommit({ owner: this.pr.owner, repo: this.pr.repo, commit_sha: state.sha });
    const applied = /^Resolve-Action: (\S+)$/m.exec(commit.message)?.[1];
    const parent = commit.parents.length === 1 ? commit.parents[0]!.sha : undefined;
    if (!applied || !parent) return;
    const from = await this.load(parent);
    const top = from.pending.at(-1);
    if (top?.record.id === applied) {
      await this.complete(
        top,
        "success",
        "Applied",
        interruptedApplySummary(state.sha, (sha) => this.options.commitUrl(sha)),
      );
      from.pending.pop();
    }
    state.maxSeq = Math.max(state.maxSeq, from.maxSeq);
    await this.moveEntries(from, state, `${top?.record.label ?? "an edit"} was applied`);
  }

  async push(draft: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord> {
    const state = await this.load();
    const record: PendingRecord = { ...draft, seq: state.maxSeq + 1 };
    await this.createRun(state, record, { preview });
    return record;
  }

  /** Creates the action's run on the state's commit and adds it to the stack. */
  private async createRun(state: HeadState, record: PendingRecord, content: RunContent): Promise<void> {
    let name = `${ACTION_CHECK_PREFIX}${record.label}`;
    if (state.names.has(name)) name = `${name} (#${record.seq})`;
    const preview = "preview" in content ? content.preview : { summary: "", diff: "" };
    // Annotations point at lines of the commit the preview was made on; a carried run has none.
    const hunks = diffHunks(preview.diff);
    const annotations = hunks.slice(0, MAX_ANNOTATIONS).map((hunk) => ({
      path: hunk.path,
      start_line: Math.max(1, hunk.oldStart),
      end_line: Math.max(1, hunk.oldStart + Math.max(1, hunk.oldLines) - 1),
      annotation_level: "notice" as const,
      title: annotationTitle(record),
      message: annotationMessage(hunk.text),
    }));
    const output = {
      title: limitTitle(record.label),
      summary: `${actionSummary(record, preview, content.note ?? "", hunks.length, MAX_ANNOTATIONS)}\n\n${encodeRecord(record)}`,
      text: "carriedText" in content ? content.carriedText : diffText(preview.diff),
    };
    const { data } = await this.octokit.rest.checks.create({
      owner: this.pr.owner,
      repo: this.pr.repo,
      name,
      head_sha: state.sha,
      status: "in_progress",
      external_id: record.id,
      started_at: new Date().toISOString(),
      output: { ...output, annotations },
    });
    state.names.add(name);
    state.maxSeq = Math.max(state.maxSeq, record.seq);
    state.pending.push({ runId: data.id, record, text: output.text });
  }

  async peek(): Promise<PendingRecord | null> {
    return (await this.load()).pending.at(-1)?.record ?? null;
  }

  async hasPending(): Promise<boolean> {
    return (await this.load()).pending.length > 0;
  }

  async list(): Promise<PendingRecord[]> {
    return (await this.load()).pending.map((entry) => entry.record).reverse();
  }

  async pop(resolution: Resolution): Promise<PendingRecord | null> {
    const state = await this.load();
    const top = state.pending.at(-1);
    if (!top || top.record.id !== resolution.id) return null;
    const applied = resolution.action === "apply";
    const summary = resolutionSummary(top.record, resolution, (sha) => this.options.commitUrl(sha));
    await this.complete(top, applied ? "success" : "cancelled", applied ? "Applied" : "Discarded", summary);
    state.pending.pop();
    if (resolution.commit) await this.carryTo(resolution.commit, `${top.record.label} was applied`);
    return top.record;
  }

  private async complete(
    entry: PendingEntry,
    conclusion: "success" | "cancelled" | "neutral",
    verb: string,
    summary: string,
  ): Promise<void> {
    await this.octokit.rest.checks.update({
      owner: this.pr.owner,
      repo: this.pr.repo,
      check_run_id: entry.runId,
      status: "completed",
      conclusion,
      completed_at: new Date().toISOString(),
      output: { title: completedTitle(verb, entry.record), summary: `${summary}\n\n${encodeRecord(entry.record)}` },
    });
  }

  /**
   * Moves the remaining stack to a new head commit (after our own apply): each pending action is
   * re-created there unchanged, and its old run is closed as neutral.
   */
  async carryTo(sha: string, why: string): Promise<void> {
    const from = await this.load();
    const target: HeadState = { sha, pending: [], names: new Set(), maxSeq: from.maxSeq };
    await this.moveEntries(from, target, why);
    this.pr.headSha = sha;
    this.state = target;
  }

  /** Re-creates every pending action of `from` on `target` unchanged and closes the old runs. */
  private async moveEntries(from: HeadState, target: HeadState, why: string): Promise<void> {
    for (const entry of from.pending) {
      await this.createRun(target, entry.record, { carriedText: entry.text, note: carriedNote(from.sha, why) });
      await this.complete(entry, "neutral", "Moved", movedSummary(target.sha, why));
    }
  }

  /**
   * After new commits (not ours): every pending action gets a fresh preview on `sha`. `next` is
   * the new record and preview, or undefined when nothing is left to change. Old runs are closed
   * as neutral. Returns the pending entries that were on the old head, oldest first.
   */
  async resync(
    sha: string,
    repreview: (
      record: PendingRecord,
    ) => Promise<{ record: PendingRecord; preview: PreviewPresentation; note: string } | { closed: string }>,
  ): Promise<void> {
    const from = await this.load();
    // The new head may already carry runs (a gate, earlier previews): read them once.
    const existing = await this.load(sha);
    const target: HeadState = { ...existing, maxSeq: Math.max(existing.maxSeq, from.maxSeq) };
    for (const entry of from.pending) {
      // A redelivered push finds the action already moved (same id): only close the old run.
      const moved = target.pending.some((candidate) => candidate.record.id === entry.record.id);
      const next = moved ? undefined : await repreview(entry.record);
      if (!next) {
        await this.complete(entry, "neutral", "Superseded", supersededSummary(sha));
        continue;
      }
      if ("closed" in next) {
        await this.complete(entry, "neutral", "Closed", closedSummary(sha, next.closed));
        continue;
      }
      await this.createRun(target, next.record, { preview: next.preview, note: next.note });
      await this.complete(entry, "neutral", "Superseded", supersededSummary(sha));
    }
    this.pr.headSha = sha;
    this.state = target;
  }

  /**
   * Brings the gate check of the current head in line with the stack: success when empty,
   * action_required with Apply/Discard buttons (which GitHub shows on completed runs only).
   */
  async updateGate(): Promise<void> {
    if (!this.options.gateCheck) return;
    const state = await this.load();
    const top = state.pending.at(-1)?.record;
    const stack = state.pending.map((entry) => entry.record).reverse();
    const desired = gateOutput(stack);
    const gate = state.gate;
    if (gate && gate.conclusion === desired.conclusion && gate.title === desired.title && gate.summary === desired.summary) return;
    const body = {
      owner: this.pr.owner,
      repo: this.pr.repo,
      status: "completed" as const,
      conclusion: desired.conclusion,
      completed_at: new Date().toISOString(),
      external_id: `pr:${this.pr.number}`,
      output: { title: desired.title, summary: desired.summary },
      actions: top
        ? [
            { label: "Apply newest", description: "Commit the newest pending edit", identifier: "apply" },
            { label: "Discard newest", description: "Drop the newest pending edit", identifier: "discard" },
          ]
        : [],
    };
    if (gate) {
      await this.octokit.rest.checks.update({ ...body, check_run_id: gate.id });
      state.gate = { id: gate.id, conclusion: desired.conclusion, title: desired.title, summary: desired.summary };
    } else {
      const { data } = await this.octokit.rest.checks.create({ ...body, name: GATE_CHECK_NAME, head_sha: state.sha });
      state.gate = { id: data.id, conclusion: desired.conclusion, title: desired.title, summary: desired.summary };
    }
  }
}
