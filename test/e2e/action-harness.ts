/**
 * End-to-end harness for the GitHub Action: the bundled action (dist/action/index.js, what
 * action.yml runs) started as a runner starts it — a child process with the event's payload in a
 * file (GITHUB_EVENT_PATH), GITHUB_EVENT_NAME, GITHUB_REPOSITORY, GITHUB_RUN_ID/ATTEMPT, the token as
 * the `token` input (INPUT_TOKEN, which the runner fills with the workflow's GITHUB_TOKEN) and
 * GITHUB_API_URL/GITHUB_SERVER_URL pointing at the emulator — against the stateful emulator, whose
 * GITHUB_TOKEN acts as the GitHub Actions app.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GitHubEmulator, runnerEnvironment, type WebhookEvent } from "./emulator/index.js";
import { waitFor, withoutMarker } from "./harness.js";
import { patient } from "../helpers/patience.js";

/**
 * The bundle run: this checkout's build, or RESOLVE_BOT_ACTION_ENTRY (the release rehearsal,
 * test/release.test.ts, runs the Action against its release tree's dist/action/index.js).
 */
export const ACTION_ENTRY = path.resolve(process.env.RESOLVE_BOT_ACTION_ENTRY ?? "dist/action/index.js");

export interface ActionRun {
  code: number | null;
  /** The job's log (stdout and stderr). */
  output: string;
  /** What the step wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
}

export interface ActionRunOptions {
  /** GITHUB_RUN_ID (default: a new one per run, as each event starts its own workflow run). */
  runId?: string;
  /** GITHUB_RUN_ATTEMPT (default 1; "Re-run jobs" makes it 2). */
  attempt?: number;
  /** The environment the step sees, beyond the runner's; a value of undefined removes a variable. */
  env?: Record<string, string | undefined>;
}

export interface ActionRunner {
  gh: GitHubEmulator;
  /** Runs the bundled action on one event, to its exit. */
  run(event: WebhookEvent, options?: ActionRunOptions): Promise<ActionRun>;
}

let nextRunId = 7_100_000_000;

export async function startActionRunner(bundle = ACTION_ENTRY): Promise<ActionRunner & { stop(): Promise<void> }> {
  const gh = await GitHubEmulator.start();
  const temp = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-action-e2e-"));
  // One RUNNER_TEMP for the suite, as a self-hosted runner keeps it: the repository cache is reused.
  const runnerTemp = mkdtempSync(path.join(temp, "runner-temp-"));
  return {
    gh,
    async run(event, options = {}) {
      const runId = options.runId ?? String(nextRunId++);
      const eventPath = path.join(temp, `event-${runId}-${options.attempt ?? 1}.json`);
      const summaryPath = path.join(temp, `summary-${runId}-${options.attempt ?? 1}.md`);
      writeFileSync(eventPath, JSON.stringify(event.payload));
      writeFileSync(summaryPath, "");
      const env: Record<string, string | undefined> = {
        ...runnerEnvironment(gh, { event, eventPath, runId, attempt: options.attempt ?? 1, runnerTemp, summaryPath }),
        // Against the emulator, as the server's e2e suites do: no request spacing, no early status.
        RESOLVE_BOT_THROTTLE: "off",
        RESOLVE_BOT_STATUS_AFTER_SECONDS: "off",
        ...options.env,
      };
      const child = spawn(process.execPath, [bundle], {
        env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += String(chunk)));
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`the action did not finish: ${output}`));
        }, patient(60_000));
        child.once("exit", (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      return { code, output, summary: readFileSync(summaryPath, "utf8") };
    },
    async stop() {
      await gh.stop();
      await rm(temp, { recursive: true, force: true });
    },
  };
}

/**
 * One emulator per test file, started before the tests (then `setup`), stopped after them; after
 * each test every response the action got must match GitHub's OpenAPI description.
 */
export function useActionRunner(setup: (runner: ActionRunner) => Promise<void>): () => ActionRunner {
  let runner: (ActionRunner & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    runner = await startActionRunner();
    await setup(runner);
  }, patient(60_000));
  afterAll(async () => {
    await runner?.stop();
  });
  afterEach(() => {
    expect(runner!.gh.validateLog()).toEqual([]);
    runner!.gh.clearLog();
  });
  return () => runner!;
}

/** The replies of GitHub Actions' bot on a pull request's conversation, as people read them. */
export function actionReplies(gh: GitHubEmulator, repo: string, number: number): string[] {
  return gh
    .comments(repo, number)
    .filter((entry) => entry.user === gh.actionsBotLogin)
    .map((entry) => withoutMarker(entry.body));
}

/**
 * A pull request comment by `user`, and the action's run on it: the run, the reactions on the
 * comment, and the newest reply posted by the run.
 */
export async function commentAndRun(
  runner: ActionRunner,
  repo: string,
  number: number,
  user: string,
  body: string,
  options: ActionRunOptions = {},
): Promise<ActionRun & { event: WebhookEvent & { commentId: number }; reactions: string[]; reply: string }> {
  const event = runner.gh.webhooks.issueComment({ repo, number, body, user });
  const before = actionReplies(runner.gh, repo, number).length;
  const run = await runner.run(event, options);
  const reactions = runner.gh.reactions(event.commentId).map((reaction) => reaction.content);
  return { ...run, event, reactions, reply: actionReplies(runner.gh, repo, number).slice(before).at(-1) ?? "" };
}

export { waitFor };
