/**
 * Thin webhook wiring for the stack's lifecycle (lifecycle.ts holds the behaviour): stale runs,
 * check suites, Re-run, closed pull requests. Each delivery is deduplicated and queued on the
 * pull request's lock like every other handler; a broken config fails the gate.
 */
import type { Context } from "probot";
import { CheckRunStore } from "./check-runs.js";
import type { HandlerDeps } from "./handlers.js";
import { isOurRun, refreshStack, rerunCheck } from "./lifecycle.js";
import { CONFIG_FILE, loadRepoConfig, openSession, readPullRequest } from "./session.js";
import type { PullRequestInfo } from "./types.js";

/** The work on one pull request's stack; a returned text is posted as a comment on it. */
type StackWork = (store: CheckRunStore, pr: PullRequestInfo) => Promise<string | undefined>;

/** Queues `work` on the stack of each pull request; closed ones are skipped unless `onClosed`. */
function withStacks(
  context: Context<"check_run" | "check_suite" | "pull_request">,
  deps: HandlerDeps,
  numbers: number[],
  work: StackWork,
  onClosed = false,
): void {
  if (numbers.length === 0 || !deps.queue.firstDelivery(context.id)) return;
  const repo = context.repo();
  // The actor only names who triggered a re-preview; GitHub's own events may come without one.
  const sender = context.payload.sender ?? { login: "github", id: 0 };
  for (const number of new Set(numbers)) {
    deps.queue.enqueue(`${repo.owner}/${repo.repo}#${number}`, async () => {
      const loaded = await loadRepoConfig(() => context.config(CONFIG_FILE), deps.registry);
      const pr = await readPullRequest(context.octokit, repo, number);
      if (pr.state === "closed" && !onClosed) return;
      if (!loaded.ok) {
        // A required `resolve-bot` check must not wait forever on a configuration nobody can read.
        if (pr.state === "closed") return;
        const store = new CheckRunStore(context.octokit, pr, { appId: deps.appId, gateCheck: true, commitUrl: (sha) => sha });
        return store.reportBrokenConfig(`.github/${CONFIG_FILE}`, loaded.errors);
      }
      const session = openSession(
        context.octokit,
        pr,
        loaded.config,
        { login: sender.login, id: sender.id },
        { ...deps, canWriteWorkflows: async () => false },
      );
      const body = await work(session.store, pr);
      if (body) await context.octokit.rest.issues.createComment({ ...repo, issue_number: number, body });
    });
  }
}

interface RunPayload {
  name: string;
  conclusion: string | null;
  external_id: string | null;
  app?: { id: number } | null;
  output: { summary?: string | null };
  pull_requests: Array<{ number: number }>;
}

/** The pull requests a run belongs to: our runs name theirs (`pr:N…`); GitHub lists only same-repository ones. */
function runPullRequests(run: RunPayload, deps: HandlerDeps): number[] {
  if (!isOurRun(run) || (deps.appId !== undefined && run.app?.id !== deps.appId)) return [];
  const own = Number(/^pr:(\d+)(?::|$)/.exec(run.external_id ?? "")?.[1]);
  return Number.isInteger(own) && own > 0 ? [own] : run.pull_requests.map((pr) => pr.number);
}

/** GitHub completed one of our incomplete runs as `stale` (14 days): recreate it on the head. */
export function onCheckRunCompleted(context: Context<"check_run.completed">, deps: HandlerDeps): void {
  const run = context.payload.check_run as RunPayload;
  if (run.conclusion !== "stale") return;
  withStacks(context, deps, runPullRequests(run, deps), (store) => refreshStack(store));
}

/** The Re-run button on one of our checks. */
export function onCheckRunRerequested(context: Context<"check_run.rerequested">, deps: HandlerDeps): void {
  const run = context.payload.check_run as RunPayload;
  withStacks(context, deps, runPullRequests(run, deps), (store) => rerunCheck(store, run));
}

/** Every push (requested) and Re-run all (rerequested): the gate exists on every head. */
export function onCheckSuite(context: Context<"check_suite.requested" | "check_suite.rerequested">, deps: HandlerDeps): void {
  const numbers = context.payload.check_suite.pull_requests.map((pr) => pr.number);
  withStacks(context, deps, numbers, (store) => refreshStack(store));
}

/** Closed or merged: pending actions and the gate are completed as neutral. */
export function onPullRequestClosed(context: Context<"pull_request.closed">, deps: HandlerDeps): void {
  const merged = context.payload.pull_request.merged === true;
  withStacks(context, deps, [context.payload.pull_request.number], async (store) => void (await store.closeStack(merged)), true);
}
