/**
 * Webhook handlers. Each acknowledges quickly and queues the real work on the pull request's
 * lock, so deliveries answer well inside GitHub's 10 s and one PR's commands never interleave.
 */
import type { Context } from "probot";
import { parseCommands, type SlashCommand } from "../core/commands.js";
import { steeringLine } from "../core/messages.js";
import { repreview } from "../core/replay.js";
import type { Runtime } from "../core/runtime.js";
import { renderOutcome, renderReply, withSteering } from "./replies.js";
import { allows, permissionOf } from "./permissions.js";
import { requiredPermission, type RepoConfig } from "./repo-config.js";
import { CONFIG_FILE, loadRepoConfig, openSession, readPullRequest, type Actor, type SessionDeps } from "./session.js";
import { CheckRunStore, GATE_CHECK_NAME } from "./check-runs.js";
import { text } from "./markdown.js";
import { TarballWorkspace } from "./tarball-workspace.js";
import type { GitHubClient, PullRequestInfo, RepoRef } from "./types.js";
import type { WorkQueue } from "./work-queue.js";

export interface HandlerDeps extends Omit<SessionDeps, "canWriteWorkflows"> {
  runtime: Runtime;
  queue: WorkQueue;
  /** Whether this installation has the `workflows` permission (asked once, then cached). */
  canWriteWorkflows(installationId: number | undefined): Promise<boolean>;
}

type Reaction = "eyes" | "rocket" | "confused";

function prKey(repo: RepoRef, number: number): string {
  return `${repo.owner}/${repo.repo}#${number}`;
}

async function react(octokit: GitHubClient, repo: RepoRef, commentId: number, content: Reaction): Promise<void> {
  await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content });
}

async function reply(octokit: GitHubClient, repo: RepoRef, number: number, body: string): Promise<void> {
  await octokit.rest.issues.createComment({ ...repo, issue_number: number, body });
}

/** Replies that are not a command's result still end with the steering line (spec §7). */
async function replySteered(octokit: GitHubClient, repo: RepoRef, number: number, body: string, appId: number | undefined): Promise<void> {
  const pr = await readPullRequest(octokit, repo, number);
  const stack = await new CheckRunStore(octokit, pr, { appId, gateCheck: false, commitUrl: (sha) => sha }).list();
  await reply(octokit, repo, number, withSteering(body, steeringLine(stack)));
}

function configReader(context: Context) {
  return () => context.config(CONFIG_FILE);
}

function configErrorReply(errors: string[]): string {
  return `\`.github/${CONFIG_FILE}\` has problems, so nothing was run:\n${errors.map((error) => `- ${text(error)}`).join("\n")}`;
}

/** The first command the actor may not run, with the permission it needs. */
async function refusal(
  octokit: GitHubClient,
  repo: RepoRef,
  actor: string,
  config: RepoConfig,
  commands: string[],
): Promise<string | undefined> {
  // Whoever can comment can read: read-only commands (/help, /pending) need no lookup.
  if (commands.every((command) => requiredPermission(config, command) === "read")) return undefined;
  const level = await permissionOf(octokit, repo, actor);
  for (const command of commands) {
    const needed = requiredPermission(config, command);
    if (!allows(level, needed)) {
      return `Sorry, \`/${command.replace(/_/g, "-")}\` needs ${needed} permission on this repository, and ${text(actor)} has ${level}. Nothing was changed.`;
    }
  }
  return undefined;
}

/** Commands that read the stack still answer on a closed pull request; nothing else runs there. */
const READ_ONLY_COMMANDS = new Set(["help", "pending"]);

function closedRefusal(pr: PullRequestInfo, commands: string[]): string | undefined {
  if (pr.state !== "closed" || commands.every((command) => READ_ONLY_COMMANDS.has(command))) return undefined;
  const how = pr.merged
    ? "was merged: a commit on its branch would never reach the base branch"
    : "is closed: reopen it to preview or resolve edits";
  return `This pull request ${how}. Nothing was run.`;
}

