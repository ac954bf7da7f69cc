/**
 * What a GitHub Actions runner gives a JavaScript action's process: its variables for one event of
 * the emulated GitHub, and the workflow's token as the `token` input (`${{ github.token }}`, the
 * input's default). Shared by the Action's e2e suites and the bench, which start the bundle as a
 * runner does.
 */
import type { GitHubEmulator } from "./emulator.js";
import type { WebhookEvent } from "./webhooks.js";

export interface RunnerJob {
  event: WebhookEvent;
  /** The file holding the event's payload (GITHUB_EVENT_PATH). */
  eventPath: string;
  runId: string;
  attempt?: number;
  runnerTemp: string;
  /** GITHUB_STEP_SUMMARY, when the caller reads the job's summary. */
  summaryPath?: string;
}

export function runnerEnvironment(gh: GitHubEmulator, job: RunnerJob): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: job.event.name,
    GITHUB_EVENT_PATH: job.eventPath,
    GITHUB_REPOSITORY: (job.event.payload.repository as { full_name: string }).full_name,
    GITHUB_RUN_ID: job.runId,
    GITHUB_RUN_ATTEMPT: String(job.attempt ?? 1),
    GITHUB_API_URL: gh.apiUrl,
    GITHUB_SERVER_URL: gh.url,
    ...(job.summaryPath === undefined ? {} : { GITHUB_STEP_SUMMARY: job.summaryPath }),
    RUNNER_TEMP: job.runnerTemp,
    INPUT_TOKEN: gh.actionsToken(),
  };
}
