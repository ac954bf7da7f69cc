/**
 * What an agent's person may do on a repository, decided before anything is queued, with the rules
 * a comment is held to: the repository's `.github/resolve-bot.yml` (default branch) and the
 * person's collaborator permission against the command's required level (`permissions`). A refusal
 * is a tool error in the sentence a comment would get, and nothing is posted on the pull request.
 * The worker checks the same again when it runs the request (pipeline/run-request.ts).
 *
 * Why a tool error and not 403: the token is valid (401 is for that); the repository is a tool
 * argument, so the refusal belongs to that call, and the agent can tell its person why.
 */
import type { Probot } from "probot";
import { loadRepoConfig, type LoadedRepoConfig } from "../../../config/load.js";
import { requiredPermission, type PermissionLevel, type RepoConfig } from "../../../config/repo-config.js";
import type { ToolRegistry } from "../../../core/registry.js";
import { refusedWith } from "../../../forges/github/api/http-errors.js";
import { allows, permissionOf } from "../../../forges/github/api/permissions.js";
import { readRepoConfigFile } from "../../../forges/github/ports.js";
import type { GitHubClient, RepoRef } from "../../../forges/github/types.js";
import { configProblems, permissionRefusal } from "../../../pipeline/requirements.js";

export interface Repository {
  installationId: number;
  octokit: GitHubClient;
  config: LoadedRepoConfig;
}

/** A repository's installation and settings are read again after this long (a changed config counts soon). */
const REPOSITORY_FOR_MS = 30_000;

export class Access {
  private readonly repositories = new Map<string, { until: number; repository: Promise<Repository | undefined> }>();

  constructor(
    private readonly app: Probot,
    private readonly registry: ToolRegistry,
  ) {}

  /** The app's installation on the repository and its settings; undefined when the app is not installed there. */
  repository(repo: RepoRef): Promise<Repository | undefined> {
    const key = `${repo.owner}/${repo.repo}`.toLowerCase();
    const cached = this.repositories.get(key);
    if (cached && cached.until > Date.now()) return cached.repository;
    const repository = this.read(repo);
    this.repositories.set(key, { until: Date.now() + REPOSITORY_FOR_MS, repository });
    // A failure is not remembered: the next call asks again.
    repository.catch(() => this.repositories.delete(key));
    return repository;
  }

  private async read(repo: RepoRef): Promise<Repository | undefined> {
    const appClient = await this.app.auth();
    let installationId: number;
    try {
      installationId = (await appClient.rest.apps.getRepoInstallation({ ...repo })).data.id;
    } catch (error) {
      if (refusedWith(error, 404)) return undefined;
      throw error;
    }
    const octokit = await this.app.auth(installationId);
    const config = await loadRepoConfig(() => readRepoConfigFile(octokit, repo), this.registry);
    return { installationId, octokit, config };
  }

  /**
   * Why `login` may not run `command` (a registry or reserved command name) on the repository, as a
   * comment would be told; undefined when it may. `config` is the repository's, already read.
   */
  async refusal(repository: Repository, repo: RepoRef, login: string, command: string): Promise<string | undefined> {
    const config = repository.config;
    if (!config.ok) return configProblems(config.file, config.errors);
    const needed = requiredPermission(config.config, command);
    const actual: PermissionLevel | "none" = await permissionOf(repository.octokit, repo, login);
    return allows(actual, needed) ? undefined : permissionRefusal({ command, needed, actual }, login);
  }
}

/** What `agents.may_resolve` lets an agent do on the repository (nothing when its settings are unreadable). */
export function agentResolutions(config: LoadedRepoConfig): RepoConfig["agentsMayResolve"] {
  return config.ok ? config.config.agentsMayResolve : [];
}
