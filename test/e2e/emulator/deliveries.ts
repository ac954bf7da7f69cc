/**
 * The app's webhook deliveries as GitHub records them: every webhook the emulator sends is
 * recorded with the server's answer (or as failed when the server was unreachable, or when a
 * delivery fault dropped it or made it time out), listed newest first by `GET /app/hook/deliveries`
 * for 3 days (routes/deliveries.ts). A delivery id sent again is a redelivery of the same guid.
 */
import { randomUUID } from "node:crypto";
import { deliverWebhook, deliveryHeaders, signWebhook, type DeliveryResult, type WebhookEvent } from "./webhooks.js";
import { clockNow, type EmulatorState, type HookDelivery } from "./state.js";

/** GitHub keeps an app's deliveries this long. */
export const DELIVERY_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;

export interface DeliveryFaultSpec {
  /** `X-GitHub-Event` to match (any when omitted). */
  event?: string;
  action?: string;
  /**
   * `drop`: never sent (GitHub could not connect); `timeout`: sent and carried out by the server,
   * but its answer came too late and GitHub records the delivery as failed.
   */
  mode: "drop" | "timeout";
  /** How many matching deliveries; default 1. */
  times?: number;
}

export interface DeliveryFault {
  readonly hits: number;
  remove(): void;
}

/** What a test gives for a delivery recorded without sending it (the bench's 1,000 deliveries). */
export interface RecordedDeliverySpec {
  event: string;
  action?: string | null;
  payload?: Record<string, unknown>;
  guid?: string;
  statusCode?: number;
  /** Emulator clock, epoch ms; default now. */
  at?: number;
}

interface ActiveFault {
  spec: DeliveryFaultSpec;
  remaining: number;
  hits: number;
}

export class DeliveryLog {
  private readonly faults: ActiveFault[] = [];

  constructor(private readonly state: EmulatorState) {}

  failDeliveries(spec: DeliveryFaultSpec): DeliveryFault {
    const fault: ActiveFault = { spec, remaining: spec.times ?? 1, hits: 0 };
    this.faults.push(fault);
    return {
      get hits() {
        return fault.hits;
      },
      remove: () => {
        const index = this.faults.indexOf(fault);
        if (index >= 0) this.faults.splice(index, 1);
      },
    };
  }

  /** Deliveries GitHub still lists (the last 3 days), newest first. */
  listed(): HookDelivery[] {
    const since = clockNow() - DELIVERY_RETENTION_MS;
    return this.state.deliveries.filter((delivery) => delivery.deliveredAt >= since).sort((a, b) => b.id - a.id);
  }

  /** Sends `event` to `url` as GitHub does, and records the delivery (unreachable: recorded failed, then thrown). */
  async deliver(url: string, event: WebhookEvent, opts: { secret: string; deliveryId?: string }): Promise<DeliveryResult> {
    const deliveryId = opts.deliveryId ?? event.id;
    const action = typeof event.payload.action === "string" ? event.payload.action : null;
    const fault = this.takeFault(event.name, action);
    const body = JSON.stringify(event.payload);
    const at = clockNow();
    const recorded = (answer: { statusCode: number; status: string; headers?: Record<string, string>; body?: string | null }, ms = 0) =>
      this.record({
        guid: deliveryId,
        at,
        duration: ms / 1000,
        event: event.name,
        action,
        payload: event.payload,
        url,
        requestHeaders: deliveryHeaders(event, deliveryId, body, signWebhook(opts.secret, body)),
        ...answer,
      });
    if (fault?.mode === "drop") {
      recorded({ statusCode: 0, status: "failed to connect" });
      return { status: 0, body: "", deliveryId, durationMs: 0, headers: {} };
    }
    let result: DeliveryResult;
    try {
      result = await deliverWebhook(url, event, opts);
    } catch (error) {
      recorded({ statusCode: 0, status: /timed out/.test(String(error)) ? "timed out" : "failed to connect" });
      throw error;
    }
    if (fault?.mode === "timeout") recorded({ statusCode: 0, status: "timed out" }, 10_000);
    else
      recorded(
        {
          statusCode: result.status,
          status: result.status >= 200 && result.status < 400 ? "OK" : `Invalid HTTP Response: ${result.status}`,
          headers: result.headers,
          body: result.body,
        },
        result.durationMs,
      );
    return result;
  }

  /** A delivery recorded as GitHub would have, without sending anything. */
  add(spec: RecordedDeliverySpec): HookDelivery {
    const payload = spec.payload ?? { action: spec.action ?? null, installation: { id: this.state.installation.id } };
    const statusCode = spec.statusCode ?? 200;
    return this.record({
      guid: spec.guid ?? randomUUID(),
      at: spec.at ?? clockNow(),
      duration: 0.01,
      event: spec.event,
      action: spec.action ?? null,
      payload,
      url: "http://127.0.0.1/api/github/webhooks",
      requestHeaders: {},
      statusCode,
      status: statusCode === 0 ? "failed to connect" : statusCode < 400 ? "OK" : `Invalid HTTP Response: ${statusCode}`,
    });
  }

  private record(d: {
    guid: string;
    at: number;
    duration: number;
    event: string;
    action: string | null;
    payload: Record<string, unknown>;
    url: string;
    requestHeaders: Record<string, string>;
    statusCode: number;
    status: string;
    headers?: Record<string, string>;
    body?: string | null;
  }): HookDelivery {
    const installation = d.payload.installation as { id?: number } | undefined;
    const repository = d.payload.repository as { id?: number } | undefined;
    const delivery: HookDelivery = {
      id: this.state.nextId("delivery", 90_000_000_000),
      guid: d.guid,
      deliveredAt: d.at,
      redelivery: this.state.deliveries.some((earlier) => earlier.guid === d.guid),
      duration: d.duration,
      status: d.status,
      statusCode: d.statusCode,
      event: d.event,
      action: d.action,
      installationId: installation?.id ?? null,
      repositoryId: repository?.id ?? null,
      url: d.url,
      requestHeaders: d.requestHeaders,
      payload: structuredClone(d.payload),
      responseHeaders: d.headers ?? {},
      responseBody: d.body ?? null,
    };
    this.state.deliveries.push(delivery);
    return delivery;
  }

  private takeFault(event: string, action: string | null): DeliveryFaultSpec | undefined {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.spec.event === undefined || f.spec.event === event) &&
        (f.spec.action === undefined || f.spec.action === action),
    );
    if (!fault) return undefined;
    fault.remaining--;
    fault.hits++;
    if (fault.remaining === 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault.spec;
  }
}
