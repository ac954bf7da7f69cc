/**
 * The GitHub adapter's ports for one request: configuration from the default branch, the
 * collaborator permission, `pulls.get`, the stack in check runs (with the gate), the head's files
 * (the repository cache, or a tarball: files/repository-workspace.ts), one commit through the Git Data
 * API, and the reply with its reactions through the reply channel of the request's origin
 * (replies/reply-channel.ts).
 */
import { appliedAction, commitMessage, requestTrailer } from "../../core/commit-message.js";
import { once, type AppliedCommit, type Progress } from "../../core/context.js";
import type { Runtime } from "../../core/runtime.js";
import type { PermissionRefusal, PipelineLog, Ports } from "../../pipeline/ports.js";
import type { Reply } from "../../pipeline/reply.js";
import type { Request, RequestActor } from "../../pipeline/request.js";
import { CheckRunStore } from "./checks/store.js";
import { commitChangeSet } from "./edits/commit-writer.js";
import { refreshStack, repreviewerFor, rerunCheck } from "./checks/lifecycle.js";
import { transientFailure } from "./api/http-errors.js";
import { allows, permissionOf } from "./api/permissions.js";
import { pullRequestCommits, readPullRequest } from "./api/pull-request.js";
import { readJournal } from "./journal.js";
import { replyLinks, RunLinks } from "./replies/links.js";
import { ranKeys, ranMarker, renderGitHubReply, requestMarker } from "./replies/render.js";
import { replyChannel } from "./replies/reply-channel.js";
import {
  checkNames,
  DEFAULT_REPO_CONFIG,
  parseRepoConfig,
  requiredPermission,
  type PermissionLevel,
  type RepoConfig,
} from "../../config/repo-config.js";
import { text } from "./replies/markdown.js";
import { repositoryFiles } from "./files/repository-workspace.js";
import { offerSuggestions } from "./edits/suggestions.js";
import { tookLine, workingStatus } from "./replies/working-status.js";
import type { GitHubClient, PullRequestInfo, RepoRef } from "./types.js";
import type { ToolRegistry } from "../../core/registry.js";

export const CONFIG_FILE = "resolve-bot.yml";
const CONFIG_PATH = `.github/${CONFIG_FILE}`;

export interface GitHubPortsOptions {
  runtime: Runtime;
  log: PipelineLog;
  /** Whose check runs are the stack (checks/read-runs.ts): the app's id, or the slug of GitHub Actions for a GITHUB_TOKEN. */
  appId?: number;
  appSlug?: string;
  /** The gate's Apply/Discard buttons (default yes: only the app that owns the run receives a click). */
  gateButtons?: boolean;
  /** e.g. https://github.com, for commit links and noreply addresses. */
  webUrl: string;
  /** Whether this installation has the `workflows` permission. */
  canWriteWorkflows(): Promise<boolean>;
  /** Called with each comment body posted (the execution summary). */
  onReply?(body: string): void;
  /** The request runs again (an earlier run was cut short): what that run did is looked up first. */
  rerun?: boolean;
  progress?: Progress;
  /** After how long a request says early that it is working (pipeline/cost.ts); never when absent. */
  statusAfterMs?: number;
  /** Where the apology for a failure says its error is (replies/render.ts `internalError`): the app's log by default. */
  errorLog?: string;
}

/**
 * `.github/resolve-bot.yml` as Probot's context.config reads it: from the default branch (never the
 * pull request's), with `_extends` and the organisation's `.github` repository.
 */
export async function readRepoConfigFile(octokit: GitHubClient, repo: RepoRef): Promise<unknown> {
  const { config, files } = await octokit.config.get({ ...repo, path: CONFIG_PATH });
  return files.some((file) => file.config !== null) ? config : null;
}

/** Reads and checks the configuration; errors name each bad key. */
export async function loadRepoConfig(
  readConfig: () => Promise<unknown>,
  registry: ToolRegistry,
): Promise<{ ok: true; config: RepoConfig } | { ok: false; file: string; errors: string[] }> {
  let raw: unknown;
  try {
    raw = await readConfig();
  } catch (error) {
    return { ok: false, file: CONFIG_PATH, errors: [`${CONFIG_PATH} cannot be read: ${(error as Error).message}`] };
  }
  const parsed = parseRepoConfig(raw);
  if (!parsed.ok) return { ...parsed, file: CONFIG_PATH };
  const commands = [...registry.list().map((tool) => tool.name), "resolve", "help", "pending"];
  const errors = checkNames(parsed.config, commands);
  return errors.length > 0 ? { ok: false, file: CONFIG_PATH, errors } : parsed;
}

