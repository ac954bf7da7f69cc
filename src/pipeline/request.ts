/**
 * A request: one thing someone (or the forge itself) asked of the bot, as plain JSON. It is an
 * **intent** — what to do — plus an **origin** — where it was asked, which is also where the answer
 * goes. Ingress makes it from a forge's event; the job queue stores it; `runRequest` carries it
 * out, possibly in another thread or process, so it holds data only (no clients, no closures).
 *
 * The stored form carries `version`; `readStoredRequest` (stored-request.ts) checks it against
 * the schemas below when a job is read back.
 */
import { Type, type Static } from "@sinclair/typebox";

/** The version this build writes. Bump it (and teach stored-request.ts the old one) on any change of shape. */
export const REQUEST_VERSION = 2;

const SlashCommandSchema = Type.Object({
  name: Type.String(),
  typed: Type.String(),
  args: Type.String(),
  block: Type.Optional(Type.Object({ language: Type.Union([Type.Literal("json"), Type.Literal("yaml")]), text: Type.String() })),
  line: Type.Integer({ minimum: 1 }),
});

/** What to do. Each kind has one handler in run-request.ts's table. */
export const IntentSchema = Type.Union([
  /** Slash commands, parsed at ingress (text without commands is no request). */
  Type.Object({ kind: Type.Literal("commands"), commands: Type.Array(SlashCommandSchema, { minItems: 1 }) }),
  /** Apply or discard the newest pending action (a forge's button). */
  Type.Object({ kind: Type.Literal("resolve-newest"), action: Type.Union([Type.Literal("apply"), Type.Literal("discard")]) }),
  /** Someone else's commits moved the head: pending actions are previewed again on it. */
  Type.Object({ kind: Type.Literal("head-moved"), before: Type.String(), after: Type.String() }),
  /** The pull request was opened or reopened: the gate goes on its head. */
  Type.Object({ kind: Type.Literal("opened") }),
  /** The pull request was closed (or merged): pending actions are completed, not applied. */
  Type.Object({ kind: Type.Literal("closed"), merged: Type.Boolean() }),
  /** Find the stack wherever it is now and put the gate on the head (new check suite, runs gone stale). */
  Type.Object({ kind: Type.Literal("refresh") }),
  /** Preview one pending action again (none: only the gate), as the forge's "re-run" asks. */
  Type.Object({ kind: Type.Literal("re-preview"), actionId: Type.Optional(Type.String()) }),
]);

/** Lines of a file at the pull request's head, 1-based and inclusive. */
const LinesSchema = Type.Object({ start: Type.Integer({ minimum: 1 }), end: Type.Integer({ minimum: 1 }) });

/** Where it was asked: what is acknowledged and answered, and what a line's commands are scoped to. */
export const OriginSchema = Type.Union([
  /**
   * A comment in the pull request's conversation. `edit`: the commands were added by editing it;
   * `keys` name each (parallel to the intent's commands), so an edit never runs one twice.
   */
  Type.Object({
    kind: Type.Literal("comment"),
    commentId: Type.Integer(),
    edit: Type.Optional(Type.Object({ keys: Type.Array(Type.String()) })),
  }),
  /**
   * A comment on lines of a file in the diff. `side` says which version the lines number:
   * `head` (the pull request's) or `base`. `lines` is absent when the comment is outdated: its
   * lines are no longer part of the diff. `threadId`: the first comment of its thread (itself
   * when it starts one), which answers are attached to.
   */
  Type.Object({
    kind: Type.Literal("line-comment"),
    commentId: Type.Integer(),
    threadId: Type.Integer(),
    path: Type.String(),
    lines: Type.Optional(LinesSchema),
    side: Type.Union([Type.Literal("head"), Type.Literal("base")]),
  }),
  /** The body of a review (answered in the conversation: a review has no thread of its own). */
  Type.Object({ kind: Type.Literal("review"), reviewId: Type.Integer() }),
  /** Typed at a terminal (the local command line), answered there. */
  Type.Object({ kind: Type.Literal("terminal") }),
  /**
   * A tool call from an agent over MCP (stdio on a checkout, or HTTP on a pull request), answered
   * as the call's result. `agent`: the client as it named itself when it connected (MCP's
   * `clientInfo`), for what people read ("proposed by an agent"); `rationale`: why the agent says
   * it asks, when it says so.
   */
  Type.Object({
    kind: Type.Literal("mcp"),
    agent: Type.Optional(Type.Object({ name: Type.String(), version: Type.Optional(Type.String()) })),
    rationale: Type.Optional(Type.String()),
  }),
  /** A button on one of the bot's checks. */
  Type.Object({ kind: Type.Literal("button"), checkRunId: Type.Integer() }),
  /** The forge itself (a push, a closed pull request…): nobody waits for an answer. */
  Type.Object({ kind: Type.Literal("none") }),
]);

/** Which forge adapter carries the request out (the worker picks it from src/runner/forge-registry.ts). */
export const ForgeSchema = Type.Union([
  /** `installationId`: the GitHub App installation the event came through. */
  Type.Object({ id: Type.Literal("github"), installationId: Type.Optional(Type.Integer()) }),
  Type.Object({ id: Type.Literal("local") }),
]);

const ActorSchema = Type.Object({
  login: Type.String(),
  /** The forge's user id (GitHub: for the commit's Co-authored-by address); absent locally. */
  id: Type.Optional(Type.Integer()),
});

export const RequestSchema = Type.Object({
  version: Type.Literal(REQUEST_VERSION),
  forge: ForgeSchema,
  repository: Type.Object({ owner: Type.String(), repo: Type.String() }),
  /** The pull request number (0 for a local checkout, which is one pull request of its own). */
  pullRequest: Type.Integer({ minimum: 0 }),
  actor: ActorSchema,
  /** Unique per event (GitHub: the delivery id); deduplicates redeliveries and names what each step writes. */
  id: Type.String({ minLength: 1 }),
  intent: IntentSchema,
  origin: OriginSchema,
});

export type Request = Static<typeof RequestSchema>;
export type Intent = Static<typeof IntentSchema>;
export type IntentKind = Intent["kind"];
export type Origin = Static<typeof OriginSchema>;
export type RequestActor = Static<typeof ActorSchema>;
export type ForgeRef = Static<typeof ForgeSchema>;
export type ForgeId = ForgeRef["id"];

/** Someone asked and waits for an answer: acknowledged, answered (failures too), finished with 🚀/😕. */
export function awaitsReply(origin: Origin): boolean {
  return origin.kind !== "none";
}

/**
 * Acknowledged (👀) as soon as it is recorded. An edit is acknowledged only once the repository's
 * configuration says edits run, so a repository that does not run them sees nothing.
 */
export function acknowledgedAtIntake(origin: Origin): boolean {
  return awaitsReply(origin) && !(origin.kind === "comment" && origin.edit !== undefined);
}

/** The serialisation key: one pull request's requests run one at a time, in order. */
export function requestKey(request: Pick<Request, "repository" | "pullRequest">): string {
  return `${request.repository.owner}/${request.repository.repo}#${request.pullRequest}`;
}
