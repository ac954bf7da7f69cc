/**
 * The pending stack of a pull request, kept in check runs on its head commit (one per action,
 * `in_progress`; the durable record in the summary). One list call (read-runs.ts) reads the whole
 * stack and the `resolve-bot` gate beside it (gate.ts writes the gate; output.ts renders both).
 * Where each action goes when the stack moves to a new head is decided in moves.ts; this file
 * carries the moves out.
 *
 * Real GitHub moves the stack under our feet, so reading it also recovers it (see `recover`):
 * runs GitHub completed as `stale` after 14 days, runs closed with the pull request (restored on
 * reopen), and a stack left on an earlier head when a push was never delivered to us.
 */
import type { NewPendingRecord, PendingActionStore, PendingRecord, PreviewPresentation, Resolution } from "../../../core/store.js";
import type { Repreviewed } from "../../../pipeline/ports.js";
import type { RepreviewStep } from "../../../pipeline/preview-again.js";
import { diffHunks } from "../../../workspace/diff.js";
import { pullRequestCommits } from "../api/pull-request.js";
import type { RunLinks } from "../replies/links.js";
import type { GitHubClient, PullRequestInfo } from "../types.js";
import { commitsBetween, commitsSince, moveOf, moveReason, OUR_APPLY, type MoveSituation, type NewCommits } from "./moves.js";
import {
  interruptedApplySummary,
  prClosedSummary,
  restoredNote,
  actionSummary,
  annotationMessage,
  annotationTitle,
  carriedNote,
  closedSummary,
  completedTitle,
  diffText,
  limitTitle,
  movedSummary,
  resolutionSummary,
  supersededSummary,
} from "./output.js";
import { readRuns, type ListedRun, type RunOwner } from "./read-runs.js";
import { encodeRecord, encodeStep } from "./record-codec.js";
import { actionRecordOf, actionRunName, checkRunExternalId, GATE_CHECK_NAME } from "./run-ids.js";
import { shortSha } from "../../../core/revision.js";

/**
 * GitHub takes 50 annotations per request; more would cost one more write per 50 hunks. The first
 * 50 hunks are annotated and the text holds the whole diff, so a preview's cost stays flat.
 */
const MAX_ANNOTATIONS = 50;

/** The verb of a run completed because its pull request was closed: reopening restores it. */
export const PR_CLOSED_VERB = "Not applied";
const NOTHING_NEW: NewCommits = { appliedIn: new Map<string, string>(), onlyOurApplies: false };

interface PendingEntry {
  runId: number;
  /** The run's name (a restored run takes it over, so the pull request shows the new run). */
  name: string;
  record: PendingRecord;
  /** The run's output text (the rendered diff), carried along when the stack moves. */
  text: string;
}

/** What a new action run shows: a fresh preview (diff + annotations), or a carried run's text. */
type RunContent = { preview: PreviewPresentation; note?: string } | { carriedText: string; note: string };

export interface HeadState {
  sha: string;
  pending: PendingEntry[]; // oldest first
  /**
   * Actions whose every run here was completed without a resolution: by GitHub (`stale`, after
   * 14 days incomplete) or by us when the pull request was closed. They come back on an open PR.
   */
  dormant: PendingEntry[];
  /** Whether any run of ours (gate or action) is on this commit. */
  ours: boolean;
  names: Set<string>;
  maxSeq: number;
  gate?: { id: number; conclusion: string | null; title: string | null; summary: string | null };
}

export interface CheckRunStackOptions extends RunOwner {
  /** Link target for a commit, e.g. `https://github.com/o/r/commit/<sha>`. */
  commitUrl(sha: string): string;
  /**
   * Previews a pending action again on `sha` (the tool re-run on that commit's files). Recovered
   * actions from an earlier head use it; without it they are carried unchanged (replay still
   * refuses to apply a preview that no longer matches).
   */
  repreview?(record: PendingRecord, sha: string): Promise<RepreviewStep>;
  /** Recovery changed the stack on the head (the gate follows it). */
  onRecovered?(): Promise<void>;
  /** Told where each action's run is, as runs are created or read pending (replies link them). */
  runLinks?: RunLinks;
}

