/**
 * A request: one thing someone asked of the bot (a comment's commands, a button, a push…), as plain
 * JSON. Ingress makes it from a forge's event; the job queue stores it; `runRequest` carries it out,
 * possibly in another thread or process, so it holds data only (no clients, no closures).
 */
import type { SlashCommand } from "../core/commands.js";

export interface RequestActor {
  login: string;
  /** The forge's user id (GitHub: for the commit's Co-authored-by address); absent locally. */
  id?: number;
}

/** What caused the request. Each kind has one handler in run-request.ts's table. */
export type Trigger =
  /** A comment's slash commands, parsed at ingress (a comment without commands is no request). */
  | { kind: "comment"; commentId?: number; commands: SlashCommand[] }
  /** The gate check's Apply/Discard button (check_run.requested_action). */
  | { kind: "button"; action: "apply" | "discard"; checkRunId: number }
  /** New commits on the branch (pull_request.synchronize). */
  | { kind: "push"; before: string; after: string }
  | { kind: "opened" }
  | { kind: "reopened" }
  | { kind: "closed"; merged: boolean }
  /** A check suite was requested for a head commit. */
  | { kind: "check_suite"; headSha: string }
  /** Someone asked GitHub to re-run one of the app's check runs. */
  | {
      kind: "rerequested";
      checkRunId: number;
      name: string;
      /** The pending action the run shows (none for the gate). */ actionId?: string;
    }
  /** GitHub marked one of the app's in-progress check runs stale (after 14 days). */
  | { kind: "stale"; checkRunId: number };

export type TriggerKind = Trigger["kind"];

export interface Request {
  /** The GitHub App installation the request came through; absent locally. */
  installationId?: number;
  repository: { owner: string; repo: string };
  /** The pull request number (0 for a local checkout, which is one pull request of its own). */
  pullRequest: number;
  actor: RequestActor;
  /** Unique per event: the webhook's X-GitHub-Delivery; deduplicates redeliveries. */
  deliveryId: string;
  trigger: Trigger;
}

/** The serialisation key: one pull request's requests run one at a time, in order. */
export function requestKey(request: Pick<Request, "repository" | "pullRequest">): string {
  return `${request.repository.owner}/${request.repository.repo}#${request.pullRequest}`;
}
