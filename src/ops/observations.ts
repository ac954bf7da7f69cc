/**
 * What the app measures, as plain values, wherever it happens: the webhook server's thread, a job
 * worker, or a pool worker thread (where the request executor and its Octokit run).
 *
 * Why not a prom-client registry in every thread: a pool worker thread is terminated at a time
 * limit and recycled after N tasks, so its registry (and its counters) would vanish with it, and
 * prom-client's AggregatorRegistry only gathers from `cluster` processes. Instead a worker thread
 * keeps its observations in a buffer that the pool entry (workers/entry.ts) returns with each
 * task's result, on the channel the result already takes: they arrive with the result, never
 * after the task has been answered (a second port gives no order against piscina's). The main
 * thread hands them to its one registry (ops/metrics.ts). A task that is terminated loses the
 * API calls it made; its command is still counted, as `stopped`, by the main thread.
 */

/** What became of one command. `answered`: /help and /pending; `failed`: the bot failed (apology). */
export type CommandOutcomeLabel = "previewed" | "applied" | "discarded" | "refused" | "stopped" | "answered" | "failed";

export type Observation =
  | { kind: "command"; tool: string; outcome: CommandOutcomeLabel; seconds: number }
  /** One GitHub API call: `GET /repos/{owner}/{repo}/pulls/{pull_number}`, its HTTP status (or `error`). */
  | { kind: "github-call"; route: string; status: string; failure?: string }
  /** `x-ratelimit-remaining` of the newest answer GitHub gave an installation (or `app`). */
  | { kind: "rate-limit"; installation: string; remaining: number };

/** Far more than one task makes; a thread nobody drains (the local CLI) stops growing here. */
const BUFFER_LIMIT = 10_000;

let buffer: Observation[] = [];
let sink: ((observation: Observation) => void) | undefined;

export function observe(observation: Observation): void {
  if (sink) sink(observation);
  else if (buffer.length < BUFFER_LIMIT) buffer.push(observation);
}

/** The main thread's registry takes observations as they happen (ops/metrics.ts). */
export function setObservationSink(record: ((observation: Observation) => void) | undefined): void {
  sink = record;
}

/** What this thread observed since the last call (a pool worker returns it with each task). */
export function takeObservations(): Observation[] {
  const taken = buffer;
  buffer = [];
  return taken;
}
