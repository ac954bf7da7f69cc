/**
 * The journal of a request that runs again, read from GitHub itself (pipeline/journal.ts says what
 * it is for): commits on the pull request whose `Resolve-Request:` trailer names one of the
 * request's steps (its applies), and the app's check runs on the heads the request saw — the
 * current head, each of its commits and their parents — whose record was pushed by one of its steps
 * (previews) or whose completion names one (applies and discards).
 * Cost, paid only by a re-run: one list of the pull request's commits, one run list per head.
 */
import { appliedAction, appliedByStep } from "../../core/commit-message.js";
import type { PendingRecord } from "../../core/store.js";
import type { RequestJournal } from "../../pipeline/ports.js";
import { pullRequestCommits } from "./api/pull-request.js";
import { readRuns, type RunOwner } from "./checks/read-runs.js";
import { decodeStep } from "./checks/record-codec.js";
import { actionRecordOf } from "./checks/run-ids.js";
import type { RunLinks } from "./replies/links.js";
import type { GitHubClient, PullRequestInfo } from "./types.js";

/** `runLinks`: told where each action the interrupted run pushed is, so its reply links the run again. */
export async function readJournal(
  octokit: GitHubClient,
  pr: PullRequestInfo,
  requestId: string,
  owner: RunOwner = {},
  runLinks?: RunLinks,
): Promise<RequestJournal> {
  const ours = (step: string | undefined): step is string => step?.startsWith(`${requestId}#`) === true;
  const journal: RequestJournal = { pushed: new Map(), resolved: new Map() };
  const commits = await pullRequestCommits(octokit, pr);
  const heads = new Set([pr.headSha]);
  const appliedBy = new Map<string, string>(); // action id → step
  for (const commit of commits) {
    const step = appliedByStep(commit.commit.message);
    if (!ours(step)) continue;
    heads.add(commit.sha);
    for (const parent of commit.parents) heads.add(parent.sha);
    journal.resolved.set(step, { action: "apply", commit: commit.sha });
    const actionId = appliedAction(commit.commit.message);
    if (actionId) appliedBy.set(actionId, step);
  }
  const records = new Map<string, PendingRecord>();
  const pushed = new Map<string, Map<string, PendingRecord>>();
  for (const sha of heads) {
    for (const run of await readRuns(octokit, pr, sha, owner)) {
      const record = actionRecordOf(run);
      if (!record) continue;
      records.set(record.id, record);
      // A carried or restored run keeps its record, so a push is found wherever the action is now.
      if (ours(record.requestStep)) {
        const byId = pushed.get(record.requestStep) ?? new Map<string, PendingRecord>();
        pushed.set(record.requestStep, byId.set(record.id, record));
        runLinks?.note(record.id, run.html_url);
      }
      const resolvedBy = decodeStep(run.output.summary);
      if (run.status === "completed" && ours(resolvedBy)) {
        const action = run.conclusion === "success" ? "apply" : "discard";
        journal.resolved.set(resolvedBy, { ...journal.resolved.get(resolvedBy), action, record });
      }
    }
  }
  for (const [step, byId] of pushed)
    journal.pushed.set(
      step,
      [...byId.values()].sort((a, b) => a.index - b.index),
    );
  // An apply whose run was never completed (cut short after its ref update) still names its action.
  for (const [actionId, step] of appliedBy) {
    const record = records.get(actionId);
    const done = journal.resolved.get(step);
    if (record && done && !done.record) done.record = record;
  }
  return journal;
}
