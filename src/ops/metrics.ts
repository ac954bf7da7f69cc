/**
 * The app's Prometheus metrics (prom-client), one registry per process, served at GET /metrics.
 * Every series carries the process's `role` (all, server, worker), so one scrape config covers
 * the webhook servers and the workers of a scaled-out deployment.
 *
 * Pool worker threads do not write here: their observations come back with each task's result
 * (ops/observations.ts says why) and are recorded by `record`.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Observation } from "./observations.js";

export interface PoolGauges {
  /** Worker threads alive now. */
  threads: number;
  /** Heap in use in the live worker threads, as each reported after its latest task. */
  heapUsedBytes: number;
}

export class Metrics {
  readonly registry = new Registry();
  readonly webhookAck: Histogram<"event">;
  readonly jobsQueued: Counter;
  readonly jobsRunning: Gauge;
  readonly jobsRetried: Counter;
  readonly jobsDeadLettered: Counter;
  readonly commandDuration: Histogram<"tool" | "outcome">;
  readonly githubRequests: Counter<"route" | "status">;
  readonly rateLimitRemaining: Gauge<"installation">;
  readonly deliverySweeps: Counter;
  readonly deliverySweepErrors: Counter;
  readonly deliveriesRecovered: Counter<"event">;

  constructor(role: string, pool?: () => PoolGauges | undefined) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry });
    this.webhookAck = new Histogram({
      name: "resolve_bot_webhook_ack_seconds",
      help: "Time from a webhook reaching resolve-bot's handler to its answer (the job recorded), by event",
      labelNames: ["event"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.jobsQueued = new Counter({
      name: "resolve_bot_jobs_queued_total",
      help: "Jobs recorded on the job queue by this process",
      registers,
    });
    this.jobsRunning = new Gauge({ name: "resolve_bot_jobs_running", help: "Jobs this process is carrying out now", registers });
    this.jobsRetried = new Counter({
      name: "resolve_bot_jobs_retried_total",
      help: "Job attempts that GitHub failed for now, to be tried again after a backoff",
      registers,
    });
    this.jobsDeadLettered = new Counter({
      name: "resolve_bot_jobs_dead_lettered_total",
      help: "Jobs given up (retries exhausted, or an error not worth one)",
      registers,
    });
    this.commandDuration = new Histogram({
      name: "resolve_bot_command_duration_seconds",
      help: "Slash commands carried out, by tool and outcome (previewed, applied, discarded, refused, stopped, answered, failed)",
      labelNames: ["tool", "outcome"],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.githubRequests = new Counter({
      name: "resolve_bot_github_requests_total",
      help: "GitHub API requests, by route (method and path template) and HTTP status",
      labelNames: ["route", "status"],
      registers,
    });
    this.rateLimitRemaining = new Gauge({
      name: "resolve_bot_github_rate_limit_remaining",
      help: "x-ratelimit-remaining of GitHub's latest answer, per installation id (`app`: the app's own token)",
      labelNames: ["installation"],
      registers,
    });
    this.deliverySweeps = new Counter({
      name: "resolve_bot_delivery_sweeps_total",
      help: "Sweeps of the app's webhook deliveries that finished",
      registers,
    });
    this.deliverySweepErrors = new Counter({
      name: "resolve_bot_delivery_sweep_errors_total",
      help: "Sweeps of the app's webhook deliveries that failed (tried again at the next sweep)",
      registers,
    });
    this.deliveriesRecovered = new Counter({
      name: "resolve_bot_deliveries_recovered_total",
      help: "Webhook deliveries GitHub failed to deliver that a sweep recorded, by event",
      labelNames: ["event"],
      registers,
    });
    if (pool) {
      new Gauge({
        name: "resolve_bot_worker_threads",
        help: "Pool worker threads alive (tools run in them)",
        registers,
        collect() {
          this.set(pool()?.threads ?? 0);
        },
      });
      new Gauge({
        name: "resolve_bot_worker_heap_used_bytes",
        help: "V8 heap in use in the pool's live worker threads, as each reported after its latest task",
        registers,
        collect() {
          this.set(pool()?.heapUsedBytes ?? 0);
        },
      });
    }
  }

  record(observation: Observation): void {
    switch (observation.kind) {
      case "command":
        this.commandDuration.observe({ tool: observation.tool, outcome: observation.outcome }, observation.seconds);
        return;
      case "github-call":
        this.githubRequests.inc({ route: observation.route, status: observation.status });
        return;
      case "rate-limit":
        this.rateLimitRemaining.set({ installation: observation.installation }, observation.remaining);
    }
  }
}
