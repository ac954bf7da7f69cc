/** What the adapter reads of a pull request: `pulls.get`, and its commits (one lister for every reader). */
import type { GitHubClient, PullRequestInfo, RepoRef } from "../types.js";

export async function readPullRequest(octokit: GitHubClient, repo: RepoRef, number: number): Promise<PullRequestInfo> {
  const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
  const baseRepo = data.base.repo.full_name;
  const headRepo = data.head.repo?.full_name ?? "(deleted fork)";
  return {
    ...repo,
    number,
    headSha: data.head.sha,
    headRef: data.head.ref,
    headRepo,
    isFork: headRepo !== baseRepo,
    maintainerCanModify: data.maintainer_can_modify === true,
    state: data.state,
    merged: data.merged === true,
    ...(data.base.repo.default_branch ? { defaultBranch: data.base.repo.default_branch } : {}),
  };
}

/** What the readers of a pull request's commits look at. */
export interface PullRequestCommit {
  sha: string;
  commit: { message: string };
  parents: Array<{ sha: string }>;
}

/** The pull request's commits, oldest first (GitHub lists up to 250). */
export async function pullRequestCommits(octokit: GitHubClient, pr: RepoRef & { number: number }): Promise<PullRequestCommit[]> {
  return octokit.paginate(octokit.rest.pulls.listCommits, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
}
