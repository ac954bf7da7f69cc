/**
 * The one reader of a commit's check runs, shared by the stack (and the gate it reads with it) and
 * the journal: every run of the owner on the commit, in one call per 100 runs.
 *
 * Whose runs: an app knows its id (GitHub filters the list by `app_id`). A workflow's GITHUB_TOKEN
 * acts as the GitHub Actions app, whose id is not the same on every GitHub instance and which also
 * owns every workflow job's run — one of them may well be named `resolve-bot`, like the gate: so
 * runs are told apart by the app's slug (`github-actions`) and by the external id our runs carry
 * (`pr:N…`, run-ids.ts), which a job's run never has.
 */
import type { GitHubClient, RepoRef } from "../types.js";
import { externalIdPullRequest } from "./run-ids.js";

export interface RunOwner {
  appId?: number;
  appSlug?: string;
}

/** What the stack and the journal read of a listed run. */
export interface ListedRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  html_url?: string | null;
  output: { title: string | null; summary: string | null; text?: string | null };
  app?: { slug?: string } | null;
}

/** The list call's filter (GitHub's, when the id is known). */
function ownerQuery(owner: RunOwner): { app_id?: number } {
  return owner.appId ? { app_id: owner.appId } : {};
}

/** Whether a listed run belongs to the owner (known by slug: checked here, with our external id). */
function ownedBy(owner: RunOwner, run: { app?: { slug?: string } | null; external_id?: string | null }): boolean {
  if (owner.appSlug === undefined) return true;
  return run.app?.slug === owner.appSlug && externalIdPullRequest(run.external_id) !== undefined;
}

/** The owner's runs on commit `sha`, newest first (as GitHub lists them). */
export async function readRuns(octokit: GitHubClient, repo: RepoRef, sha: string, owner: RunOwner): Promise<ListedRun[]> {
  const runs = (await octokit.paginate(octokit.rest.checks.listForRef, {
    owner: repo.owner,
    repo: repo.repo,
    ref: sha,
    filter: "all",
    per_page: 100,
    ...ownerQuery(owner),
  })) as ListedRun[];
  return runs.filter((run) => ownedBy(owner, run));
}
