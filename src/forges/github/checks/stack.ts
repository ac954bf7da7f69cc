/**
 * The pending stack of a pull request, kept in check runs on its head commit (one per action,
 * `in_progress`; the durable record in the summary). One list call reads the whole stack and the
 * `resolve-bot` gate beside it (gate-check.ts writes the gate; check-run-output.ts renders both).
 *
 * Real GitHub moves the stack under our feet, so reading it also recovers it (see `recover`):
 * runs GitHub completed as `stale` after 14 days, runs closed with the pull request (restored on
 * reopen), and a stack left on an earlier head when a push was never delivered to us.
 */
import { appliedAction } from "../../../core/commit-message.js";
import type { NewPendingRecord, PendingActionStore, PendingRecord, PreviewPresentation, Resolution } from "../../../core/store.js";
import type { RepreviewStep } from "../../../pipeline/preview-again.js";
import { diffHunks } from "../../../workspace/diff.js";
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
import { checkRunExternalId } from "./run-ids.js";
import { GATE_CHECK_NAME } from "./gate.js";
import { decodeRecord, encodeRecord, encodeStep } from "./record-codec.js";
import type { RunLinks } from "../replies/links.js";
import { ownedBy, ownerQuery, type RunOwner } from "./read-runs.js";
import type { GitHubClient, PullRequestInfo } from "../types.js";
import { shortSha } from "../../../core/revision.js";

export const ACTION_CHECK_PREFIX = "resolve-bot: ";
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
  app?: { slug?: string } | null;
}

/** The verb of a run completed because its pull request was closed: reopening restores it. */
export const PR_CLOSED_VERB = "Not applied";
/** Why a stack moved when the only new commits are our own applies. */
const APPLIED_WHY = "an edit was applied";
const NOTHING_APPLIED = { appliedIn: new Map<string, string>(), onlyOurApplies: false };

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
function isDormant(run: CheckRun): boolean {
  if (run.status !== "completed") return false;
  return run.conclusion === "stale" || (run.conclusion === "neutral" && (run.output.title ?? "").startsWith(`${PR_CLOSED_VERB}: `));
}

interface PullRequestCommit {
  sha: string;
  commit: { message: string };
}

/**
 * What the pull request's commits after index `from` up to index `to` (-1: the end) say of our
 * applies: which action each `Resolve-Action:` commit applied, and whether they are all ours.
 */
function appliedBetween(
  commits: PullRequestCommit[],
  from: number,
  to: number,
): { appliedIn: Map<string, string>; onlyOurApplies: boolean } {
  const newer = commits.slice(from + 1, to === -1 ? undefined : to + 1);
  const appliedIn = new Map<string, string>();
  for (const commit of newer) {
    const id = appliedAction(commit.commit.message);
    if (id) appliedIn.set(id, commit.sha);
  }
  return { appliedIn, onlyOurApplies: newer.length > 0 && newer.every((commit) => appliedAction(commit.commit.message) !== undefined) };
}

export class CheckRunStack implements PendingActionStore {
  private state?: HeadState;
  /** What recovery did, one plain-text line per action (the reply escapes them). */
  readonly recovered: string[] = [];

  constructor(
    private readonly octokit: GitHubClient,
    private readonly pr: PullRequestInfo,
    private readonly options: CheckRunStackOptions,
  ) {}

  get headSha(): string {
    return this.pr.headSha;
  }

  /**
   * The stack of a commit (the head by default). On the head of an open pull request, anything
   * pending that real GitHub left elsewhere is recovered first (see `recover`).
   */
  async load(sha = this.pr.headSha): Promise<HeadState> {
    if (this.state?.sha === sha) return this.state;
    const state = await this.read(sha);
    if (sha !== this.pr.headSha) return state;
    this.state = state;
    if (this.pr.state !== "closed") await this.recover(state);
    return state;
  }

