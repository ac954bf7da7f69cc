/**
 * The `resolve-bot` gate check on the head commit, which branch protection can require: success
 * when nothing is pending, action_required with Apply/Discard buttons while something is, neutral
 * on a closed pull request, failure while the configuration cannot be read. It shows the stack
 * that stack.ts keeps (one list call reads both); output.ts words it.
 */
import type { CheckRunStack, HeadState } from "./stack.js";
import { brokenConfigGateOutput, closedGateOutput, gateOutput, prClosedSummary } from "./output.js";
import { checkRunExternalId, GATE_CHECK_NAME } from "./run-ids.js";
import type { GitHubClient, PullRequestInfo } from "../types.js";

export interface GateCheckOptions {
  /** `gate_check` in the repository's configuration: false never writes a gate. */
  gateCheck: boolean;
  /**
   * Whether the gate offers Apply/Discard buttons (default yes). A click is delivered only to the
   * app that owns the run: a GitHub Action's runs belong to GitHub Actions, so it shows none.
   */
  buttons?: boolean;
}

export class GateCheck {
  constructor(
    private readonly octokit: GitHubClient,
    private readonly pr: PullRequestInfo,
    private readonly stack: CheckRunStack,
    private readonly options: GateCheckOptions,
  ) {}

  /**
   * The pull request was closed or merged with `pending` actions (completed by the stack): the
   * gate goes neutral with the same summary.
   */
  async close(merged: boolean, pending: number): Promise<void> {
    const state = await this.stack.load();
    const summary = prClosedSummary(merged, pending);
    // A pull request that never had a gate or an edit needs none now.
    if (this.options.gateCheck && (state.gate || pending > 0)) await this.write(state, closedGateOutput(summary), false);
  }

  /** The configuration cannot be read: the gate fails and names the problems (it never waits forever). */
  async reportBrokenConfig(configFile: string, errors: string[]): Promise<void> {
    await this.write(await this.stack.load(), brokenConfigGateOutput(configFile, errors), false);
  }

  /**
   * Brings the gate check of the current head in line with the stack: success when empty,
   * action_required with Apply/Discard buttons (which GitHub shows on completed runs only).
   */
  async update(): Promise<void> {
    if (!this.options.gateCheck) return;
    const state = await this.stack.load();
    const stack = state.pending.map((entry) => entry.record).reverse();
    await this.write(state, gateOutput(stack), stack.length > 0);
  }

  private async write(
    state: HeadState,
    desired: { conclusion: "action_required" | "success" | "neutral" | "failure"; title: string; summary: string },
    buttons: boolean,
  ): Promise<void> {
    const gate = state.gate;
    if (gate && gate.conclusion === desired.conclusion && gate.title === desired.title && gate.summary === desired.summary) return;
    const body = {
      owner: this.pr.owner,
      repo: this.pr.repo,
      status: "completed" as const,
      conclusion: desired.conclusion,
      completed_at: new Date().toISOString(),
      external_id: checkRunExternalId(this.pr.number),
      output: { title: desired.title, summary: desired.summary },
      actions:
        buttons && this.options.buttons !== false
          ? [
              { label: "Apply newest", description: "Commit the newest pending edit", identifier: "apply" },
              { label: "Discard newest", description: "Drop the newest pending edit", identifier: "discard" },
            ]
          : [],
    };
    if (gate) {
      await this.octokit.rest.checks.update({ ...body, check_run_id: gate.id });
      state.gate = { id: gate.id, conclusion: desired.conclusion, title: desired.title, summary: desired.summary };
    } else {
      const { data } = await this.octokit.rest.checks.create({ ...body, name: GATE_CHECK_NAME, head_sha: state.sha });
      state.gate = { id: data.id, conclusion: desired.conclusion, title: desired.title, summary: desired.summary };
      state.ours = true;
    }
  }
}
