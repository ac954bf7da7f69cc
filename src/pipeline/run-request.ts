/**
 * The pipeline: one function takes any request through the same steps — configuration →
 * requirements (permission, closed or merged pull request) → session → runtime → a neutral reply
 * that the forge renders. What differs per trigger is one entry of HANDLERS; adding behaviour for
 * a trigger is changing its entry.
 *
 * One error model (failure.ts): a command that fails for the user's reasons (UserError, a refusal)
 * is a reply that says why; the forge failing for now goes back to the job queue; anything else is
 * the bot's failure — logged with the request and its stack, and answered with an apology that
 * never carries the internal message.
 */
import { once } from "../core/context.js";
import { steeringLine } from "../core/messages.js";
import type { CommandOutcome } from "../core/runtime.js";
import type { PendingRecord } from "../core/store.js";
import type { AnyPorts, PipelineLog, PullRequestView, RequestConfig, StackStore } from "./ports.js";
import { classifyFailure } from "./failure.js";
import { previewAgain } from "./preview-again.js";
import type { Reply, ReplyStatus } from "./reply.js";
import { requestKey, type Request, type Trigger, type TriggerKind } from "./request.js";
import { closedRefusal, configProblems, permissionRefusal } from "./requirements.js";
import { openSession, type Session } from "./session.js";
import { shortSha } from "../core/revision.js";

export interface RequestResult {
  status: ReplyStatus;
  /** What was said, when anything was. */
  reply?: Reply;
}

type TriggerOf<K extends TriggerKind> = Extract<Trigger, { kind: K }>;

interface TriggerHandler<K extends TriggerKind> {
  run(request: Request, trigger: TriggerOf<K>, ports: AnyPorts): Promise<Reply | undefined>;
  /** Whether a bot failure is answered (someone asked and waits); otherwise it is only logged. */
  answersFailures: boolean;
}

const HANDLERS: { [K in TriggerKind]: TriggerHandler<K> } = {
  comment: { run: onComment, answersFailures: true },
  button: { run: onButton, answersFailures: true },
  push: { run: onPush, answersFailures: false },
  opened: { run: onOpened, answersFailures: false },
  reopened: { run: onOpened, answersFailures: false },
  closed: { run: onLifecycle, answersFailures: false },
  check_suite: { run: onLifecycle, answersFailures: false },
  rerequested: { run: onLifecycle, answersFailures: false },
  stale: { run: onLifecycle, answersFailures: false },
};

export async function runRequest(request: Request, ports: AnyPorts): Promise<RequestResult> {
  const handler = HANDLERS[request.trigger.kind] as TriggerHandler<TriggerKind>;
  // A re-run whose reply is already out (the run was cut short after saying it): only finish.
  const said = handler.answersFailures ? await ports.reply.sent?.() : undefined;
  if (said !== undefined) {
    await ports.reply.finish?.(said === "ok");
    return { status: said };
  }
  let result: RequestResult;
  try {
    const reply = await handler.run(request, request.trigger, ports);
    if (reply) await ports.reply.send(reply);
    result = { status: reply?.status ?? "ok", ...(reply ? { reply } : {}) };
  } catch (error) {
    const failure = classifyFailure(error, ports.transient);
    // The forge failing for now (5xx, rate limit, dropped connection): the job queue tries again.
    if (failure.kind === "transient") throw failure.error;
    let reply: Reply;
    if (failure.kind === "user") {
      reply = { status: "user-error", outcomes: [], skipped: [], notice: failure.error.message, stack: [] };
    } else {
      ports.log.error({ err: failure.error, request: describeRequest(request) }, "resolve-bot failed");
      reply = { status: "bot-error", outcomes: [], skipped: [], stack: [] };
    }
    if (handler.answersFailures) await ports.reply.send(reply);
    result = { status: reply.status, ...(handler.answersFailures ? { reply } : {}) };
  }
  await ports.reply.finish?.(result.status === "ok");
  return result;
}

/** What a log line about a failed request says of it. */
function describeRequest(request: Request): { key: string; deliveryId: string; trigger: TriggerKind } {
  return { key: requestKey(request), deliveryId: request.deliveryId, trigger: request.trigger.kind };
}

/** A refusal or notice that ran nothing: still ends with the steering line (spec §7). */
async function notice(ports: AnyPorts, status: ReplyStatus, message: string, config: RequestConfig, pr?: PullRequestView): Promise<Reply> {
  const head = pr ?? (await ports.pullRequest.read());
  const stack = await ports.stack.open(head, head.headSha, config).list();
  return { status, outcomes: [], skipped: [], notice: message, ...withStack(stack, ports) };
}

function withStack(stack: PendingRecord[], ports: AnyPorts): Pick<Reply, "stack" | "steering"> {
  return { stack, steering: steeringLine(stack, ports.resolveCommands) };
}

/** Configuration, permission, closed pull request: a session, or the refusal to reply. */
async function prepare(request: Request, commands: string[], ports: AnyPorts): Promise<{ session: Session } | { refused: Reply }> {
  const loaded = await ports.config.load();
  if (!loaded.ok) return { refused: await notice(ports, "user-error", configProblems(loaded.file, loaded.errors), ports.config.fallback) };
  const config = loaded.config;
  const denied = await ports.permission.refusal(request.actor, commands, config);
  if (denied) return { refused: await notice(ports, "user-error", permissionRefusal(denied, request.actor.login), config) };
  const pr = await ports.pullRequest.read();
  const closed = closedRefusal(pr, commands);
  if (closed) return { refused: await notice(ports, "user-error", closed, config, pr) };
  // A re-run: what its interrupted run did is reported, not done again (pipeline/journal.ts).
  const journal = await ports.journal?.read(pr);
  const session = openSession(ports, pr, config, { actor: request.actor, requestId: request.deliveryId, ...(journal ? { journal } : {}) });
  return { session };
}