  /** Every run of this app on a commit, in one call per 100 runs, sorted into the stack. */
  private async read(sha: string): Promise<HeadState> {
    const runs = (await this.octokit.paginate(this.octokit.rest.checks.listForRef, {
      owner: this.pr.owner,
      repo: this.pr.repo,
      ref: sha,
      filter: "all",
      per_page: 100,
      ...ownerQuery(this.options),
    })) as CheckRun[];
    const state: HeadState = { sha, pending: [], dormant: [], ours: false, names: new Set(), maxSeq: 0 };
    const live = new Set<string>();
    const dormant = new Map<string, PendingEntry>();
    for (const run of runs) {
      if (!ownedBy(this.options, run)) continue;
      state.names.add(run.name);
      if (run.name === GATE_CHECK_NAME) {
        state.ours = true;
        // Newest first: the first gate listed is the one the pull request shows.
        state.gate ??= { id: run.id, conclusion: run.conclusion, title: run.output.title, summary: run.output.summary };
        continue;
      }
      if (!run.name.startsWith(ACTION_CHECK_PREFIX)) continue;
      const record = decodeRecord(run.output.summary);
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
    const commits = await this.pullRequestCommits();
    const headIndex = commits.findIndex((commit) => commit.sha === state.sha);
    let index = headIndex === -1 ? commits.length : headIndex;
    let from: HeadState | undefined;
    while (!from && --index >= 0) {
      const candidate = await this.read(commits[index]!.sha);
      if (candidate.ours) from = candidate;
    }
    if (!from) return false;
    const { appliedIn, onlyOurApplies } = appliedBetween(commits, index, headIndex);
    const why = onlyOurApplies ? APPLIED_WHY : "new commits";
    state.maxSeq = Math.max(state.maxSeq, from.maxSeq);
    const entries = [...from.pending, ...from.dormant].sort((a, b) => a.record.seq - b.record.seq);
    for (const entry of entries) {
      const live = from.pending.includes(entry);
      const applied = appliedIn.get(entry.record.id);
      if (applied) {
        const summary = interruptedApplySummary(applied, (sha) => this.options.commitUrl(sha));
        if (live) await this.complete(entry, "success", "Applied", summary);
        this.recovered.push(`- ${entry.record.label}: applied in ${shortSha(applied)}.`);
        continue;
      }
      if (onlyOurApplies || !this.options.repreview) {
        await this.createRun(state, entry.record, { carriedText: entry.text, note: carriedNote(from.sha, why) });
        if (live) await this.complete(entry, "neutral", "Moved", movedSummary(state.sha, why));
        this.recovered.push(`- ${entry.record.label}: carried over unchanged.`);
        continue;
      }
      const next = await this.options.repreview(entry.record, state.sha);
      this.recovered.push(next.line);
      if ("closed" in next) {
        if (live) await this.complete(entry, "neutral", "Closed", closedSummary(state.sha, next.closed));
        continue;
      }
      await this.createRun(state, next.record, { preview: next.preview, note: next.note });
      if (live) await this.complete(entry, "neutral", "Superseded", supersededSummary(state.sha));
    }
    return entries.length > 0;
  }

  /** The pull request's commits, oldest first (GitHub lists up to 250). */
  private async pullRequestCommits(): Promise<PullRequestCommit[]> {
    return this.octokit.paginate(this.octokit.rest.pulls.listCommits, {
      owner: this.pr.owner,
      repo: this.pr.repo,
      pull_number: this.pr.number,
      per_page: 100,
    });
  }

  async push(draft: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord> {
    const state = await this.load();
    const record: PendingRecord = { ...draft, seq: state.maxSeq + 1 };
    await this.createRun(state, record, { preview });
    return record;
  }

  /** Creates the action's run on the state's commit and adds it to the stack. */
  private async createRun(state: HeadState, record: PendingRecord, content: RunContent, reusedName?: string): Promise<void> {
    let name = reusedName ?? `${ACTION_CHECK_PREFIX}${record.label}`;
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
   * After new commits: every pending action gets a fresh preview on `sha`. `next` is the new
   * record and preview, or undefined when nothing is left to change. Old runs are closed as
   * neutral. The new commits may be our own applies whose stack was not moved (recording the
   * apply failed after the commit): an action a commit's `Resolve-Action:` trailer names is
   * completed as applied, and when every new commit is such an apply, the rest is carried
   * unchanged, as after an apply — never previewed again, which would close it as "nothing left".
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
    const { appliedIn, onlyOurApplies } = from.pending.length > 0 ? await this.appliedSince(from.sha, sha) : NOTHING_APPLIED;
    for (const entry of from.pending) {
      const applied = appliedIn.get(entry.record.id);
      if (applied) {
        await this.complete(
          entry,
          "success",
          "Applied",
          interruptedApplySummary(applied, (commit) => this.options.commitUrl(commit)),
        );
        continue;
      }
      // A redelivered push finds the action already moved (same id): only close the old run.
      if (target.pending.some((candidate) => candidate.record.id === entry.record.id)) {
        await this.complete(entry, "neutral", "Superseded", supersededSummary(sha));
        continue;
      }
      if (onlyOurApplies) {
        await this.createRun(target, entry.record, { carriedText: entry.text, note: carriedNote(from.sha, APPLIED_WHY) });
        await this.complete(entry, "neutral", "Moved", movedSummary(sha, APPLIED_WHY));
        continue;
      }
      const next = await repreview(entry.record);
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

  /** Our applies among the pull request's commits after `from` up to `to` (all of them when `from` is gone: a force-push). */
  private async appliedSince(from: string, to: string): Promise<{ appliedIn: Map<string, string>; onlyOurApplies: boolean }> {
    const commits = await this.pullRequestCommits();
    const fromIndex = commits.findIndex((commit) => commit.sha === from);
    const applied = appliedBetween(
      commits,
      fromIndex,
      commits.findIndex((commit) => commit.sha === to),
    );
    return fromIndex === -1 ? { ...applied, onlyOurApplies: false } : applied;
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
    if ("closed" in next) {
      await this.complete(entry, "neutral", "Closed", closedSummary(state.sha, next.closed));
      return true;
    }
    await this.createRun(state, next.record, { preview: next.preview, note: next.note });
    await this.complete(entry, "neutral", "Superseded", supersededSummary(state.sha));
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
