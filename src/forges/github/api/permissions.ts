/** Who may run what: the collaborator permission API, ranked (maintain counts as write). */
import { refusedWith } from "./http-errors.js";
import type { PermissionLevel } from "../../../config/repo-config.js";
import type { GitHubClient, RepoRef } from "../types.js";

const RANK: Record<PermissionLevel | "none", number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export async function permissionOf(octokit: GitHubClient, repo: RepoRef, username: string): Promise<PermissionLevel | "none"> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
    // role_name carries maintain/triage; `permission` folds them into write/read.
    const role = (data as { role_name?: string }).role_name;
    const level = role && role in RANK ? role : data.permission;
    return (level in RANK ? level : "none") as PermissionLevel | "none";
  } catch (error) {
    if (refusedWith(error, 404)) return "none";
    throw error;
  }
}

export function allows(actual: PermissionLevel | "none", required: PermissionLevel): boolean {
  return RANK[actual] >= RANK[required];
}