/** Completed without a resolution: by GitHub after 14 days, or with its closed pull request. */
function isDormant(run: ListedRun): boolean {
  if (run.status !== "completed") return false;
  return run.conclusion === "stale" || (run.conclusion === "neutral" && (run.output.title ?? "").startsWith(`${PR_CLOSED_VERB}: `));
}

/** Previews an action again on the new head; `line` is what recovery tells of it (pipeline/preview-again.ts). */
type PreviewAgain = (record: PendingRecord) => Promise<Repreviewed & { line?: string }>;

export class CheckRunStack implements PendingActionStore {
  private state?: HeadState;
  /**
   * The commit the stack is on: the pull request's head it was opened at (or the head before a
   * push), moved by `carryTo` and `resync`. The pull request object itself is never changed.
   */
  private head: string;
  /** What recovery did, one plain-text line per action (the reply escapes them). */
  readonly recovered: string[] = [];

  constructor(
    private readonly octokit: GitHubClient,
    private readonly pr: Readonly<PullRequestInfo>,
    private readonly options: CheckRunStackOptions,
  ) {
    this.head = pr.headSha;
  }

  get headSha(): string {
    return this.head;
  }

  /**
   * The stack of a commit (the head by default). On the head of an open pull request, anything
   * pending that real GitHub left elsewhere is recovered first (see `recover`).
   */
  async load(sha = this.head): Promise<HeadState> {
    if (this.state?.sha === sha) return this.state;
    const state = await this.read(sha);
    if (sha !== this.head) return state;
    this.state = state;
    if (this.pr.state !== "closed") await this.recover(state);
    return state;
  }

  /** Every run of this app on a commit (read-runs.ts), sorted into the stack. */
  private async read(sha: string): Promise<HeadState> {
    const runs = await readRuns(this.octokit, this.pr, sha, this.options);
    const state: HeadState = { sha, pending: [], dormant: [], ours: false, names: new Set(), maxSeq: 0 };
    const live = new Set<string>();
    const dormant = new Map<string, PendingEntry>();
    for (const run of runs) {
      state.names.add(run.name);
      if (run.name === GATE_CHECK_NAME) {
        state.ours = true;
        // Newest first: the first gate listed is the one the pull request shows.
        state.gate ??= { id: run.id, conclusion: run.conclusion, title: run.output.title, summary: run.output.summary };
        continue;
      }
      const record = actionRecordOf(run);
      if (!record) continue;
      state.ours = true;
      state.maxSeq = Math.max(state.maxSeq, record.seq);
      const entry = { runId: run.id, name: run.name, record, text: run.output.text ?? "" };
      if (run.status !== "completed") {
        state.pending.push(entry);
        this.options.runLinks?.note(record.id, run.html_url);
      }
      if (isDormant(run)) dormant.set(record.id, entry);
      else live.add(record.id);
    }
    // An action with any other run here (pending, applied, discarded, moved) is not dormant.
    state.dormant = [...dormant.values()].filter((entry) => !live.has(entry.record.id));
    state.pending.sort((a, b) => a.record.seq - b.record.seq);
    state.dormant.sort((a, b) => a.record.seq - b.record.seq);
    return state;
  }

  /**
   * Brings back what real GitHub took from the head's stack, never twice:
   * - dormant runs on the head (stale, or closed with the pull request) are re-created there;
   * - a head with none of our runs (a push we never heard of, our own apply whose stack was not
   *   moved, a pull request from before the installation) takes the stack of the newest earlier
   *   commit of the pull request that has our runs. Actions whose `Resolve-Action:` commit is on
   *   the branch are completed as applied; the rest are previewed again on the head, or carried
   *   unchanged when the only new commits are our own applies.
   * Cost: nothing extra when the head has our runs (every head gets a gate from check_suite or
   * the synchronize handler). Otherwise one list of the PR's commits plus one run list per
   * commit back to the last one we saw.
   */
  private async recover(state: HeadState): Promise<void> {
    const restored = state.dormant.length > 0 ? await this.restoreDormant(state) : await this.recoverFromEarlierHead(state);
    if (restored) await this.options.onRecovered?.();
  }

