/**
 * Where the bot's words on GitHub link to: commits on the web, and each pending action's check run
 * at the `html_url` GitHub gave it (known once the run exists: when it is created, or listed).
 */
import type { ReplyLinks } from "./render.js";
import type { RepoRef } from "../types.js";

/**
 * The runs of the actions one request sees, by action id: the stack notes each run it creates or
 * reads pending, a re-run's journal each run its interrupted run pushed. An action carried to a new
 * head gets a new run, and the newest noted wins.
 */
export class RunLinks {
  private readonly urls = new Map<string, string>();

  note(actionId: string, htmlUrl: string | null | undefined): void {
    if (htmlUrl) this.urls.set(actionId, htmlUrl);
  }

  of(actionId: string): string | undefined {
    return this.urls.get(actionId);
  }
}

/** The links of a request's replies: `webUrl` is e.g. https://github.com (GitHub Enterprise: its host). */
export function replyLinks(webUrl: string, repo: RepoRef, runs: RunLinks = new RunLinks()): Required<ReplyLinks> {
  return {
    commitUrl: (sha) => `${webUrl}/${repo.owner}/${repo.repo}/commit/${sha}`,
    checkRunUrl: (record) => runs.of(record.id),
  };
}
