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

/** The peers in a different order each run (rotation), so drift spreads over all of them. */
export function rotate<T>(items: readonly T[], run: number): T[] {
  const k = items.length === 0 ? 0 : run % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
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
