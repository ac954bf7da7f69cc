/**
 * What tests observe and steer about traffic: the request log, injected faults, and hooks that
 * run before a matching request is handled (e.g. a concurrent push between a read and a write).
 */
import { compilePattern, type RequestPattern } from "./router.js";

export interface LogEntry {
  seq: number;
  method: string;
  /** Decoded path without the `/api/v3` prefix. */
  path: string;
  query: Record<string, string>;
  status: number;
  requestBody: unknown;
  /** Parsed JSON response body (undefined for raw/empty responses). */
  responseBody: unknown;
  responseContentType: string | undefined;
  /** `METHOD /openapi/{template}` of the operation that answered; undefined when no route matched. */
  operation: string | undefined;
  /** The response came from an injected fault. */
  fault: boolean;
  timestamp: Date;
  durationMs: number;
  /** Set for git's smart HTTP requests (`/<owner>/<repo>.git/...`): the service, and the bytes sent back. */
  git?: { service: string | undefined; responseBytes: number };
}

export interface FaultSpec {
  /** HTTP method, or `*` / undefined for any. */
  method?: string;
  path: RequestPattern;
  /** Answer with this status (an error JSON unless `body` is given). Without it the fault only delays. */
  status?: number;
  delayMs?: number;
  /** How many matching requests it affects; default 1. Use Infinity for a standing fault. */
  times?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A 403 with `retry-after` and GitHub's secondary-rate-limit message. */
  secondaryRateLimit?: { retryAfter: number };
  /**
   * When the fault answers: `before` (default) instead of carrying the request out; `after` once
   * the request was carried out (the write happened, the answer was lost). GitHub does both.
   */
  when?: "before" | "after";
}

export interface Fault {
  readonly spec: FaultSpec;
  /** Requests it has affected so far. */
  readonly hits: number;
  remove(): void;
}

export interface HookRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export type Hook = (req: HookRequest) => void | Promise<void>;

export const SECONDARY_RATE_LIMIT_MESSAGE =
  "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID EMULATOR.";

interface ActiveFault {
  spec: FaultSpec;
  matches: (method: string, path: string) => boolean;
  remaining: number;
  hits: number;
}

interface ActiveHook {
  matches: (method: string, path: string) => boolean;
  fn: Hook;
  once: boolean;
}

export class Traffic {
  private entries: LogEntry[] = [];
  private seq = 0;
  private faults: ActiveFault[] = [];
  private hooks: ActiveHook[] = [];

  // ---- log ----
  record(entry: Omit<LogEntry, "seq">): LogEntry {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    return full;
  }

  log(): LogEntry[] {
    return [...this.entries];
  }

  clearLog(): void {
    this.entries = [];
  }

  // ---- faults ----
  injectFault(spec: FaultSpec): Fault {
    const pattern = typeof spec.path === "string" && spec.method && !/^\S+\s/.test(spec.path) ? `${spec.method} ${spec.path}` : spec.path;
    const active: ActiveFault = { spec, matches: compilePattern(pattern), remaining: spec.times ?? 1, hits: 0 };
    this.faults.push(active);
    return {
      spec,
      get hits() {
        return active.hits;
      },
      remove: () => {
        this.faults = this.faults.filter((f) => f !== active);
      },
    };
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** The fault that applies to this request (consuming one of its `times`), if any. */
  takeFault(method: string, path: string): FaultSpec | undefined {
    const f = this.faults.find((x) => x.remaining > 0 && x.matches(method, path));
    if (!f) return undefined;
    f.remaining--;
    f.hits++;
    if (f.remaining <= 0) this.faults = this.faults.filter((x) => x !== f);
    return f.spec;
  }

  // ---- hooks ----
  /** Run `fn` before the next matching request is handled (once). */
  onceBefore(pattern: RequestPattern, fn: Hook): () => void {
    return this.addHook(pattern, fn, true);
  }

  /** Run `fn` before every matching request until the returned disposer is called. */
  onBefore(pattern: RequestPattern, fn: Hook): () => void {
    return this.addHook(pattern, fn, false);
  }

  private addHook(pattern: RequestPattern, fn: Hook, once: boolean): () => void {
    const hook: ActiveHook = { matches: compilePattern(pattern), fn, once };
    this.hooks.push(hook);
    return () => {
      this.hooks = this.hooks.filter((h) => h !== hook);
    };
  }

  async runHooks(req: HookRequest): Promise<void> {
    const due = this.hooks.filter((h) => h.matches(req.method, req.path));
    this.hooks = this.hooks.filter((h) => !(h.once && due.includes(h)));
    for (const h of due) await h.fn(req);
  }
}
