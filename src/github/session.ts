/**
 * Everything the runtime needs for one pull request on GitHub: its config, head, check-run stack,
 * tarball workspace and commit writer, as a CommandContext.
 */
import { commitMessage } from "../core/commit-message.js";
import { normaliseCommandName } from "../core/commands.js";
import { once, type CommandContext } from "../core/context.js";
import type { ToolRegistry } from "../core/registry.js";
import { CheckRunStore } from "./check-runs.js";
import { commitChangeSet } from "./commit-writer.js";
import { repreviewerFor } from "./lifecycle.js";
import { checkNames, parseRepoConfig, type RepoConfig } from "./repo-config.js";
import { TarballWorkspace } from "./tarball-workspace.js";
import type { GitHubClient, PullRequestInfo, RepoRef } from "./types.js";
import type { Workspace } from "../workspace/workspace.js";

export const CONFIG_FILE = "resolve-bot.yml";

export interface Actor {
  login: string;
  id: number;
}

export interface SessionDeps {
  registry: ToolRegistry;
  appId?: number;
  /** e.g. https://github.com, for commit links and noreply addresses. */
  webUrl: string;
  canWriteWorkflows(): Promise<boolean>;
}

export interface PullRequestSession {
  pr: PullRequestInfo;
  config: RepoConfig;
  store: CheckRunStore;
  context: CommandContext;
  commitUrl(sha: string): string;
}

/** Reads `.github/resolve-bot.yml` from the default branch; errors name each bad key. */
export async function loadRepoConfig(
  readConfig: () => Promise<unknown>,
  registry: ToolRegistry,
): Promise<{ ok: true; config: RepoConfig } | { ok: false; errors: string[] }> {
  let raw: unknown;
  try {
    raw = await readConfig();
  } catch (error) {
    return { ok: false, errors: [`.github/${CONFIG_FILE} cannot be read: ${(error as Error).message}`] };
  }
  const parsed = parseRepoConfig(raw);
  if (!parsed.ok) return parsed;
  const commands = [...registry.list().map((tool) => tool.name), "resolve", "help", "pending"];
  const errors = checkNames(parsed.config, commands);
  return errors.length > 0 ? { ok: false, errors } : parsed;
}

export async function readPullRequest(octokit: GitHubClient, repo: RepoRef, number: number): Promise<PullRequestInfo> {
  const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: number });
  const baseRepo = data.base.repo.full_name;
  const headRepo = data.head.repo?.full_name ?? "(deleted fork)";
  return {
    ...repo,
    number,
    headSha: data.head.sha,
    headRef: data.head.ref,
    headRepo,
    isFork: headRepo !== baseRepo,
    maintainerCanModify: data.maintainer_can_modify === true,
    state: data.state,
    merged: data.merged === true,
    ...(data.base.repo.default_branch ? { defaultBranch: data.base.repo.default_branch } : {}),
  };
}

export function openSession(
  octokit: GitHubClient,
  pr: PullRequestInfo,
  config: RepoConfig,
  actor: Actor,
  deps: SessionDeps,
): PullRequestSession {
  const commitUrl = (sha: string) => `${deps.webUrl}/${pr.owner}/${pr.repo}/commit/${sha}`;
  const store = new CheckRunStore(octokit, pr, {
    appId: deps.appId,
    gateCheck: config.gateCheck,
    commitUrl,
    repreview: repreviewerFor(octokit, pr, deps.registry, config.limits),
  });
  const enabled = config.tools ? new Set(config.tools) : undefined;
  // The workspace follows the head: after an apply, the next command reads the new commit.
  let workspace: { sha: string; files: Promise<Workspace> } | undefined;
  // GitHub Enterprise Server's noreply addresses are users.noreply.<hostname>.
  const noreplyHost = `users.noreply.${new URL(deps.webUrl).hostname}`;
  const context: CommandContext = {
    store,
    actor: actor.login,
    steering: config.steering,
    limits: config.commandLimits,
    isToolEnabled: (name) => !enabled || enabled.has(normaliseCommandName(name)),
    workspace() {
      if (workspace?.sha !== pr.headSha) {
        const defaultBranch = pr.defaultBranch;
        const files = TarballWorkspace.download(octokit, pr, pr.headSha, config.limits);
        workspace = {
          sha: pr.headSha,
          // The default branch's files are fetched only when a tool asks for them (/ast-fix's rules).
          files:
            defaultBranch === undefined
              ? files
              : files.then((head) =>
                  Object.assign(head, { defaultBranch: once(() => TarballWorkspace.download(octokit, pr, defaultBranch, config.limits)) }),
                ),
        };
      }
      return workspace.files;
    },
    async commit(changes, request) {
      const message = commitMessage({
        record: request.record,
        reason: request.reason,
        template: config.commitMessage,
        trailers: [`Co-authored-by: ${actor.login} <${actor.id}+${actor.login}@${noreplyHost}>`],
      });
      return commitChangeSet(octokit, pr, changes, { message, canWriteWorkflows: () => deps.canWriteWorkflows() });
    },
  };
  return { pr, config, store, context, commitUrl };
}
