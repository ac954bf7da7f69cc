/**
 * Writes that must happen once although GitHub's answer can be lost: a 5xx or a dropped
 * connection may come AFTER GitHub carried the write out. Octokit's retry plugin would send such a
 * POST again and create a second check run (a duplicated pending action) or a second reply (in
 * the conversation or in a review thread). For
 * these writes this plugin retries itself, on the retry plugin's schedule: after a failed try it
 * looks on GitHub for what the try would have created and answers with it when it is there; only
 * otherwise does it try again.
 *
 * Every other write is safe to repeat as it is: updates by id (PATCH check runs) set the same
 * values, blobs/trees/commits are content-addressed, a reaction that exists is answered 200, and
 * edits/commit-writer.ts checks a failed ref update against the branch.
 */
import type { ProbotOctokit } from "probot";
import { httpFailure } from "./http-errors.js";
import { retrySaid } from "./retries.js";

type OctokitPlugin = Parameters<typeof ProbotOctokit.plugin>[0];
type Octokit = Parameters<OctokitPlugin>[0];
type RequestOptions = Parameters<Parameters<Octokit["hook"]["wrap"]>[1]>[1];
type Response = Awaited<ReturnType<Octokit["request"]>>;

/** Finds what one try of a write created, if GitHub has it. */
type FindWritten = (octokit: Octokit, options: RequestOptions, since: Date) => Promise<Response | undefined>;

/**
 * How far GitHub's clock may be behind this machine's: a reply created by a lost try is looked for
 * among comments updated since the write began, less this.
 */
const CLOCK_SKEW_MS = 5_000;

/** The retry plugin's defaults (@octokit/plugin-retry), unless the Octokit's `retry` options say otherwise. */
const DEFAULT_RETRIES = 3;
const DEFAULT_RETRY_BASE_MS = 1_000;

const GUARDED: Record<string, FindWritten> = {
  "POST /repos/{owner}/{repo}/check-runs": findCheckRun,
  "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": findComment,
  "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies": findThreadReply,
};

interface Written {
  id: number;
}

/** The newest of what matches. */
function newest<T extends Written>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((best, item) => (best === undefined || item.id > best.id ? item : best), undefined);
}

/** A check run of this name and external id on this commit (the newest, when several are). */
async function findCheckRun(octokit: Octokit, options: RequestOptions): Promise<Response | undefined> {
  const { owner, repo, head_sha, name, external_id } = options as {
    owner: string;
    repo: string;
    head_sha: string;
    name: string;
    external_id?: string;
  };
  const listed = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", {
    owner,
    repo,
    ref: head_sha,
    check_name: name,
    filter: "all",
    per_page: 100,
  });
  const runs = listed.data.check_runs as Array<Written & { name: string; external_id: string | null; head_sha: string }>;
  const found = newest(runs.filter((run) => run.name === name && run.external_id === (external_id ?? null) && run.head_sha === head_sha));
  return found && { ...listed, status: 201, data: found };
}

/** A comment by an app with exactly this body, updated since the write began. */
async function findComment(octokit: Octokit, options: RequestOptions, since: Date): Promise<Response | undefined> {
  const { owner, repo, issue_number, body } = options as { owner: string; repo: string; issue_number: number; body: string };
  const listed = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    owner,
    repo,
    issue_number,
    since: since.toISOString(),
    per_page: 100,
  });
  const comments = listed.data as Array<Written & { body?: string; user: { type: string } | null }>;
  const found = newest(comments.filter((comment) => comment.body === body && comment.user?.type === "Bot"));
  return found && { ...listed, status: 201, data: found };
}

/** A reply by an app in this review thread with exactly this body, updated since the write began. */
async function findThreadReply(octokit: Octokit, options: RequestOptions, since: Date): Promise<Response | undefined> {
  const { owner, repo, pull_number, comment_id, body } = options as {
    owner: string;
    repo: string;
    pull_number: number;
    comment_id: number;
    body: string;
  };
  const listed = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
    owner,
    repo,
    pull_number,
    since: since.toISOString(),
    per_page: 100,
  });
  const comments = listed.data as Array<Written & { body?: string; in_reply_to_id?: number; user: { type: string } | null }>;
  const found = newest(
    comments.filter((comment) => comment.body === body && comment.in_reply_to_id === comment_id && comment.user?.type === "Bot"),
  );
  return found && { ...listed, status: 201, data: found };
}

/** A 5xx, or a connection that failed (Octokit reports it as a 500 without a response): the write may have happened. */
function mayHaveWritten(error: unknown): boolean {
  return httpFailure(error)?.mayHaveWritten === true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const idempotentWrites: OctokitPlugin = (octokit, octokitOptions) => {
  const retry = (octokitOptions as { retry?: { enabled?: boolean; retries?: number; retryAfterBaseValue?: number } }).retry;
  const retries = retry?.enabled === false ? 0 : (retry?.retries ?? DEFAULT_RETRIES);
  const baseMs = retry?.retryAfterBaseValue ?? DEFAULT_RETRY_BASE_MS;
  octokit.hook.wrap("request", async (request, options) => {
    const find = GUARDED[`${options.method} ${options.url}`];
    if (!find) return request(options);
    const since = new Date(Date.now() - CLOCK_SKEW_MS);
    // Each try without the retry plugin's own retries: this loop looks before it tries again. The
    // inner hooks are bound to this same options object, so the setting is made on it.
    options.request = { ...options.request, retries: 0 };
    for (let retried = 0; ; retried++) {
      try {
        return await request(options);
      } catch (error) {
        if (!mayHaveWritten(error) || retried >= retries) throw error;
        const written = await find(octokit, options, since).catch(() => {
          throw error;
        });
        if (written) return written;
        // The retry plugin's schedule: 1, 4, 9 … times the base; said as the plugin's retries are.
        const waitMs = (retried + 1) ** 2 * baseMs;
        octokit.log.warn(retrySaid(error, retried + 1, retries, waitMs));
        await sleep(waitMs);
      }
    }
  });
};
