/**
 * Who the Action is on GitHub, two ways:
 * - the workflow's GITHUB_TOKEN (the `token` input, which defaults to it): it acts as the GitHub
 *   Actions app — check runs are that app's (told apart by its slug, `github-actions`), its pushes
 *   start no workflows, it never has the `workflows` permission;
 * - a GitHub App's id and private key (`app-id`, `private-key`): a token minted for the
 *   repository's installation as actions/create-github-app-token does (the app's JWT asks
 *   `GET /repos/{owner}/{repo}/installation`, then `POST /app/installations/{id}/access_tokens`
 *   for this repository only); the app's pushes start workflows (CI runs on applied commits).
 * The gate's Apply/Discard buttons are left out either way: a click is delivered to the app that
 * owns the run, not to a workflow (see README).
 */
import type { Runtime } from "../../core/runtime.js";
import type { GitHubConnection } from "../../forges/github/execute.js";
import { resolveBotOctokit } from "../../forges/github/api/octokit.js";
import type { GitHubClient, RepoRef } from "../../forges/github/types.js";
import type { ActionLog } from "./log.js";
import { apiUrlOf, input, runLogOf, serverUrlOf } from "./inputs.js";

/** The slug of the app a GITHUB_TOKEN acts as. */
export const ACTIONS_APP_SLUG = "github-actions";

export type Credentials = { kind: "token"; token: string } | { kind: "app"; appId: number; privateKey: string };

/** The credentials the inputs name, or why they cannot be used. */
export function credentialsOf(env: NodeJS.ProcessEnv): { ok: true; credentials: Credentials } | { ok: false; problem: string } {
  const appId = input(env, "app-id");
  // A key pasted into a secret may carry literal "\n"s.
  const privateKey = input(env, "private-key")?.replace(/\\n/g, "\n");
  if (appId !== undefined || privateKey !== undefined) {
    if (appId === undefined || privateKey === undefined)
      return { ok: false, problem: "the `app-id` and `private-key` inputs go together: set both, or neither to use the token" };
    const id = Number(appId);
    if (!Number.isSafeInteger(id) || id <= 0)
      return { ok: false, problem: `the \`app-id\` input must be the App's numeric id (got "${appId}")` };
    return { ok: true, credentials: { kind: "app", appId: id, privateKey } };
  }
  const token = input(env, "token") ?? env.GITHUB_TOKEN?.trim();
  if (!token)
    return {
      ok: false,
      problem: "no token: set the `token` input (it defaults to the workflow's GITHUB_TOKEN), or `app-id` and `private-key`",
    };
  return { ok: true, credentials: { kind: "token", token } };
}

function octokitWith(env: NodeJS.ProcessEnv, log: ActionLog, auth: Record<string, unknown>): GitHubClient {
  const Octokit = resolveBotOctokit(env);
  return new Octokit({ auth, baseUrl: apiUrlOf(env), log });
}

/** A token for the App's installation on `repo`, limited to that repository, and whether it may change workflows. */
async function installationToken(env: NodeJS.ProcessEnv, log: ActionLog, repo: RepoRef, appId: number, privateKey: string) {
  const app = octokitWith(env, log, { appId, privateKey });
  const { data: installation } = await app.rest.apps.getRepoInstallation({ owner: repo.owner, repo: repo.repo });
  const { data } = await app.rest.apps.createInstallationAccessToken({ installation_id: installation.id, repositories: [repo.repo] });
  return { token: data.token, workflows: data.permissions?.workflows === "write" };
}

export async function connect(
  env: NodeJS.ProcessEnv,
  credentials: Credentials,
  repo: RepoRef,
  runtime: Runtime,
  log: ActionLog,
): Promise<GitHubConnection> {
  const common = { runtime, log, webUrl: serverUrlOf(env), gateButtons: false, errorLog: runLogOf(env) };
  if (credentials.kind === "token") {
    return {
      ...common,
      octokit: octokitWith(env, log, { token: credentials.token }),
      appSlug: ACTIONS_APP_SLUG,
      canWriteWorkflows: async () => false,
    };
  }
  const minted = await installationToken(env, log, repo, credentials.appId, credentials.privateKey);
  return {
    ...common,
    octokit: octokitWith(env, log, { token: minted.token }),
    appId: credentials.appId,
    canWriteWorkflows: async () => minted.workflows,
  };
}