export async function onIssueComment(context: Context<"issue_comment.created">, deps: HandlerDeps): Promise<void> {
  const { payload } = context;
  if (!payload.issue.pull_request) return;
  if (payload.comment.user?.type === "Bot" || payload.sender.type === "Bot") return;
  const commands = parseCommands(payload.comment.body ?? "");
  if (commands.length === 0) return;
  if (!deps.queue.firstDelivery(context.id)) return;
  const repo = context.repo();
  const number = payload.issue.number;
  const actor: Actor = { login: payload.comment.user!.login, id: payload.comment.user!.id };
  // The acknowledgement is a courtesy: if it fails, the command still runs.
  await react(context.octokit, repo, payload.comment.id, "eyes").catch((error: unknown) =>
    context.log.warn({ err: error }, "👀 reaction failed"),
  );
  deps.queue.enqueue(prKey(repo, number), async () => {
    const ok = await runCommentCommands(context, deps, repo, number, actor, commands).catch(async (error: unknown) => {
      await replyInternalError(context, repo, number, error);
      return false;
    });
    await react(context.octokit, repo, payload.comment.id, ok ? "rocket" : "confused");
  });
}

/**
 * The gate follows the stack; failing to refresh it must not hide what the command did (it may
 * have committed). The next command on the pull request brings it in line again.
 */
async function refreshGate(context: Context, store: CheckRunStore): Promise<void> {
  await store.updateGate().catch((error: unknown) => context.log.warn({ err: error }, "gate check update failed"));
}

const INTERNAL_ERROR =
  "Something went wrong inside resolve-bot; the error is in the app's log. Nothing was committed unless a reply or a check run says so.";

async function replyInternalError(context: Context, repo: RepoRef, number: number, error: unknown): Promise<void> {
  context.log.error({ err: error }, "resolve-bot failed");
  await reply(context.octokit, repo, number, INTERNAL_ERROR);
}

async function runCommentCommands(
  context: Context,
  deps: HandlerDeps,
  repo: RepoRef,
  number: number,
  actor: Actor,
  commands: SlashCommand[],
): Promise<boolean> {
  const octokit = context.octokit;
  const loaded = await loadRepoConfig(configReader(context), deps.registry);
  if (!loaded.ok) {
    await replySteered(octokit, repo, number, configErrorReply(loaded.errors), deps.appId);
    return false;
  }
  const refused = await refusal(
    octokit,
    repo,
    actor.login,
    loaded.config,
    commands.map((command) => command.name),
  );
  if (refused) {
    await replySteered(octokit, repo, number, refused, deps.appId);
    return false;
  }
  const pr = await readPullRequest(octokit, repo, number);
  const closed = closedRefusal(
    pr,
    commands.map((command) => command.name),
  );
  if (closed) {
    await replySteered(octokit, repo, number, closed, deps.appId);
    return false;
  }
  const installation = (context.payload as { installation?: { id: number } }).installation?.id;
  const session = openSession(octokit, pr, loaded.config, actor, {
    ...deps,
    canWriteWorkflows: () => deps.canWriteWorkflows(installation),
  });
  const result = await deps.runtime.handleCommands(commands, session.context);
  // Only a changed stack touches the gate: a refused or failed command writes nothing.
  if (result.outcomes.some((outcome) => (outcome.pushed?.length ?? 0) > 0 || outcome.resolved)) await refreshGate(context, session.store);
  await reply(
    octokit,
    repo,
    number,
    renderReply(result, (sha) => session.commitUrl(sha)),
  );
  return result.outcomes.every((outcome) => outcome.ok);
}

/** The gate check's Apply/Discard buttons act on the top of the stack. */
export async function onRequestedAction(context: Context<"check_run.requested_action">, deps: HandlerDeps): Promise<void> {
  const { payload } = context;
  const run = payload.check_run;
  if (run.name !== GATE_CHECK_NAME) return;
  const identifier = payload.requested_action?.identifier;
  if (identifier !== "apply" && identifier !== "discard") return;
  const number = Number(/^pr:(\d+)$/.exec(run.external_id ?? "")?.[1] ?? run.pull_requests[0]?.number);
  if (!Number.isInteger(number) || number <= 0) return;
  if (!deps.queue.firstDelivery(context.id)) return;
  const repo = context.repo();
  const actor: Actor = { login: payload.sender.login, id: payload.sender.id };
  deps.queue.enqueue(prKey(repo, number), () =>
    resolveFromButton(context, deps, repo, number, actor, identifier).catch((error: unknown) =>
      replyInternalError(context, repo, number, error),
    ),
  );
}

