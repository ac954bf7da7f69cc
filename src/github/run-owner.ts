/**
 * Whose check runs make up the stack. An app knows its id (GitHub filters the list by `app_id`).
 * A workflow's GITHUB_TOKEN acts as the GitHub Actions app, whose id is not the same on every
 * GitHub instance and which also owns every other job's runs: those runs are told apart by the
 * app's slug (`github-actions`), then by our names and records, as for any app.
 */
export interface RunOwner {
  appId?: number;
  appSlug?: string;
}

/** The list call's filter (GitHub's, when the id is known). */
export function ownerQuery(owner: RunOwner): { app_id?: number } {
  return owner.appId ? { app_id: owner.appId } : {};
}

/** Whether a listed run belongs to the owner (the slug, when given, is checked here). */
export function ownedBy(owner: RunOwner, run: { app?: { slug?: string } | null }): boolean {
  return owner.appSlug === undefined || run.app?.slug === owner.appSlug;
}
