/**
 * Lost webhooks, recovered: GitHub never redelivers by itself, so the server sweeps the App's
 * deliveries (`GET /app/hook/deliveries`, App JWT, newest first, paged by `cursor` in the Link
 * header) back to where the last sweep stopped, groups them by `guid` (an event's first delivery
 * and its redeliveries), and re-submits each event it handles that no attempt delivered: its
 * payload comes from `GET /app/hook/deliveries/{id}` and goes through the same intake as a
 * webhook, under the guid (the delivery id the webhook had), so one that did arrive is refused by
 * the queue's dedupe and never runs twice.
 *
 * Why not `POST …/deliveries/{id}/attempts` (GitHub's redelivery): it would send the webhook to the
 * URL that just failed (often this server's public address through a proxy that may still be
 * down), answer 202 without saying whether it arrived, and need another sweep to find out; the
 * payload read here is GitHub's own, authenticated by the App JWT, so it needs no signature.
 * Why not `status=failure`: it lists 4xx/5xx only, not deliveries that got no answer at all
 * (status code 0: unreachable, timed out), the ones a server that was down misses.
 */
import type { QueueNotes } from "../../jobs/job-queue.js";
import { INGRESS_EVENTS } from "./ingress.js";

/** A delivery as the list gives it (GitHub's "Simple webhook delivery"). */
export interface DeliveryItem {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** Where the last sweep stopped: every delivery before `through` was looked at; `handled` were re-submitted at or after it. */
export interface SweepCursor {
  /** Epoch ms (GitHub's `delivered_at` clock). */
  through: number;
  /** Guids re-submitted whose deliveries are at or after `through`, so the overlap costs no detail call again. */
  handled: string[];
}

export const CURSOR_NOTE = "github-deliveries-cursor";
/** GitHub keeps deliveries for 3 days: nothing older can be listed. */
export const RETENTION_MS = 3 * 24 * 3_600_000;
/** A fresh data directory's first sweep looks back this far (not 3 days: a new install would answer old comments). */
export const FIRST_LOOKBACK_MS = 3_600_000;
/**
 * Each sweep looks again at the last minute before the newest delivery it saw: a delivery is
 * listed once its attempt ended (up to GitHub's 10 s timeout later), so it may appear behind newer ones.
 */
export const OVERLAP_MS = 60_000;
/** GitHub's largest page. */
export const PER_PAGE = 100;

const HANDLED_EVENTS = new Set<string>(INGRESS_EVENTS);

/** An attempt GitHub counts as delivered (`status=success`: 200–399); 0 is no answer (unreachable, timed out). */
export function delivered(item: DeliveryItem): boolean {
  return item.status_code >= 200 && item.status_code < 400;
}

export function handledEvent(item: DeliveryItem): boolean {
  return HANDLED_EVENTS.has(`${item.event}.${item.action ?? ""}`);
}

/**
 * The events to recover among the listed deliveries: grouped by guid, those of an event ingress
 * reads whose attempts all failed and that an earlier sweep did not re-submit; each as its
 * newest attempt (the one whose payload is read), oldest event first.
 */
export function lostDeliveries(items: readonly DeliveryItem[], handled: ReadonlySet<string> = new Set()): DeliveryItem[] {
  const groups = new Map<string, DeliveryItem[]>();
  for (const item of items) groups.set(item.guid, [...(groups.get(item.guid) ?? []), item]);
  const lost: DeliveryItem[] = [];
  for (const [guid, attempts] of groups) {
    if (handled.has(guid) || attempts.some(delivered) || !attempts.some(handledEvent)) continue;
    lost.push(attempts.reduce((newest, item) => (item.id > newest.id ? item : newest)));
  }
  return lost.sort((a, b) => a.id - b.id);
}

/** The cursor as stored, or undefined when there is none or it cannot be read (a fresh data directory). */
export function readCursor(text: string | undefined): SweepCursor | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SweepCursor>;
    if (typeof value.through !== "number" || !Array.isArray(value.handled)) return undefined;
    return { through: value.through, handled: value.handled.filter((guid): guid is string => typeof guid === "string") };
  } catch {
    return undefined;
  }
}

/** How far back a sweep at `now` looks: to the cursor, never past GitHub's 3 days; an hour without one. */
export function sweepBound(cursor: SweepCursor | undefined, now: number): number {
  return Math.max(cursor?.through ?? now - FIRST_LOOKBACK_MS, now - RETENTION_MS);
}

