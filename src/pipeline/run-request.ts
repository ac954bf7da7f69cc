/**
 * The pipeline: one function takes any request through the same steps — configuration →
 * requirements (permission, closed or merged pull request) → session (with the lines a line
 * comment's commands are scoped to, or why they cannot be) → runtime → a neutral reply
 * that the forge renders. What differs per intent is one entry of HANDLERS; adding behaviour for
 * an intent is changing its entry. Whether someone waits for the answer depends on the request's
 * origin only (`awaitsReply`); where the answer goes is the forge's reply channel for that origin.
 *
 * One error model (failure.ts): a command that fails for the user's reasons (UserError, a refusal)
 * is a reply that says why; the forge failing for now goes back to the job queue; anything else is
 * the bot's failure — logged with the request and its stack, and answered with an apology that
 * never carries the internal message.
 */
import { once } from "../core/context.js";
import { commandKeys } from "../core/commands.js";
import { steeringLine } from "../core/messages.js";
import type { CommandOutcome } from "../core/runtime.js";
import type { PendingRecord } from "../core/store.js";
import type { AnyPorts, PipelineLog, PullRequestView, RequestConfig, StackStore } from "./ports.js";
import { watchCost } from "./cost.js";
import { classifyFailure } from "./failure.js";
import { previewAgain } from "./preview-again.js";
import type { Reply, ReplyStatus } from "./reply.js";
import { awaitsReply, requestKey, type Intent, type IntentKind, type Request } from "./request.js";
import { closedRefusal, configProblems, permissionRefusal } from "./requirements.js";
import { anchorOf, openSession, proposalOf, type Session } from "./session.js";
import { shortSha } from "../core/revision.js";

export interface RequestResult {
  status: ReplyStatus;
  /** What was said, when anything was. */
  reply?: Reply;
}

type IntentOf<K extends IntentKind> = Extract<Intent, { kind: K }>;

type IntentHandler<K extends IntentKind> = (request: Request, intent: IntentOf<K>, ports: AnyPorts) => Promise<Reply | undefined>;

const HANDLERS: { [K in IntentKind]: IntentHandler<K> } = {
  commands: onCommands,
  "resolve-newest": onResolveNewest,
  "head-moved": onHeadMoved,
  opened: onOpened,
  closed: onLifecycle,
  refresh: onLifecycle,
  "re-preview": onLifecycle,
};

export async function runRequest(asked: Request, ports: AnyPorts): Promise<RequestResult> {
  // An edited comment: only what the edit added, never what ran before, and only where edits run.
  const request = await editedCommands(asked, ports);
  if (request === undefined) return { status: "ok" };
  const handler = HANDLERS[request.intent.kind] as IntentHandler<IntentKind>;
  const answersFailures = awaitsReply(request.origin);
  // A re-run whose reply is already out (the run was cut short after saying it): only finish.
  const said = answersFailures ? await ports.reply.sent?.() : undefined;
  if (said !== undefined) {
    await ports.reply.working?.settle();
    await ports.reply.finish?.(said === "ok");
    return { status: said };
  }
  // A request that runs long says so early; its reply then says how long it took (cost.ts).
  const cost = watchCost(request, ports);
  let result: RequestResult;
  try {
    const reply = await handler(request, request.intent, cost?.ports ?? ports);
    const stamped = reply && cost ? await cost.stamp(reply) : reply;
    if (stamped) await ports.reply.send(stamped);
    result = { status: stamped?.status ?? "ok", ...(stamped ? { reply: stamped } : {}) };
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
    if (cost) reply = await cost.stampFailure(reply);
    if (answersFailures) await ports.reply.send(reply);
    result = { status: reply.status, ...(answersFailures ? { reply } : {}) };
  } finally {
    await cost?.end();
  }
  if (result.reply?.took !== undefined) await ports.reply.working?.settle();
  await ports.reply.finish?.(result.status === "ok");
  return result;
}

/** What a log line about a failed request says of it. */
function describeRequest(request: Request): { key: string; id: string; intent: IntentKind; origin: string } {
  return { key: requestKey(request), id: request.id, intent: request.intent.kind, origin: request.origin.kind };
}

