/**
 * The external id of the app's check runs names their pull request: `pr:N` on the gate,
 * `pr:N:<action id>` on an action's run. GitHub lists no pull requests on runs of fork heads, so
 * a button pressed on one is traced back through it (ingress.ts).
 */
export function checkRunExternalId(pullRequest: number, actionId?: string): string {
  return actionId === undefined ? `pr:${pullRequest}` : `pr:${pullRequest}:${actionId}`;
}

/** The pull request an external id names, if it is one of ours. */
export function externalIdPullRequest(externalId: string | null | undefined): number | undefined {
  const number = /^pr:(\d+)(?::|$)/.exec(externalId ?? "")?.[1];
  return number === undefined ? undefined : Number(number);
}