/** The cursor after a sweep that looked at `seen` (newer than `bound`) and re-submitted `resubmitted`. */
export function nextCursor(bound: number, seen: readonly DeliveryItem[], resubmitted: readonly DeliveryItem[]): SweepCursor {
  const newest = Math.max(bound, ...seen.map((item) => Date.parse(item.delivered_at)));
  const through = Math.max(bound, newest - OVERLAP_MS);
  const handled = resubmitted.filter((item) => Date.parse(item.delivered_at) >= through).map((item) => item.guid);
  return { through, handled: [...new Set(handled)] };
}

/** A webhook as ingress reads it. */
export interface RecoveredDelivery {
  id: string;
  name: string;
  payload: Record<string, unknown>;
}

/** What a sweep needs of an App-authenticated Octokit (JWT). */
export interface DeliveriesClient {
  paginate: {
    iterator(route: "GET /app/hook/deliveries", parameters: { per_page: number }): AsyncIterable<{ data: DeliveryItem[] }>;
  };
  request(
    route: "GET /app/hook/deliveries/{delivery_id}",
    parameters: { delivery_id: number },
  ): Promise<{ data: { event: string; guid: string; request: { payload: Record<string, unknown> | null } } }>;
}

export interface SweepLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface SweepOptions {
  octokit: DeliveriesClient;
  notes: QueueNotes;
  /** The intake: true when the delivery was recorded now, false when it had been (it arrived after all). */
  submit: (delivery: RecoveredDelivery) => Promise<boolean | undefined>;
  log: SweepLog;
  now?: number;
}

export interface SweepResult {
  /** List pages read. */
  pages: number;
  /** Deliveries looked at (newer than the bound). */
  listed: number;
  /** Lost events whose payload was read. */
  lost: number;
  /** Of those, recorded now (the others had arrived). */
  recovered: Array<{ guid: string; event: string }>;
  /** Deliveries skipped with a warning (gone, or a payload ingress cannot read). */
  skipped: number;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * One sweep: lists back to the cursor, re-submits what was lost, then stores the new cursor.
 * Throws when GitHub or the queue fails (the cursor stays, so the next sweep does it again; what
 * this one recorded is refused as a repeat then).
 */
export async function sweepDeliveries(options: SweepOptions): Promise<SweepResult> {
  const { octokit, notes, submit, log } = options;
  const now = options.now ?? Date.now();
  const cursor = readCursor(await notes.get(CURSOR_NOTE));
  const bound = sweepBound(cursor, now);
  const seen: DeliveryItem[] = [];
  let pages = 0;
  // Newest first: the first delivery older than the bound ends the sweep, and with it the paging.
  pages: for await (const { data } of octokit.paginate.iterator("GET /app/hook/deliveries", { per_page: PER_PAGE })) {
    pages++;
    for (const item of data) {
      if (Date.parse(item.delivered_at) < bound) break pages;
      seen.push(item);
    }
  }
  const lost = lostDeliveries(seen, new Set(cursor?.handled ?? []));
  const result: SweepResult = { pages, listed: seen.length, lost: lost.length, recovered: [], skipped: 0 };
  const resubmitted: DeliveryItem[] = [];
  for (const item of lost) {
    let payload: Record<string, unknown> | null;
    try {
      payload = (await octokit.request("GET /app/hook/deliveries/{delivery_id}", { delivery_id: item.id })).data.request.payload;
    } catch (error) {
      // Gone (past GitHub's window, or the app's hook was replaced): nothing a later sweep could read.
      if (statusOf(error) !== 404 && statusOf(error) !== 410) throw error;
      payload = null;
    }
    resubmitted.push(item);
    if (!payload) {
      result.skipped++;
      log.warn({ delivery: item.id, guid: item.guid, event: item.event }, "a lost webhook delivery has no payload on GitHub any more");
      continue;
    }
    let recorded: boolean | undefined;
    try {
      recorded = await submit({ id: item.guid, name: item.event, payload });
    } catch (error) {
      // A payload ingress cannot read would fail every sweep the same way: said once, then passed.
      if (!(error instanceof TypeError)) throw error;
      result.skipped++;
      log.warn({ err: error, delivery: item.id, guid: item.guid, event: item.event }, "a lost webhook delivery could not be read");
      continue;
    }
    if (recorded) result.recovered.push({ guid: item.guid, event: `${item.event}.${item.action ?? ""}` });
  }
  await notes.set(CURSOR_NOTE, JSON.stringify(nextCursor(bound, seen, resubmitted)));
  return result;
}
