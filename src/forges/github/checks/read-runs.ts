/**
 * Whose check runs make up the stack. An app knows its id (GitHub filters the list by `app_id`).
 * A workflow's GITHUB_TOKEN acts as the GitHub Actions app, whose id is not the same on every
 * GitHub instance and which also owns every workflow job's run — one of them may well be named
 * `resolve-bot`, like the gate: so runs are told apart by the app's slug (`github-actions`) and by
 * the external id our runs carry (`pr:N…`, external-id.ts), which a job's run never has.
 */
import { externalIdPullRequest } from "./run-ids.js";

export interface RunOwner {
  appId?: number;
  appSlug?: string;
}

/** The list call's filter (GitHub's, when the id is known). */
export function ownerQuery(owner: RunOwner): { app_id?: number } {
  return owner.appId ? { app_id: owner.appId } : {};
}

/** Whether a listed run belongs to the owner (known by slug: checked here, with our external id). */
export function ownedBy(owner: RunOwner, run: { app?: { slug?: string } | null; external_id?: string | null }): boolean {
  if (owner.appSlug === undefined) return true;
  return run.app?.slug === owner.appSlug && externalIdPullRequest(run.external_id) !== undefined;
}
