/**
 * What becomes of each pending action when its stack moves to a new head, decided here once for
 * the three ways a stack moves (stack.ts carries them out):
 * - after our own apply (`carryTo`): the rest is carried unchanged;
 * - after a push (`resync`) and when recovery finds the stack on an earlier head (`recover`): an
 *   action whose `Resolve-Action:` commit is among the new commits is finished as applied; when
 *   every new commit is such an apply (recording it failed after the commit), the rest is carried
 *   unchanged, as after an apply — never previewed again, which would close it as "nothing left";
 *   otherwise each is previewed again on the new head.
 */
import { appliedAction } from "../../../core/commit-message.js";
import type { PullRequestCommit } from "../api/pull-request.js";

/** What the commits between the stack's head and the new head say of our applies. */
export interface NewCommits {
  /** The action each `Resolve-Action:` commit among them applied → that commit. */
  appliedIn: Map<string, string>;
  /** Whether there are new commits and every one is an apply of ours. */
  onlyOurApplies: boolean;
}

/** The new head is our own apply (nothing else came): what `carryTo` moves for. */
export const OUR_APPLY: NewCommits = { appliedIn: new Map(), onlyOurApplies: true };
/** Why a stack moved when the only new commits are our own applies. */
const APPLIED_WHY = "an edit was applied";

/**
 * What the pull request's commits after index `from` up to index `to` (-1: the end) say of our
 * applies.
 */
export function commitsBetween(commits: PullRequestCommit[], from: number, to: number): NewCommits {
  const newer = commits.slice(from + 1, to === -1 ? undefined : to + 1);
  const appliedIn = new Map<string, string>();
  for (const commit of newer) {
    const id = appliedAction(commit.commit.message);
    if (id) appliedIn.set(id, commit.sha);
  }
  return { appliedIn, onlyOurApplies: newer.length > 0 && newer.every((commit) => appliedAction(commit.commit.message) !== undefined) };
}

/** The commits after `from` up to `to` (all of them when `from` is gone: a force-push, which is never only ours). */
export function commitsSince(commits: PullRequestCommit[], from: string, to: string): NewCommits {
  const fromIndex = commits.findIndex((commit) => commit.sha === from);
  const between = commitsBetween(
    commits,
    fromIndex,
    commits.findIndex((commit) => commit.sha === to),
  );
  return fromIndex === -1 ? { ...between, onlyOurApplies: false } : between;
}

/** Why the stack moved, as a carried run's note and its old run's summary say it. */
export function moveReason(commits: NewCommits): string {
  return commits.onlyOurApplies ? APPLIED_WHY : "new commits";
}

export type Move =
  /** Finished from the commit that applied it. */
  | { kind: "applied"; commit: string }
  /** Already on the new head (a redelivered push moved it before): only the old run is closed. */
  | { kind: "already-moved" }
  /** Re-created on the new head unchanged. */
  | { kind: "carry" }
  /** Previewed again on the new head (which may close it: nothing left to change). */
  | { kind: "preview-again" };

export interface MoveSituation {
  commits: NewCommits;
  /** Whether actions can be previewed again here; without it they are carried. */
  canPreviewAgain: boolean;
  /** Whether the new head already holds the action. */
  onNewHead?(actionId: string): boolean;
}

export function moveOf(actionId: string, situation: MoveSituation): Move {
  const applied = situation.commits.appliedIn.get(actionId);
  if (applied) return { kind: "applied", commit: applied };
  if (situation.onNewHead?.(actionId)) return { kind: "already-moved" };
  if (situation.commits.onlyOurApplies || !situation.canPreviewAgain) return { kind: "carry" };
  return { kind: "preview-again" };
}