/**
 * The gate follows the stack; failing to refresh it must not hide what the command did (it may
 * have committed). The next command on the pull request brings it in line again.
 */
async function refreshGate(store: StackStore, log: PipelineLog): Promise<void> {
  await store.updateGate?.().catch((error: unknown) => log.warn({ err: error }, "gate check update failed"));
}

function changesStack(outcome: CommandOutcome): boolean {
  return (outcome.pushed?.length ?? 0) > 0 || outcome.resolved !== undefined;
}

async function onComment(request: Request, trigger: TriggerOf<"comment">, ports: AnyPorts): Promise<Reply> {
  const prepared = await prepare(
    request,
    trigger.commands.map((command) => command.name),
    ports,
  );
  if ("refused" in prepared) return prepared.refused;
  const { session } = prepared;
  const result = await ports.runtime.handleCommands(trigger.commands, session.context);
  // Only a changed stack touches the gate: a refused or failed command writes nothing.
  if (result.outcomes.some(changesStack)) await refreshGate(session.store, ports.log);
  return { status: result.outcomes.every((outcome) => outcome.ok) ? "ok" : "user-error", ...result };
}

/** The gate check's Apply/Discard buttons act on the top of the stack. */
async function onButton(request: Request, trigger: TriggerOf<"button">, ports: AnyPorts): Promise<Reply> {
  const prepared = await prepare(request, ["resolve"], ports);
  if ("refused" in prepared) return prepared.refused;
  const { session } = prepared;
  const reason = `${trigger.action === "apply" ? "Applied" : "Discarded"} from the Checks tab by @${request.actor.login}`;
  // The button is the request's one command: `/resolve <action> <reason>`, step 0.
  const command = { name: "resolve", typed: "resolve", args: `${trigger.action} ${reason}`, line: 1 };
  const outcome = await ports.runtime.handleStep(command, 0, session.context);
  await refreshGate(session.store, ports.log);
  return {
    status: outcome.ok ? "ok" : "user-error",
    outcomes: [outcome],
    skipped: [],
    ...withStack(await session.store.list(), ports),
  };
}

/**
 * New commits on the branch. After our own apply the stack was already carried to the new head,
 * and nothing is left here. Otherwise the store moves every pending action to the new head:
 * previewed again, or — for commits that are our applies whose recording failed — finished from
 * the commit (the store reads its trailer); only what was previewed again is said.
 */
async function onPush(_request: Request, trigger: TriggerOf<"push">, ports: AnyPorts): Promise<Reply | undefined> {
  const loaded = await ports.config.load();
  if (!loaded.ok) return undefined; // said when someone next runs a command
  const config = loaded.config;
  const pr = await ports.pullRequest.read();
  const after = pr.headSha;
  const store = ports.stack.open(pr, trigger.before, config);
  const stale = await store.list();
  const lines: string[] = [];
  if (stale.length === 0 || !store.resync) {
    await ports.stack.open(pr, after, config).updateGate?.();
    return undefined;
  }
  // Read only when an action is previewed again: our own applies are finished from their commits.
  const workspace = once(() => ports.workspace.at(pr, after, config));
  await store.resync(after, async (record) => {
    const step = await previewAgain(ports.runtime.registry, record, await workspace(), after, "new commits");
    lines.push(step.line);
    return step;
  });
  await store.updateGate?.();
  if (lines.length === 0) return undefined;
  const message = `New commits were pushed (${shortSha(trigger.before)} → ${shortSha(after)}), so the pending edits were previewed again:\n${lines.join("\n")}`;
  return { status: "ok", outcomes: [], skipped: [], notice: message, ...withStack(await store.list(), ports) };
}

/**
 * An opened or reopened pull request gets a gate check on its head, so branch protection that
 * requires `resolve-bot` can pass on pull requests where nobody used the bot.
 */
async function onOpened(_request: Request, _trigger: TriggerOf<"opened" | "reopened">, ports: AnyPorts): Promise<undefined> {
  const loaded = await ports.config.load();
  if (!loaded.ok) return undefined;
  const pr = await ports.pullRequest.read();
  await ports.stack.open(pr, pr.headSha, loaded.config).updateGate?.();
  return undefined;
}

/**
 * Events of the forge itself: a closed or merged pull request completes its pending actions
 * without applying them; a new check suite, a run gone stale or a Re-run finds the stack wherever
 * it is now and puts the gate on the head. What moved is said on the pull request.
 */
async function onLifecycle(
  _request: Request,
  trigger: TriggerOf<"closed" | "check_suite" | "rerequested" | "stale">,
  ports: AnyPorts,
): Promise<Reply | undefined> {
  const lifecycle = ports.lifecycle;
  if (!lifecycle) return undefined;
  const loaded = await ports.config.load();
  const pr = await ports.pullRequest.read();
  const closing = trigger.kind === "closed";
  // A closed pull request's stack stays as its close left it, until it is reopened.
  if (pr.state === "closed" && !closing) return undefined;
  if (!loaded.ok) {
    if (pr.state !== "closed") await lifecycle.brokenConfig(pr, loaded.file, loaded.errors);
    return undefined;
  }
  const config = loaded.config;
  const notice = closing
    ? await lifecycle.closed(pr, config, trigger.merged)
    : trigger.kind === "rerequested"
      ? await lifecycle.rerun(pr, config, trigger.actionId)
      : await lifecycle.refresh(pr, config);
  if (notice === undefined) return undefined;
  return { status: "ok", outcomes: [], skipped: [], notice, ...withStack(await ports.stack.open(pr, pr.headSha, config).list(), ports) };
}
