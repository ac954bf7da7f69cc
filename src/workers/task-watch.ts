/**
 * One running task seen from the pool: its clock (restarted at each reported command), what it is
 * called in a reply, whether it has started writing, and why it was stopped.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { StopFacts, StopReason } from "./outcome.js";
import type { ProgressMessage } from "./progress.js";

export class TaskWatch {
  /** Aborting it makes piscina terminate the task's worker (or drop the task if still queued). */
  readonly #stop = new AbortController();
  #reason: StopReason | undefined;
  #what: string;
  #writing = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #port: MessagePort;
  /** The worker's end of the progress channel; goes with the task. */
  readonly workerPort: MessagePort;

  constructor(
    label: string,
    readonly timeLimitMs: number,
    private readonly graceMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.#what = label;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.workerPort = port2;
    // The clock starts when a worker picks the task up, not while it waits in the queue.
    port1.on("message", (message: ProgressMessage) => {
      if (message.type === "command") this.#what = message.label;
      if (message.type === "writing") this.#writing = true;
      else this.#restartClock();
    });
    if (caller?.aborted) this.#stopWith("aborted");
    caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  /** Why the pool stopped the task, if it did. */
  get reason(): StopReason | undefined {
    return this.#reason;
  }

  facts(memoryMb: number): StopFacts {
    return { what: this.#what, writing: this.#writing, timeLimitMs: this.timeLimitMs, memoryMb };
  }

  end(): void {
    clearTimeout(this.#timer);
    this.caller?.removeEventListener("abort", this.#onCallerAbort);
    this.#port.close();
  }

  readonly #onCallerAbort = (): void => this.#stopWith("aborted");

  #restartClock(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#stopWith("time-limit"), this.timeLimitMs + this.graceMs);
  }

  #stopWith(reason: StopReason): void {
    this.#reason ??= reason;
    this.#stop.abort(reason);
  }
}
