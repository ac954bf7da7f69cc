/** Peak RSS of one preview in a fresh process (bench/memory-child.mjs over the app build). */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Corpus } from "./corpus.js";
import { repoRoot } from "./paths.js";
import { log } from "./stats.js";

const run = promisify(execFile);

export interface MemoryRow {
  tool: string;
  corpus: string;
  what: string;
  files: number;
  baseline_mb: number;
  loaded_mb: number;
  peak_mb: number;
  /** Time of the preview in a fresh process (JIT cold, caches empty): execute only, and with fingerprint + diff. */
  cold_compute_ms: number;
  cold_preview_ms: number;
}

export async function memoryOf(tool: string, corpus: Corpus, params: unknown, what: string): Promise<MemoryRow> {
  const root = repoRoot();
  const child = path.join(root, "bench", "memory-child.mjs");
  if (!existsSync(path.join(root, "dist", "src", "core", "execution.js"))) throw new Error("dist/ is missing: run npm run build first");
  log(`memory: ${tool} ${what} on ${corpus.name}`);
  const { stdout } = await run(process.execPath, [child, tool, corpus.dir, JSON.stringify(params)], { cwd: root, maxBuffer: 1 << 26 });
  const r = JSON.parse(stdout.trim().split("\n").pop()!) as {
    files: number;
    baselineMb: number;
    loadedMb: number;
    peakMb: number;
    hwmReset: boolean;
    computeMs: number;
    previewMs: number;
    error?: unknown;
  };
  if (r.error) throw new Error(`${tool} failed in the memory child: ${JSON.stringify(r.error)}`);
  if (!r.hwmReset) log("memory: could not reset VmHWM (/proc/self/clear_refs); peak RSS may include the parent's");
  const peak = r.peakMb;
  return {
    tool,
    corpus: corpus.name,
    what,
    files: r.files,
    baseline_mb: Math.round(r.baselineMb),
    loaded_mb: Math.round(r.loadedMb),
    peak_mb: Math.round(peak),
    cold_compute_ms: Math.round(r.computeMs),
    cold_preview_ms: Math.round(r.previewMs),
  };
}
