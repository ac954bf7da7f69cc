// Peak memory of one preview in a fresh process (plain ESM over the app build in dist/, so the
// smoke test can spawn it too). Usage: node bench/memory-child.mjs <tool> <dir> <json params>
// Prints one JSON line: baseline and peak RSS (MB), and the cold first-run time (ms).
// The corpus is loaded into a MemoryWorkspace first, as production holds the PR's tarball in memory;
// "preview" is what core/preview does before the store push: execute, fingerprint, renderDiff.
import { readFileSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { createToolAPI, executeTool } from "../dist/src/core/execution.js";
import { fingerprintAction } from "../dist/src/core/fingerprint.js";
import { renderDiff } from "../dist/src/workspace/diff.js";
import { MemoryWorkspace } from "../dist/src/workspace/workspace.js";
import astEdit from "../dist/src/tools/ast-edit.js";
import move from "../dist/src/tools/move.js";
import renameSymbol from "../dist/src/tools/rename-symbol.js";

const [toolName, dir, paramsJson] = process.argv.slice(2);
const factories = { ast_edit: astEdit, move, rename_symbol: renameSymbol };

function hwmMb() {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function walk(root, rel = "") {
  const entries = await readdir(path.join(root, rel), { withFileTypes: true });
  const out = [];
  for (const entry of entries) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await walk(root, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

// Linux keeps the peak RSS (maxRSS, VmHWM) across fork + exec: a child of the big bench process
// starts with the parent's peak. Writing 5 to clear_refs resets VmHWM to the current RSS.
let hwmReset;
try {
  writeFileSync("/proc/self/clear_refs", "5");
  hwmReset = true;
} catch {
  hwmReset = false;
}
const tool = await factories[toolName](createToolAPI());
const baselineMb = process.memoryUsage().rss / 1024 / 1024;
const files = new Map();
for (const file of await walk(dir)) files.set(file, await readFile(path.join(dir, file)));
const workspace = new MemoryWorkspace(files);
const loadedMb = process.memoryUsage().rss / 1024 / 1024;
const start = process.hrtime.bigint();
const execution = await executeTool(tool, JSON.parse(paramsJson), workspace, "bench-memory");
const computeMs = Number(process.hrtime.bigint() - start) / 1e6;
let diffChars = 0;
for (const action of execution.actions) {
  await fingerprintAction(action);
  if (action.changes) diffChars += (await renderDiff(action.changes)).length;
}
const previewMs = Number(process.hrtime.bigint() - start) / 1e6;
// maxRSS only when VmHWM could not be reset (then it may include the parent's peak).
const peakMb = hwmReset && hwmMb() !== undefined ? hwmMb() : process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  `${JSON.stringify({ tool: toolName, files: files.size, baselineMb, loadedMb, peakMb, hwmReset, computeMs, previewMs, diffChars, error: execution.result.isError ? execution.result.content : undefined })}\n`,
);