/**
 * The pull request's commits whose message carries resolve-bot's `Resolve-Action:` trailer, newest
 * first (GitHub lists a pull request's first 250 commits).
 */
async function appliedCommits(octokit: GitHubClient, pr: PullRequestInfo): Promise<AppliedCommit[]> {
  const commits = await pullRequestCommits(octokit, pr);
  return commits
    .filter((commit) => appliedAction(commit.commit.message) !== undefined)
    .map((commit) => ({ sha: commit.sha, subject: commit.commit.message.split("\n")[0]!.trim() }))
    .reverse();
}

/** Marks which commands of a comment this reply ran (the pipeline's `reply.ran`), for its later edits. */
function ranOfEdit(request: Request, reply: Reply): string {
  const origin = request.origin;
  if (origin.kind !== "comment" || reply.ran === undefined || reply.ran.length === 0) return "";
  return `\n${ranMarker(origin.commentId, reply.ran)}`;
}

/** What earlier edits of the comment ran, from the app's replies in the conversation. */
async function ranBefore(octokit: GitHubClient, request: Request, commentId: number): Promise<Set<string>> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    ...request.repository,
    issue_number: request.pullRequest,
    per_page: 100,
  });
  return new Set(comments.flatMap((comment) => (comment.user?.type === "Bot" ? ranKeys(comment.body ?? "", commentId) : [])));
}

/** Whoever can comment can read: read-only commands (/help, /pending) need no lookup. */
function needsLookup(config: RepoConfig, commands: string[]): boolean {
  return commands.some((command) => requiredPermission(config, command) !== "read");
}

/**
 * The collaborator permission of each actor, looked up once per request: the lookup may start
 * while the configuration is read (prefetch), and the refusal takes its answer from there.
 */
function permissionLevels(octokit: GitHubClient, repo: RepoRef): (login: string) => Promise<PermissionLevel | "none"> {
  const levels = new Map<string, Promise<PermissionLevel | "none">>();
  return (login) => {
    let level = levels.get(login);
    if (level === undefined) {
      level = permissionOf(octokit, repo, login);
      level.catch(() => undefined); // a prefetch nobody needs in the end must not fail the request
      levels.set(login, level);
    }
    return level;
  };
}

/** Commands (names as parsed) that read no files of the pull request. */
const FILELESS = new Set(["help", "pending"]);

function readsFiles(command: string): boolean {
  return !FILELESS.has(command);
}

/** The first command the actor may not run, with the permission it needs. */
async function permissionRefusal(
  levelOf: (login: string) => Promise<PermissionLevel | "none">,
  actor: RequestActor,
  commands: string[],
  config: RepoConfig,
): Promise<PermissionRefusal | undefined> {
  if (!needsLookup(config, commands)) return undefined;
  const level = await levelOf(actor.login);
  for (const command of commands) {
    const needed = requiredPermission(config, command);
    if (!allows(level, needed)) return { command, needed, actual: level };
  }
  return undefined;
}