/**
 * The request with the commands an edit added that no earlier edit ran; undefined when there are
 * none or the repository does not run edits (then nothing is said or marked at all). Otherwise the
 * request is acknowledged here, as intake could not know it would run.
 */
async function editedCommands(request: Request, ports: AnyPorts): Promise<Request | undefined> {
  const origin = request.origin;
  if (origin.kind !== "comment" || origin.edit === undefined || request.intent.kind !== "commands") return request;
  const loaded = await ports.config.load();
  if (!loaded.ok || loaded.config.runOnEdit !== true) return undefined;
  const ran = (await ports.reply.ran?.()) ?? new Set<string>();
  const commands = request.intent.commands;
  const kept = origin.edit.keys.flatMap((key, index) => (ran.has(key) ? [] : [{ key, command: commands[index]! }]));
  if (kept.length === 0) return undefined;
  await ports.reply.acknowledge?.();
  return {
    ...request,
    intent: { kind: "commands", commands: kept.map(({ command }) => command) },
    origin: { ...origin, edit: { keys: kept.map(({ key }) => key) } },
  };
}

/**
 * Which lines of an edited comment this answers, and the keys of the commands that ran (had an
 * outcome): the ledger later edits read. Where edits run, a comment's first answer records its
 * commands too, so an edit that takes one out and puts it back never runs it again.
 */
function editLedger(request: Request, outcomes: number, config?: RequestConfig): Pick<Reply, "preface" | "ran"> {
  if (request.origin.kind !== "comment" || request.intent.kind !== "commands") return {};
  if (request.origin.edit === undefined) {
    return config?.runOnEdit === true && outcomes > 0 ? { ran: commandKeys(request.intent.commands).slice(0, outcomes) } : {};
  }
  const lines = request.intent.commands.map((command) => `line ${command.line} (\`/${command.typed}\`)`);
  return { preface: `This answers what your edit added: ${lines.join(", ")}.`, ran: request.origin.edit.keys.slice(0, outcomes) };
}

/** A refusal or notice that ran nothing: still ends with the steering line while something is pending. */
async function notice(
  ports: AnyPorts,
  status: ReplyStatus,
  message: string,
  config: RequestConfig,
  pr: PullRequestView | Promise<PullRequestView> = ports.pullRequest.read(),
): Promise<Reply> {
  const head = await pr;
  const stack = await ports.stack.open(head, head.headSha, config).list();
  return { status, outcomes: [], skipped: [], notice: message, ...withStack(stack, ports) };
}

function withStack(stack: PendingRecord[], ports: AnyPorts): Pick<Reply, "stack" | "steering"> {
  return { stack, steering: steeringLine(stack, ports.phrasing) };
}

