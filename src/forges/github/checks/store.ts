/**
 * The GitHub `StackStore` that the pipeline opens: the pending stack in check runs
 * (stack.ts) with the `resolve-bot` gate beside it (gate.ts). This only wires the
 * two: the gate follows a stack that recovery changed on read, and closes with the stack.
 */
import type { NewPendingRecord, PendingRecord, PreviewPresentation, Resolution } from "../../../core/store.js";
import type { Repreviewed, StackStore } from "../../../pipeline/ports.js";
import { CheckRunStack, type CheckRunStackOptions } from "./stack.js";
import { GateCheck, type GateCheckOptions } from "./gate.js";
import type { GitHubClient, PullRequestInfo } from "../types.js";

export type CheckRunStoreOptions = CheckRunStackOptions & GateCheckOptions;

export class CheckRunStore implements StackStore {
  readonly stack: CheckRunStack;
  readonly gate: GateCheck;

  constructor(octokit: GitHubClient, pr: PullRequestInfo, options: CheckRunStoreOptions) {
    // The stack keeps the head; the gate writes on the commit of the stack it loads.
    this.stack = new CheckRunStack(octokit, pr, { ...options, onRecovered: () => this.gate.update() });
    this.gate = new GateCheck(octokit, pr, this.stack, options);
  }

  push(draft: NewPendingRecord, preview: PreviewPresentation): Promise<PendingRecord> {
    return this.stack.push(draft, preview);
  }

  peek(): Promise<PendingRecord | null> {
    return this.stack.peek();
  }

  pop(resolution: Resolution): Promise<PendingRecord | null> {
    return this.stack.pop(resolution);
  }

  hasPending(): Promise<boolean> {
    return this.stack.hasPending();
  }

  list(): Promise<PendingRecord[]> {
    return this.stack.list();
  }

  resync(sha: string, repreview: (record: PendingRecord) => Promise<Repreviewed>): Promise<void> {
    return this.stack.resync(sha, repreview);
  }

  updateGate(): Promise<void> {
    return this.gate.update();
  }

  /** The pull request was closed or merged: its pending actions, then the gate. Returns how many were pending. */
  async closeStack(merged: boolean): Promise<number> {
    const pending = await this.stack.closeStack(merged);
    await this.gate.close(merged, pending);
    return pending;
  }

  reportBrokenConfig(configFile: string, errors: string[]): Promise<void> {
    return this.gate.reportBrokenConfig(configFile, errors);
  }
}