export function githubPorts(octokit: GitHubClient, request: Request, options: GitHubPortsOptions): Ports<RepoConfig, PullRequestInfo> {
  const repo = request.repository;
  // Each preview's reply links its action's run, wherever this request created or found it.
  const runLinks = new RunLinks();
  const links = replyLinks(options.webUrl, repo, runLinks);
  const commitUrl = links.commitUrl;
  // GitHub Enterprise Server's noreply addresses are users.noreply.<hostname>.
  const noreplyHost = `users.noreply.${new URL(options.webUrl).hostname}`;
  const channel = replyChannel(octokit, request);
  const edited = request.origin.kind === "comment" && request.origin.edit ? request.origin : undefined;
  const files = repositoryFiles(octokit, options.webUrl, options.log);
  const levelOf = permissionLevels(octokit, repo);
  const owner = {
    ...(options.appId === undefined ? {} : { appId: options.appId }),
    ...(options.appSlug === undefined ? {} : { appSlug: options.appSlug }),
  };
  const buttons = options.gateButtons === false ? { buttons: false } : {};
  // The head's files as every tool run sees them (a command, an apply's replay, a re-preview after
  // a push or on recovery): the default branch's fetched only when a tool asks (/ast-fix's rules),
  // and git's revert onto them for undo.
  const workspaceAt = async (pr: PullRequestInfo, sha: string, config: RepoConfig) => {
    const limits = files.limits(config.limits);
    const head = await files.at(pr, sha, limits);
    const defaultBranch = pr.defaultBranch;
    if (defaultBranch !== undefined) head.defaultBranch = once(() => files.at(pr, defaultBranch, limits));
    head.revert = (commit) => files.revert(pr, head, commit);
    return head;
  };
  // Each store starts at `headSha` (on a push: the head before it) and keeps its own head from there (checks/stack.ts).
  const openStore = (pr: PullRequestInfo, headSha: string, config: RepoConfig) =>
    new CheckRunStore(
      octokit,
      { ...pr, headSha },
      {
        ...owner,
        ...buttons,
        gateCheck: config.gateCheck,
        commitUrl,
        runLinks,
        repreview: repreviewerFor(options.runtime.registry, (sha) => workspaceAt(pr, sha, config)),
      },
    );
  return {
    runtime: options.runtime,
    log: options.log,
    transient: (error) => transientFailure(error),
    buttonPlace: "the Checks tab",
    ...(options.progress ? { progress: options.progress } : {}),
    config: {
      load: once(() => loadRepoConfig(() => readRepoConfigFile(octokit, repo), options.runtime.registry)),
      fallback: DEFAULT_REPO_CONFIG,
    },
    permission: {
      refusal: (actor, commands, config) => permissionRefusal(levelOf, actor, commands, config),
      // Under the default configuration: a repository that lowers a command to `read` wastes one read.
      prefetch(actor, commands) {
        if (needsLookup(DEFAULT_REPO_CONFIG, commands)) void levelOf(actor.login);
      },
    },
    pullRequest: { read: () => readPullRequest(octokit, repo, request.pullRequest) },
    // Only a re-run looks back at what its interrupted run did (forges/github/journal.ts).
    ...(options.rerun ? { journal: { read: (pr: PullRequestInfo) => readJournal(octokit, pr, request.id, owner, runLinks) } } : {}),
    stack: { open: openStore },
    lifecycle: {
      refresh: (pr, config) => refreshStack(openStore(pr, pr.headSha, config)),
      rerun: (pr, config, actionId) => rerunCheck(openStore(pr, pr.headSha, config), actionId),
      async closed(pr, config, merged) {
        await openStore(pr, pr.headSha, config).closeStack(merged);
        return undefined;
      },
      async brokenConfig(pr, file, errors) {
        // The gate is shown whatever `gate_check` says: the configuration that says it is unreadable.
        await new CheckRunStore(octokit, pr, { ...owner, ...buttons, gateCheck: true, commitUrl }).reportBrokenConfig(file, errors);
      },
    },
    workspace: {
      at: workspaceAt,
      // Once the actor may run the commands (under the default configuration, as the permission
      // prefetch reads it): a stranger's comment fetches nothing.
      prefetch(actor, commands) {
        if (!commands.some(readsFiles)) return;
        void permissionRefusal(levelOf, actor, commands, DEFAULT_REPO_CONFIG)
          .then((refused) => (refused === undefined ? files.warm(repo, request.pullRequest) : undefined))
          .catch(() => undefined);
      },
    },
    history: { applied: (pr) => appliedCommits(octokit, pr) },
    suggest: {
      offer: (pr, label, diff) =>
        offerSuggestions(octokit, pr, diff, `resolve-bot suggests ${text(label)} (\`--as-suggestion\`: nothing is pending).`),
    },
    commit: {
      commit(pr, parent, changes, commit, actor, config) {
        const address = actor.id === undefined ? `${actor.login}@${noreplyHost}` : `${actor.id}+${actor.login}@${noreplyHost}`;
        const message = commitMessage({
          record: commit.record,
          reason: commit.reason,
          template: config.commitMessage,
          // Resolve-Request names the request's step: if it runs again after this commit, it is not applied twice.
          trailers: [requestTrailer(commit.requestStep ?? request.id), `Co-authored-by: ${actor.login} <${address}>`],
        });
        return commitChangeSet(octokit, { ...pr, headSha: parent }, changes, {
          message,
          canWriteWorkflows: () => options.canWriteWorkflows(),
        });
      },
    },
    reply: {
      async send(reply: Reply) {
        const body = renderGitHubReply(reply, links, options.errorLog) + tookLine(reply);
        const marked = `${body}\n\n${requestMarker(request.id, reply.status)}${ranOfEdit(request, reply)}`;
        await channel.post(marked);
        options.onReply?.(marked);
      },
      finish: (ok) => channel.finish(ok),
      acknowledge: () => channel.acknowledge(),
      ...(edited ? { ran: () => ranBefore(octokit, request, edited.commentId) } : {}),
      ...(options.rerun ? { sent: () => channel.sent(request.id) } : {}),
      ...(options.statusAfterMs !== undefined
        ? { working: workingStatus(channel, request.id, options.statusAfterMs, options.rerun === true) }
        : {}),
    },
  };
}