/** Configuration, permission, closed pull request: a session, or the refusal to reply. */
async function prepare(
  request: Request,
  commands: string[],
  ports: AnyPorts,
): Promise<{ session: Session; config: RequestConfig } | { refused: Reply }> {
  // The reads that decide whether the request runs go out at once (each GitHub call is a round
  // trip); the decisions are taken in the same order as before, and nothing is written until then.
  // Every answer below needs the pull request, a refusal's too.
  const reading = ports.pullRequest.read();
  reading.catch(() => undefined); // awaited below: failing before then is not an unhandled rejection
  ports.permission.prefetch?.(request.actor, commands);
  ports.workspace.prefetch?.(request.actor, commands);
  const loaded = await ports.config.load();
  if (!loaded.ok)
    return { refused: await notice(ports, "user-error", configProblems(loaded.file, loaded.errors), ports.config.fallback, reading) };
  const config = loaded.config;
  const denied = await ports.permission.refusal(request.actor, commands, config);
  if (denied) return { refused: await notice(ports, "user-error", permissionRefusal(denied, request.actor.login), config, reading) };
  const pr = await reading;
  const closed = closedRefusal(pr, commands);
  if (closed) return { refused: await notice(ports, "user-error", closed, config, pr) };
  // A re-run: what its interrupted run did is reported, not done again (pipeline/journal.ts).
  const journal = await ports.journal?.read(pr);
  const anchor = anchorOf(request.origin);
  const proposedBy = proposalOf(request.origin);
  const session = openSession(ports, pr, config, {
    actor: request.actor,
    requestId: request.id,
    ...(journal ? { journal } : {}),
    ...(anchor ? { anchor } : {}),
    ...(proposedBy ? { proposedBy } : {}),
  });
  return { session, config };
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

async function onCommands(request: Request, intent: IntentOf<"commands">, ports: AnyPorts): Promise<Reply> {
  const prepared = await prepare(
    request,
    intent.commands.map((command) => command.name),
    ports,
  );
  if ("refused" in prepared) return { ...prepared.refused, ...editLedger(request, 0) };
  const { session } = prepared;
  const result = await ports.runtime.handleCommands(intent.commands, session.context);
  // Only a changed stack touches the gate: a refused or failed command writes nothing.
  if (result.outcomes.some(changesStack)) await refreshGate(session.store, ports.log);
  return {
    status: result.outcomes.every((outcome) => outcome.ok) ? "ok" : "user-error",
    ...result,
    ...editLedger(request, result.outcomes.length, prepared.config),
  };
}

/** Apply or discard the top of the stack (GitHub: the gate check's buttons). */
async function onResolveNewest(request: Request, intent: IntentOf<"resolve-newest">, ports: AnyPorts): Promise<Reply> {
  const prepared = await prepare(request, ["resolve"], ports);
  if ("refused" in prepared) return prepared.refused;
  const { session } = prepared;
  const reason = `${intent.action === "apply" ? "Applied" : "Discarded"} from ${ports.buttonPlace ?? "a button"} by @${request.actor.login}`;
  // The button is the request's one command: `/resolve <action> <reason>`, step 0.
  const command = { name: "resolve", typed: "resolve", args: `${intent.action} ${reason}`, line: 1 };
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
async function onHeadMoved(_request: Request, intent: IntentOf<"head-moved">, ports: AnyPorts): Promise<Reply | undefined> {
  const loaded = await ports.config.load();
  if (!loaded.ok) return undefined; // said when someone next runs a command
  const config = loaded.config;
  const pr = await ports.pullRequest.read();
  const after = pr.headSha;
  const store = ports.stack.open(pr, intent.before, config);
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
  const message = `New commits were pushed (${shortSha(intent.before)} → ${shortSha(after)}), so the pending edits were previewed again:\n${lines.join("\n")}`;
  return { status: "ok", outcomes: [], skipped: [], notice: message, ...withStack(await store.list(), ports) };
}

/**
 * An opened or reopened pull request gets a gate check on its head, so branch protection that
 * requires `resolve-bot` can pass on pull requests where nobody used the bot.
 */
async function onOpened(_request: Request, _intent: IntentOf<"opened">, ports: AnyPorts): Promise<undefined> {
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
  intent: IntentOf<"closed" | "refresh" | "re-preview">,
  ports: AnyPorts,
): Promise<Reply | undefined> {
  const lifecycle = ports.lifecycle;
  if (!lifecycle) return undefined;
  const loaded = await ports.config.load();
  const pr = await ports.pullRequest.read();
  const closing = intent.kind === "closed";
  // A closed pull request's stack stays as its close left it, until it is reopened.
  if (pr.state === "closed" && !closing) return undefined;
  if (!loaded.ok) {
    if (pr.state !== "closed") await lifecycle.brokenConfig(pr, loaded.file, loaded.errors);
    return undefined;
  }
  const config = loaded.config;
  const notice = closing
    ? await lifecycle.closed(pr, config, intent.merged)
    : intent.kind === "re-preview"
      ? await lifecycle.rerun(pr, config, intent.actionId)
      : await lifecycle.refresh(pr, config);
  if (notice === undefined) return undefined;
  return { status: "ok", outcomes: [], skipped: [], notice, ...withStack(await ports.stack.open(pr, pr.headSha, config).list(), ports) };
}
