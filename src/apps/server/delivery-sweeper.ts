/**
 * When the server sweeps the App's webhook deliveries for lost ones (forges/github/deliveries.ts):
 * once at start-up, then RESOLVE_BOT_DELIVERY_SWEEP_SECONDS (default 300) after each sweep ends,
 * so two never overlap; `off` turns it off. A sweep never stops the server: its failure is logged at
 * warn, counted, and the next sweep starts again from the same cursor.
 */
import type { SweepResult } from "../../forges/github/deliveries.js";
import { plural } from "../../core/text.js";

const DEFAULT_SECONDS = 300;

/** The sweep interval in ms, or undefined when sweeping is off; a bad value stops the server at start. */
export function sweepIntervalMs(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.RESOLVE_BOT_DELIVERY_SWEEP_SECONDS?.trim();
  if (!text) return DEFAULT_SECONDS * 1000;
  if (text === "off") return undefined;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new Error(`RESOLVE_BOT_DELIVERY_SWEEP_SECONDS must be a whole number of seconds (at least 1) or off (got "${text}").`);
  return seconds * 1000;
}

export interface SweeperLog {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export interface SweeperObserver {
  swept(result: SweepResult): void;
  failed(): void;
}

export class DeliverySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly sweep: () => Promise<SweepResult>,
    private readonly log: SweeperLog,
    private readonly observe: SweeperObserver,
  ) {}

  /** The start-up sweep now, the next ones after the interval. */
  start(): void {
    this.run();
  }

  /** No new sweep; resolves once the running one (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private run(): void {
    if (this.stopped) return;
    this.running = this.once().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      // Unref'd: a pending sweep never keeps the process alive.
      this.timer = setTimeout(() => this.run(), this.intervalMs).unref();
    });
  }

  private async once(): Promise<void> {
    try {
      const result = await this.sweep();
      this.observe.swept(result);
      if (result.recovered.length > 0)
        this.log.info(
          { recovered: result.recovered },
          `resolve-bot recovered ${plural(result.recovered.length, "webhook delivery", "webhook deliveries")} GitHub could not deliver`,
        );
    } catch (error) {
      this.observe.failed();
      this.log.warn(
        { err: error },
        `resolve-bot could not sweep the app's webhook deliveries; it tries again in ${Math.round(this.intervalMs / 1000)} s: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }
}
