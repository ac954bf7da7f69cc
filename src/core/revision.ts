/** How a commit is named to people: its first 7 hex digits, as GitHub shows it. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A full SHA shortened to 7 characters; anything else (a branch name, a tag) stays as it is. */
export function shortSha(revision: string): string {
  return FULL_SHA.test(revision) ? revision.slice(0, 7) : revision;
}
