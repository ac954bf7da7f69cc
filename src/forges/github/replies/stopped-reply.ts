/**
 * What is said on the pull request when the run that would have replied cannot: the server's
 * answer for a request the worker pool stopped or the queue gave up on, the Action's for a request
 * it gave up on. A working status that run said is settled (looked for by its marker: that run's
 * memory is gone), and the comment that asked is marked failed.
 */
import type { Request } from "../../../pipeline/request.js";
import { replyChannel } from "./reply-channel.js";
import type { GitHubClient } from "../types.js";
import { workingStatus } from "./working-status.js";

export async function replyStopped(
  octokit: GitHubClient,
  request: Request,
  message: string,
  statusAfterMs: number | undefined,
): Promise<void> {
  const channel = replyChannel(octokit, request);
  await channel.post(message);
  if (statusAfterMs !== undefined) await workingStatus(channel, request.id, statusAfterMs, true).settle();
  await channel.finish(false);
}
