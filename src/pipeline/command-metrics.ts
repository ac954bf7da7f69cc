/**
 * How long each command of a request took and what became of it, for the command-duration
 * metric (ops/metrics.ts). A command's time runs from the runtime reporting it (Progress.command)
 * to the next one's start, the last one's to the reply being sent; a request refused before any
 * command ran (configuration, permission, closed pull request) counts each of its commands as
 * `refused` over the whole request.
 */
import type { Progress } from "../core/context.js";
import { RESERVED_COMMANDS } from "../core/registry.js";
import type { CommandOutcome } from "../core/runtime.js";
import { observe, type CommandOutcomeLabel } from "../ops/observations.js";
import type { RequestResult } from "./run-request.js";
import type { Request } from "./request.js";

/** The command names of a request that someone typed or clicked (none for a push or a lifecycle event). */
export function requestedCommands(request: Request): string[] {
  if (request.intent.kind === "commands") return request.intent.commands.map((command) => command.name);
  if (request.intent.kind === "resolve-newest") return ["resolve"];
  return [];
}

export class CommandTiming {
  readonly #started = performance.now();
  readonly #starts: number[] = [];
  readonly progress: Progress;

  constructor(
    private readonly request: Request,
    /** Whether a name is a tool (any other name is labelled `unknown`: label values stay few). */
    private readonly isTool: (name: string) => boolean,
    inner?: Progress,
  ) {
    this.progress = {
      command: (label) => {
        this.#starts.push(performance.now());
        inner?.command(label);
      },
      writing: () => inner?.writing(),
    };
  }

  /** Observes each command of the request that ran (or was refused) once the request is answered. */
  finish(result: RequestResult): void {
    const reply = result.reply;
    if (!reply) return;
    const ended = performance.now();
    const names = requestedCommands(this.request);
    if (reply.outcomes.length === 0) {
      const outcome = reply.status === "bot-error" ? "failed" : "refused";
      for (const name of names) this.#observe(name, outcome, ended - this.#started);
      return;
    }
    reply.outcomes.forEach((outcome, index) => {
      const start = this.#starts[index] ?? this.#started;
      this.#observe(names[index] ?? "unknown", outcomeLabel(outcome), (this.#starts[index + 1] ?? ended) - start);
    });
  }

  #observe(name: string, outcome: CommandOutcomeLabel, ms: number): void {
    const tool = (RESERVED_COMMANDS as readonly string[]).includes(name) || this.isTool(name) ? name : "unknown";
    observe({ kind: "command", tool, outcome, seconds: ms / 1000 });
  }
}

export function outcomeLabel(outcome: CommandOutcome): CommandOutcomeLabel {
  if (!outcome.ok) return "refused";
  if (outcome.kind === "preview") return "previewed";
  if (outcome.resolved?.action === "apply") return "applied";
  if (outcome.resolved?.action === "discard") return "discarded";
  return "answered";
}

/**
 * The pool stopped the request (a time or memory limit, a crash): what its worker thread observed
 * is gone with it, so the main thread counts its commands, `stopped` (`failed` for a crash).
 */
export function observeStopped(request: Request, reason: "time-limit" | "memory-limit" | "crashed", seconds: number): void {
  const outcome = reason === "crashed" ? "failed" : "stopped";
  for (const tool of requestedCommands(request)) observe({ kind: "command", tool, outcome, seconds });
}
