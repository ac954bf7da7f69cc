/**
 * What a request costs, said to whoever waits for it. A request still running after a threshold
 * (RESOLVE_BOT_STATUS_AFTER_SECONDS, default 5) says so early where its reply will go — which
 * command runs, on how many files: "Working on `/ast-edit` (14,521 files)…" — and its reply then
 * says how long it took. A request answered within the threshold is answered as before: one
 * reply, no duration. Once the reply is out the forge settles the working status, so nothing is
 * left claiming that work goes on (GitHub: the comment is struck through and points below).
 *
 * The status waits for the number of files (the head's listing), so it always names it; the first
 * fetch of a big head delays it by the fetch. Said once per request: on a re-run the forge finds
 * the status its interrupted run said (Ports.reply.working). Its failure is the request's, under
 * the one error model (failure.ts): the status is joined before the reply is sent, so a status
 * that GitHub failed for now is a job retry (the journal makes that cheap), anything else the
 * apology; a status never comes after its reply.
 */
import type { Workspace } from "../workspace/workspace.js";
import type { AnyPorts, PipelineLog, WorkingStatus } from "./ports.js";
import type { Reply } from "./reply.js";
import { awaitsReply, type Request } from "./request.js";
import { pluralWord } from "../core/text.js";

export const STATUS_AFTER_VARIABLE = "RESOLVE_BOT_STATUS_AFTER_SECONDS";
const DEFAULT_STATUS_AFTER_SECONDS = 5;

/**
 * How long a request runs before it says so (ms), from the server's environment; undefined when
 * turned off (`off`). A misconfigured value is an error, said when the server starts.
 */
export function statusAfterMs(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[STATUS_AFTER_VARIABLE]?.trim();
  if (text === undefined || text === "") return DEFAULT_STATUS_AFTER_SECONDS * 1000;
  if (text === "off") return undefined;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`${STATUS_AFTER_VARIABLE} must be a number of seconds (0 or more) or "off" (got "${text}").`);
  }
  return seconds * 1000;
}

/** The working status: the command as the runtime labels it (e.g. "`/ast-edit`") and the head's file count. */
export function workingText(command: string, files: number): string {
  return `Working on ${command} (${files.toLocaleString("en-US")} ${pluralWord(files, "file")})…`;
}

/** The line a reply ends with when a working status went out. */
export function tookText(ms: number): string {
  return `Took ${formatDuration(ms)}.`;
}

/** 0.4 s, 9.8 s, 23 s, 4 min 5 s: tenths only while they matter. */
export function formatDuration(ms: number): string {
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** One request's watch: undefined when its forge says nothing early or nobody waits for it. */
export interface CostWatch {
  /** The ports with the running command and the head's files observed. */
  ports: AnyPorts;
  /** The reply, with how long the request took when a status is out; joins the status (its failure is thrown). */
  stamp(reply: Reply): Promise<Reply>;
  /** Like stamp, for the reply to a failure: the status's own failure is only logged then. */
  stampFailure(reply: Reply): Promise<Reply>;
  /** No status after this; one in flight is waited for (a request handed back to the queue must not say it later). */
  end(): Promise<void>;
}

export function watchCost(request: Request, ports: AnyPorts): CostWatch | undefined {
  const working = ports.reply.working;
  if (working === undefined || !awaitsReply(request.origin)) return undefined;
  return new Watch(working, ports, ports.log, firstCommand(request));
}

/** What the request runs before the runtime names a command (a button's resolve is run as one step). */
function firstCommand(request: Request): string | undefined {
  const intent = request.intent;
  if (intent.kind === "commands") return intent.commands[0] && `\`/${intent.commands[0].typed}\``;
  if (intent.kind === "resolve-newest") return `\`/resolve ${intent.action}\``;
  return undefined;
}

class Watch implements CostWatch {
  readonly #started = performance.now();
  readonly #timer: NodeJS.Timeout | undefined;
  #due = false;
  #stopped = false;
  #command: string | undefined;
  #head: Workspace | undefined;
  #files: number | undefined;
  #saying: Promise<void> | undefined;
  readonly ports: AnyPorts;

  constructor(
    private readonly working: WorkingStatus,
    inner: AnyPorts,
    private readonly log: PipelineLog,
    command: string | undefined,
  ) {
    this.#command = command;
    // 0 is at once, not at the next turn of a timer: whatever the request does first, the status is due.
    this.#due = working.afterMs === 0;
    this.#timer = this.#due
      ? undefined
      : setTimeout(() => {
          this.#due = true;
          this.#sayWhenKnown();
        }, working.afterMs);
    this.ports = {
      ...inner,
      progress: {
        command: (label) => {
          this.#command = label;
          inner.progress?.command(label);
          this.#sayWhenKnown();
        },
        writing: () => inner.progress?.writing(),
      },
      workspace: {
        at: async (pr, sha, config) => {
          const workspace = await inner.workspace.at(pr, sha, config);
          this.#observe(workspace);
          return workspace;
        },
      },
    };
  }

  /** The number of files comes from the listing the tool needs anyway (memoised); its refusal is the tool's to say. */
  #observe(workspace: Workspace): void {
    this.#head = workspace;
    workspace.list().then(
      (paths) => {
        if (this.#head !== workspace) return;
        this.#files = paths.length;
        this.#sayWhenKnown();
      },
      () => undefined,
    );
  }

  #sayWhenKnown(): void {
    if (this.#stopped || !this.#due || this.#saying || this.#command === undefined || this.#files === undefined) return;
    this.#saying = this.working.say(workingText(this.#command, this.#files));
    // Joined by stamp; until then a failure must not be an unhandled rejection.
    this.#saying.catch(() => undefined);
  }

  async stamp(reply: Reply): Promise<Reply> {
    this.#stop();
    await this.#saying;
    return (await this.working.out()) ? { ...reply, took: performance.now() - this.#started } : reply;
  }

  async stampFailure(reply: Reply): Promise<Reply> {
    try {
      return await this.stamp(reply);
    } catch (error) {
      this.log.warn({ err: error }, "the working status of a failed request could not be said");
      return reply;
    }
  }

  async end(): Promise<void> {
    this.#stop();
    await this.#saying?.catch(() => undefined);
  }

  #stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
