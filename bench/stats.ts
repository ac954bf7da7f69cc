/** Timing helpers: medians, interleaving, formatting. Absolute times are noise; ratios matter. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds taken by `fn`, with a GC first when node runs with --expose-gc. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  collectGarbage();
  const start = process.hrtime.bigint();
  const value = await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, value };
}

export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/**
 * The peers in a different order each run (a seeded shuffle: reproducible), so drift, and
 * whatever one peer leaves behind for the next, spreads over all of them. A rotation would not
 * do: it keeps the cyclic order, so the same peer always follows the same one.
 */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = (seed * 2654435761 + 1) >>> 0;
  const random = (): number => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** a / b rounded for display and JSON (null when either is missing). */
export function ratio(a: number | undefined, b: number | undefined, digits = 2): number | null {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return round(a / b, digits);
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "–";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(1)} ms`;
}

export function fmtRatio(value: number | null | undefined, suffix = "×"): string {
  return value === null || value === undefined ? "–" : `${value}${suffix}`;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