  private async restoreDormant(state: HeadState): Promise<boolean> {
    for (const entry of state.dormant) {
      await this.createRun(state, entry.record, { carriedText: entry.text, note: restoredNote(state.sha) }, entry.name);
    }
    state.dormant = [];
    state.pending.sort((a, b) => a.record.seq - b.record.seq);
    return true;
  }

  private async recoverFromEarlierHead(state: HeadState): Promise<boolean> {
    if (state.ours) return false;
    const commits = await pullRequestCommits(this.octokit, this.pr);
    const headIndex = commits.findIndex((commit) => commit.sha === state.sha);
    let index = headIndex === -1 ? commits.length : headIndex;
    let from: HeadState | undefined;
    while (!from && --index >= 0) {
      const candidate = await this.read(commits[index]!.sha);
      if (candidate.ours) from = candidate;
    }
    if (!from) return false;
    const newCommits = commitsBetween(commits, index, headIndex);
    state.maxSeq = Math.max(state.maxSeq, from.maxSeq);
    const entries = [...from.pending, ...from.dormant].sort((a, b) => a.record.seq - b.record.seq);
    await this.moveEntries(from, state, entries, {
      commits: newCommits,
      why: moveReason(newCommits),
      // Without a way to preview again, actions are carried unchanged (replay still refuses to apply a stale preview).
      ...(this.options.repreview ? { previewAgain: (record: PendingRecord) => this.options.repreview!(record, state.sha) } : {}),
      // A dormant action's run was completed already: only its new run is written.
      live: (entry) => from.pending.includes(entry),
      tell: (line) => this.recovered.push(line),
    });
    return entries.length > 0;
  }

  /**
   * Moves `entries` of the stack `from` to the stack `target` on another commit, each as moves.ts
   * decides: finished as applied, its old run closed (already moved), carried unchanged or
   * previewed again (only with `previewAgain`). The old run of a `live` entry is closed after its
   * new run exists; `tell` hears one plain-text line per action.
   */
  private async moveEntries(
    from: HeadState,
    target: HeadState,
    entries: PendingEntry[],
    how: Pick<MoveSituation, "commits" | "onNewHead"> & {
      why: string;
      previewAgain?: PreviewAgain;
      live?: (entry: PendingEntry) => boolean;
      tell?: (line: string) => void;
    },
  ): Promise<void> {
    for (const entry of entries) {
      const live = how.live?.(entry) ?? true;
      const move = moveOf(entry.record.id, { ...how, canPreviewAgain: how.previewAgain !== undefined });
      switch (move.kind) {
        case "applied":
          if (live) {
            const summary = interruptedApplySummary(move.commit, (sha) => this.options.commitUrl(sha));
            await this.complete(entry, "success", "Applied", summary);
          }
          how.tell?.(`- ${entry.record.label}: applied in ${shortSha(move.commit)}.`);
          break;
        case "already-moved":
          await this.complete(entry, "neutral", "Superseded", supersededSummary(target.sha));
          break;
        case "carry":
          await this.createRun(target, entry.record, { carriedText: entry.text, note: carriedNote(from.sha, how.why) });
          if (live) await this.complete(entry, "neutral", "Moved", movedSummary(target.sha, how.why));
          how.tell?.(`- ${entry.record.label}: carried over unchanged.`);
          break;
        case "preview-again": {
          const next = await how.previewAgain!(entry.record);
          if (next.line !== undefined) how.tell?.(next.line);
          await this.replace(entry, next, target, live);
          break;
        }
      }
    }
  }

  /** Puts an action previewed again on `target` (or closes it: nothing left) and, if `live`, supersedes its old run. */
  private async replace(entry: PendingEntry, next: Repreviewed, target: HeadState, live: boolean): Promise<void> {
    if ("closed" in next) {
      if (live) await this.complete(entry, "neutral", "Closed", closedSummary(target.sha, next.closed));
      return;
    }
    await this.createRun(target, next.record, { preview: next.preview, note: next.note });
    if (live) await this.complete(entry, "neutral", "Superseded", supersededSummary(target.sha));
  }

