/**
 * What the runner gives the Action: its inputs (`with:` in the workflow, passed as `INPUT_<NAME>`
 * environment variables, name upper-cased, spaces as underscores, hyphens kept) and GitHub's
 * default variables.
 */
export function input(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`]?.trim();
  return value ? value : undefined;
}

/** GITHUB_API_URL (the tests point it at the emulator); github.com's by default. */
export function apiUrlOf(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL?.trim() || "https://api.github.com").replace(/\/+$/, "");
}

/** GITHUB_SERVER_URL: web links and git's remote (`<server>/<owner>/<repo>.git`). */
export function serverUrlOf(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_SERVER_URL?.trim() || "https://github.com").replace(/\/+$/, "");
}

/**
 * Where the Action's errors are, as an apology names them (markdown): this workflow run's log, linked
 * to the run's attempt (GITHUB_REPOSITORY, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT) when the runner names it.
 * The attempt, because a re-run's page shows its newest attempt, not the one that failed.
 */
export function runLogOf(env: NodeJS.ProcessEnv): string {
  const repository = env.GITHUB_REPOSITORY?.trim() ?? "";
  const runId = env.GITHUB_RUN_ID?.trim() ?? "";
  const attempt = env.GITHUB_RUN_ATTEMPT?.trim() || "1";
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^\d+$/.test(runId) || !/^\d+$/.test(attempt)) return "this workflow run's log";
  return `[this workflow run's log](${serverUrlOf(env)}/${repository}/actions/runs/${runId}/attempts/${attempt})`;
}
