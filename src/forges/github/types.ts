/** Shapes shared by the GitHub adapter. */
import type { Context } from "probot";

export type GitHubClient = Context["octokit"];

export interface RepoRef {
  owner: string;
  repo: string;
}

/** What the adapter knows of a pull request once it has read it. */
export interface PullRequestInfo extends RepoRef {
  number: number;
  headSha: string;
  headRef: string;
  /** `owner/name` of the repository holding the head branch. */
  headRepo: string;
  isFork: boolean;
  /** The author of a fork pull request allowed edits by maintainers. */
  maintainerCanModify?: boolean;
  state: string;
  /** Set for a closed pull request that was merged. */
  merged?: boolean;
  /** The base repository's default branch, whose files hold trusted configuration (/ast-fix's rules). */
  defaultBranch?: string;
}