  async push(draft: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord> {
    const state = await this.load();
    const record: PendingRecord = { ...draft, seq: state.maxSeq + 1 };
    await this.createRun(state, record, { preview });
    return record;
  }

  /** Creates the action's run on the state's commit and adds it to the stack. */
  private async createRun(state: HeadState, record: PendingRecord, content: RunContent, reusedName?: string): Promise<void> {
    let name = reusedName ?? actionRunName(record.label);
    if (!reusedName && state.names.has(name)) name = `${name} (#${record.seq})`;
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
      // The pull request travels with the run: GitHub lists no pull requests on runs of fork heads.
      external_id: checkRunExternalId(this.pr.number, record.id),
      started_at: new Date().toISOString(),
      output: { ...output, annotations },
    });
    state.names.add(name);
    state.maxSeq = Math.max(state.maxSeq, record.seq);
    state.pending.push({ runId: data.id, name, record, text: output.text });
    this.options.runLinks?.note(record.id, data.html_url);
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
    const summary = resolutionSummary(top.record, resolution, (sha) => this.options.commitUrl(sha)) + encodeStep(resolution.requestStep);
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
    const target: HeadState = { sha, pending: [], dormant: [], ours: true, names: new Set(), maxSeq: from.maxSeq };
    await this.moveEntries(from, target, from.pending, { commits: OUR_APPLY, why });
    this.head = sha;
    this.state = target;
  }

  /**
   * After new commits: every pending action moves to `sha` as moves.ts decides — finished from
   * our own apply among the commits, carried when those are all the new commits, else previewed
   * again by `repreview` (the new record and preview, or closed when nothing is left to change).
   * Old runs are closed as neutral.
   */
  async resync(sha: string, repreview: (record: PendingRecord) => Promise<Repreviewed>): Promise<void> {
    const from = await this.load();
    // The new head may already carry runs (a gate, earlier previews): read them once.
    const existing = await this.load(sha);
    const target: HeadState = { ...existing, maxSeq: Math.max(existing.maxSeq, from.maxSeq) };
    const commits = from.pending.length > 0 ? await this.commitsSince(from.sha, sha) : NOTHING_NEW;
    await this.moveEntries(from, target, from.pending, {
      commits,
      why: moveReason(commits),
      previewAgain: repreview,
      // A redelivered push finds the action already moved (same id).
      onNewHead: (id) => target.pending.some((candidate) => candidate.record.id === id),
    });
    this.head = sha;
    this.state = target;
  }

  /** What the pull request's commits after `from` up to `to` say of our applies (moves.ts). */
  private async commitsSince(from: string, to: string): Promise<NewCommits> {
    return commitsSince(await pullRequestCommits(this.octokit, this.pr), from, to);
  }

  /**
   * Previews one pending action again on the head (the Re-run button on its check): the new run
   * keeps its place on the stack; the old one is closed as superseded. False when it is not pending.
   */
  async repreviewAction(id: string): Promise<boolean> {
    const state = await this.load();
    const index = state.pending.findIndex((entry) => entry.record.id === id);
    const entry = state.pending[index];
    if (!entry || !this.options.repreview) return false;
    const next = await this.options.repreview(entry.record, state.sha);
    state.pending.splice(index, 1);
    await this.replace(entry, next, state, true);
    state.pending.sort((a, b) => a.record.seq - b.record.seq);
    return true;
  }

  /**
   * The pull request was closed or merged: its pending actions will never be applied, so their
   * runs are completed as neutral (reopening restores them, see `recover`). Returns how many
   * were pending (the gate is closed with them, see GateCheck.close).
   */
  async closeStack(merged: boolean): Promise<number> {
    const state = await this.load();
    const pending = state.pending.splice(0);
    const summary = prClosedSummary(merged, pending.length);
    for (const entry of pending) await this.complete(entry, "neutral", PR_CLOSED_VERB, summary);
    state.dormant = pending;
    return pending.length;
  }
}
