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