async function resolveFromButton(
  context: Context<"check_run.requested_action">,
  deps: HandlerDeps,
  repo: RepoRef,
  number: number,
  actor: Actor,
  identifier: "apply" | "discard",
): Promise<void> {
  const { payload } = context;
  const octokit = context.octokit;
  const loaded = await loadRepoConfig(configReader(context), deps.registry);
  if (!loaded.ok) return replySteered(octokit, repo, number, configErrorReply(loaded.errors), deps.appId);
  const refused = await refusal(octokit, repo, actor.login, loaded.config, ["resolve"]);
  if (refused) return replySteered(octokit, repo, number, refused, deps.appId);
  const pr = await readPullRequest(octokit, repo, number);
  const closed = closedRefusal(pr, ["resolve"]);
  if (closed) return replySteered(octokit, repo, number, closed, deps.appId);
  const session = openSession(octokit, pr, loaded.config, actor, {
    ...deps,
    canWriteWorkflows: () => deps.canWriteWorkflows(payload.installation?.id),
  });
  const reason = `${identifier === "apply" ? "Applied" : "Discarded"} from the Checks tab by @${actor.login}`;
  const outcome = await deps.runtime.resolve(identifier, reason, session.context);
  await refreshGate(context, session.store);
  const body = renderOutcome(
    { command: "/resolve", kind: "resolve", ok: outcome.ok, message: outcome.message, resolved: outcome.resolved },
    (sha) => session.commitUrl(sha),
  );
  await reply(octokit, repo, number, withSteering(body, steeringLine(await session.store.list())));
}

/**
 * New commits on the branch. If they are not our own apply (whose stack was already carried to
 * the new head), every pending action is previewed again on the new head.
 */
export async function onSynchronize(context: Context<"pull_request.synchronize">, deps: HandlerDeps): Promise<void> {
  const { payload } = context;
  if (!deps.queue.firstDelivery(context.id)) return;
  const repo = context.repo();
  const number = payload.pull_request.number;
  deps.queue.enqueue(prKey(repo, number), async () => {
    const octokit = context.octokit;
    const loaded = await loadRepoConfig(configReader(context), deps.registry);
    if (!loaded.ok) return; // said when someone next runs a command
    const current = await readPullRequest(octokit, repo, number);
    const before: PullRequestInfo = { ...current, headSha: payload.before };
    const actor: Actor = { login: payload.sender.login, id: payload.sender.id };
    const session = openSession(octokit, before, loaded.config, actor, { ...deps, canWriteWorkflows: async () => false });
    const stale = await session.store.list();
    const after = current.headSha;
    const lines: string[] = [];
    if (stale.length > 0) {
      const workspace = await TarballWorkspace.download(octokit, repo, after, loaded.config.limits);
      await session.store.resync(after, async (record) => {
        const next = await repreview(deps.registry, record, workspace);
        if ("gone" in next) {
          lines.push(`- ${text(record.label)}: closed, nothing left to change (${text(next.gone)}).`);
          return { closed: `nothing left to change: ${next.gone}` };
        }
        const what = next.changed ? "the preview changed" : "the preview is unchanged";
        lines.push(`- ${text(next.record.label)}: ${what}.`);
        const note = `Previewed again on ${after.slice(0, 7)} after new commits (was ${record.headSha.slice(0, 7)}): ${what}.`;
        return { record: next.record, preview: { summary: next.message, diff: next.diff }, note };
      });
    } else {
      session.pr.headSha = after;
    }
    await session.store.updateGate();
    if (lines.length > 0) {
      const body = `New commits were pushed (${payload.before.slice(0, 7)} → ${after.slice(0, 7)}), so the pending edits were previewed again:\n${lines.join("\n")}`;
      await reply(octokit, repo, number, withSteering(body, steeringLine(await session.store.list())));
    }
  });
}

/**
 * An opened or reopened pull request gets a gate check on its head, so branch protection that
 * requires `resolve-bot` can pass on pull requests where nobody used the bot.
 */
export async function onOpenedOrReopened(
  context: Context<"pull_request.opened" | "pull_request.reopened">,
  deps: HandlerDeps,
): Promise<void> {
  if (!deps.queue.firstDelivery(context.id)) return;
  const repo = context.repo();
  const number = context.payload.pull_request.number;
  deps.queue.enqueue(prKey(repo, number), async () => {
    const loaded = await loadRepoConfig(configReader(context), deps.registry);
    if (!loaded.ok) return;
    const pr = await readPullRequest(context.octokit, repo, number);
    const sender = context.payload.sender;
    const session = openSession(
      context.octokit,
      pr,
      loaded.config,
      { login: sender.login, id: sender.id },
      { ...deps, canWriteWorkflows: async () => false },
    );
    await session.store.updateGate();
  });
}
