/**
 * A pending record travels inside its check run: a hidden HTML comment at the end of the summary,
 * gzip + base64 so that large change sets still fit GitHub's 65,535-character limit.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import type { PendingRecord } from "../../../core/store.js";

const MARKER = /<!-- resolve-bot:record:([A-Za-z0-9+/=]+) -->/;
/** Keep room for the human part of the summary. */
const MAX_MARKER = 50_000;

export function encodeRecord(record: PendingRecord): string {
  let encoded = gzipSync(JSON.stringify(record)).toString("base64");
  if (encoded.length > MAX_MARKER) {
    // Per-file fingerprints only name files in stale messages; the digest still guards the change.
    encoded = gzipSync(JSON.stringify({ ...record, files: {} })).toString("base64");
  }
  if (encoded.length > MAX_MARKER) throw new Error(`The pending action "${record.label}" is too large to record in a check run.`);
  return `<!-- resolve-bot:record:${encoded} -->`;
}

export function decodeRecord(summary: string | null | undefined): PendingRecord | undefined {
  const match = MARKER.exec(summary ?? "");
  if (!match) return undefined;
  try {
    return JSON.parse(gunzipSync(Buffer.from(match[1]!, "base64")).toString("utf8")) as PendingRecord;
  } catch {
    return undefined;
  }
}

/**
 * The request step that resolved an action, hidden in its completed run's summary: a request run
 * again after an interruption finds its own discard or apply there instead of resolving the next
 * action too. Percent-encoded, so no id can close the HTML comment.
 */
const STEP_MARKER = /<!-- resolve-bot:resolved-by:(\S+) -->/;

export function encodeStep(step: string | undefined): string {
  return step === undefined ? "" : `\n\n<!-- resolve-bot:resolved-by:${encodeURIComponent(step)} -->`;
}

export function decodeStep(summary: string | null | undefined): string | undefined {
  const match = STEP_MARKER.exec(summary ?? "");
  return match ? decodeURIComponent(match[1]!) : undefined;
}
