/**
 * ast-edit peers, on the same files and the same rewrites:
 * - bot:         resolve-bot's preview compute in-process — the real `ast_edit` tool run by
 *                executeTool over an FsWorkspace (DirectoryWorkspace's reading over a walked
 *                listing: list, resolve paths, read + UTF-8/binary checks,
 *                prefilter, parse, match, rewrite, build the ChangeSet). Caches cleared before
 *                every run (first-run numbers). With nothing to prefilter on, the CLI walks the
 *                directory in place instead (src/tools/ast-grep/in-place.ts). Diff rendering and
 *                fingerprint are NOT in it; "bot+diff" adds them (all of core/preview except the
 *                store push).
 * - bot (mem):   the same over a MemoryWorkspace (what production has: the tarball is in memory).
 * - ast-grep:    the ast-grep CLI, execFile (no shell), default threads: `run -p P -r O -l ts
 *                --json=compact .` (computes the rewrites, writes nothing) and `... -U .` on a fresh
 *                copy (rewrites the files). The faster of the two is the CLI's number.
 * - jscodeshift: see jscodeshift.ts.
 * - floor:       list the directory + read every file (synchronously, the fastest way here) + the
 *                same text prefilter.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { langForPath } from "../src/tools/ast-grep/languages.js";
import astEditFactory from "../src/tools/ast-edit.js";
import { createToolAPI, executeTool } from "../src/core/execution.js";
import { fingerprintAction } from "../src/core/fingerprint.js";
import type { AnyToolDefinition } from "../src/core/tool.js";
import { clearRewriteCaches, compileOp, mayMatchOp, prepareOp } from "../src/tools/ast-grep/rewrite.js";
import { renderDiff } from "../src/workspace/diff.js";
import { MemoryWorkspace, type Workspace } from "../src/workspace/workspace.js";
import { FsWorkspace, walk } from "./fs-workspace.js";
import { scratchCopy, type Corpus } from "./corpus.js";
import {
  consoleLogToDebug,
  newErrorToBenchError,
  runJscodeshift,
  strictUndefinedToLooseNull,
  type JscodeshiftTransform,
} from "./jscodeshift.js";
import { collectGarbage, log, median, shuffled, timed } from "./stats.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface Rewrite {
  id: string;
  frequency: string;
  pat: string;
  out: string;
  /** The equivalent jscodeshift transform; none for the row outside the headline. */
  jscodeshift: JscodeshiftTransform | null;
  /** Counted in the headline sums (the issue's rare / medium / common rewrites). */
  headline: boolean;
}

export const REWRITES: readonly Rewrite[] = [
  {
    id: "console.log",
    frequency: "rare",
    pat: "console.log($$$A)",
    out: "logger.debug($$$A)",
    jscodeshift: consoleLogToDebug,
    headline: true,
  },
  {
    id: "new Error",
    frequency: "medium",
    pat: "new Error($$$A)",
    out: "new BenchError($$$A)",
    jscodeshift: newErrorToBenchError,
    headline: true,
  },
  {
    id: "=== undefined",
    frequency: "common",
    pat: "$A === undefined",
    out: "$A == null",
    jscodeshift: strictUndefinedToLooseNull,
    headline: true,
  },
  // The worst case for the bot: no word and no token chain to filter on, so every file is parsed,
  // as the CLI parses them. Shown for what it says about prefilter-proof patterns, not summed.
  { id: "&& member", frequency: "every file parsed", pat: "$A && $A.$B", out: "$A?.$B", jscodeshift: null, headline: false },
];

export function astGrepBinary(): string {
  const pkg = path.dirname(require.resolve("@ast-grep/cli/package.json"));
  // The platform package holds the real binary; @ast-grep/cli's own bin is a Node launcher around it.
  try {
    return path.join(path.dirname(require.resolve(`@ast-grep/cli-${process.platform}-${process.arch}-gnu/package.json`)), "ast-grep");
  } catch {
    return path.join(pkg, "ast-grep");
  }
}

export async function astGrepVersion(): Promise<string> {
  const { stdout } = await run(astGrepBinary(), ["--version"]);
  return stdout.trim();
}

let tool: AnyToolDefinition | undefined;
async function astEditTool(): Promise<AnyToolDefinition> {
  tool ??= await astEditFactory(createToolAPI());
  return tool;
}

export interface BotOutput {
  /** Rewritten text by path, for the files the change set writes. */
  files: Map<string, string>;
  replacements: number;
  /** Files the bot named as not searched (over the size limit, not valid UTF-8): none on the corpus. */
  skipped: string[];
}

async function botPreview(workspace: Workspace, rewrite: Rewrite, withDiff: boolean): Promise<BotOutput & { diffChars: number }> {
  const execution = await executeTool(await astEditTool(), { pat: [rewrite.pat], out: [rewrite.out] }, workspace, "bench");
  if (execution.result.isError) throw new Error(`ast_edit failed: ${JSON.stringify(execution.result.content)}`);
  const action = execution.actions[0];
  const files = new Map<string, string>();
  let diffChars = 0;
  if (action?.changes) {
    for (const change of action.changes.changes()) {
      if (change.kind === "write") files.set(change.path, Buffer.from(change.content).toString("utf8"));
    }
    if (withDiff) {
      await fingerprintAction(action);
      diffChars = (await renderDiff(action.changes)).length;
    }
  }
  const details = (action?.details ?? { replacements: 0 }) as { replacements: number };
  // With every matching file skipped nothing is pushed; the result's details still name them.
  const skipped = (((execution.result.details ?? {}) as { skipped?: Array<{ path: string }> }).skipped ?? []).map((file) => file.path);
  return { files, replacements: details.replacements, skipped, diffChars };
}

/**
 * The multi-language row: one pattern, no --lang, over real code in five languages (Debian's
 * packages, as the parity tests use): the CLI tries it in every file's language, and so does the bot.
 */
export const MULTI_LANGUAGE_REWRITES: readonly Rewrite[] = [
  { id: "len == 0", frequency: "5 languages, no --lang", pat: "len($A) == 0", out: "is_empty($A)", jscodeshift: null, headline: false },
];

function cliArgs(rewrite: Rewrite, mode: "json" | "update", lang: string | undefined): string[] {
  return ["run", "-p", rewrite.pat, "-r", rewrite.out, ...(lang ? ["-l", lang] : []), mode === "json" ? "--json=compact" : "-U", "."];
}

/** Runs the CLI; its exit status 1 with nothing on stderr means "no match", which is not a failure. */
async function runCli(dir: string, args: string[]): Promise<string> {
  try {
    return (await run(astGrepBinary(), args, { cwd: dir, maxBuffer: 1 << 30 })).stdout;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code === 1 && !failed.stderr) return failed.stdout ?? "";
    throw error;
  }
}

async function cliJson(dir: string, rewrite: Rewrite, lang: string | undefined): Promise<number> {
  return (await runCli(dir, cliArgs(rewrite, "json", lang))).length;
}

/** Writes dirty pages back (`sync`, where there is one) and then waits a second. */
async function settleAfterWrites(): Promise<void> {
  await run("sync", []).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

async function cliUpdate(dir: string, rewrite: Rewrite, lang: string | undefined): Promise<void> {
  await runCli(dir, cliArgs(rewrite, "update", lang));
}

/** The floor: list + read every file the CLI has a language for + the prefilter the bot uses. Returns how many files pass. */
async function floor(dir: string, rewrite: Rewrite): Promise<number> {
  const op = compileOp(rewrite.pat, rewrite.out);
  const files = (await walk(dir)).flatMap((file) => {
    const lang = langForPath(file);
    return lang === undefined ? [] : [{ file, lang }];
  });
  // Synchronous reads in a loop: the fastest way Node reads many small cached files (bench/README.md).
  const texts = files.map(({ file }) => readFileSync(path.join(dir, file), "utf8"));
  let pass = 0;
  texts.forEach((text, i) => {
    const { lang } = files[i]!;
    prepareOp(op, lang);
    if (mayMatchOp(op, lang, text)) pass++;
  });
  return pass;
}

/** Files the CLI's -U run changed, by path, with their new text. */
async function changedByCli(original: string, updated: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of (await walk(original)).sort()) {
    const [before, after] = await Promise.all([readFile(path.join(original, file), "utf8"), readFile(path.join(updated, file), "utf8")]);
    if (before !== after) out.set(file, after);
  }
  return out;
}

export interface AstEditRow {
  corpus: string;
  rewrite: string;
  frequency: string;
  /** Counted in the headline sums. */
  headline: boolean;
  pat: string;
  out: string;
  /** Files the bot rewrites / replacements. */
  files_changed: number;
  replacements: number;
  /** Files that pass the text prefilter (i.e. are parsed). */
  prefilter_pass: number;
  /**
   * Files whose output differs between the bot and the CLI's -U run (must be 0), not counting the
   * files the bot named as not searched (none on the corpus: no file is over the limits).
   */
  differing_files_vs_cli: number;
  /** Files the bot named as not searched (over the size limit, not valid UTF-8). */
  skipped_files: number;
  jscodeshift_matches: number | null;
  jscodeshift_files_changed: number | null;
  jscodeshift_parse_errors: number | null;
  ms: {
    bot: number;
    bot_with_diff: number;
    bot_memory_ws: number;
    bot_replay: number;
    ast_grep_cli: number;
    ast_grep_cli_json: number;
    ast_grep_cli_update: number;
    jscodeshift: number | null;
    floor: number;
  };
  samples: Record<string, number[]>;
}

export async function benchAstEdit(
  corpus: Corpus,
  workDir: string,
  runs: number,
  jscodeshiftRuns: number,
  withJscodeshift: boolean,
  rewrites: readonly Rewrite[] = REWRITES,
  /** The CLI's --lang; null: none (each file's language by extension, as the bot does). */
  cliLang: string | null = "ts",
): Promise<AstEditRow[]> {
  const lang = cliLang ?? undefined;
  const rows: AstEditRow[] = [];
  const files = (await walk(corpus.dir)).filter((file) => (lang === "ts" ? file.endsWith(".ts") : langForPath(file) !== undefined)).sort();
  const memoryFiles = new Map<string, Uint8Array>();
  for (const file of files) memoryFiles.set(file, await readFile(path.join(corpus.dir, file)));

  for (const rewrite of rewrites) {
    log(`ast-edit ${corpus.name}: ${rewrite.pat} → ${rewrite.out}`);
    // Parity: one bot preview vs one CLI -U run on a fresh copy.
    clearRewriteCaches();
    const bot = await botPreview(new FsWorkspace(corpus.dir), rewrite, false);
    const scratch = await scratchCopy(corpus, workDir);
    await cliUpdate(scratch, rewrite, lang);
    const cli = await changedByCli(corpus.dir, scratch);
    let differing = 0;
    const skipped = new Set(bot.skipped);
    for (const file of new Set([...bot.files.keys(), ...cli.keys()])) {
      if (!skipped.has(file) && bot.files.get(file) !== cli.get(file)) differing++;
    }
    for (const file of skipped) if (bot.files.has(file)) throw new Error(`ast_edit reported ${file} as skipped but changed it`);
    log(
      `  ≠ CLI: ${differing} files; not searched by the bot: ${skipped.size}${skipped.size > 0 ? ` (${[...skipped].slice(0, 5).join(", ")})` : ""}`,
    );
    const prefilterPass = await floor(corpus.dir, rewrite);

    // Warm-up (JIT, page cache) for every peer, then interleaved timed runs.
    const samples: Record<string, number[]> = {
      bot: [],
      bot_with_diff: [],
      bot_memory_ws: [],
      bot_replay: [],
      cli_json: [],
      cli_update: [],
      floor: [],
    };
    const peers: Array<{ name: string; go: () => Promise<void> }> = [
      {
        name: "bot",
        go: async () => {
          clearRewriteCaches();
          samples.bot!.push((await timed(() => botPreview(new FsWorkspace(corpus.dir), rewrite, false))).ms);
          // Replay: what /resolve apply re-runs in the same process right after (trees and results cached).
          samples.bot_replay!.push((await timed(() => botPreview(new FsWorkspace(corpus.dir), rewrite, false))).ms);
        },
      },
      {
        name: "bot_with_diff",
        go: async () => {
          clearRewriteCaches();
          samples.bot_with_diff!.push((await timed(() => botPreview(new FsWorkspace(corpus.dir), rewrite, true))).ms);
        },
      },
      {
        name: "bot_memory_ws",
        go: async () => {
          clearRewriteCaches();
          const workspace = new MemoryWorkspace(memoryFiles);
          samples.bot_memory_ws!.push((await timed(() => botPreview(workspace, rewrite, false))).ms);
        },
      },
      { name: "cli_json", go: async () => void samples.cli_json!.push((await timed(() => cliJson(corpus.dir, rewrite, lang))).ms) },
      {
        name: "cli_update",
        go: async () => {
          const dir = await scratchCopy(corpus, workDir);
          samples.cli_update!.push((await timed(() => cliUpdate(dir, rewrite, lang))).ms);
          // Copying the corpus and rewriting it leave the machine busy for a while (dirty pages,
          // freed inodes): measured, the next peer ran up to 1.5× slower. Let it settle outside
          // the timed region.
          await settleAfterWrites();
        },
      },
      { name: "floor", go: async () => void samples.floor!.push((await timed(() => floor(corpus.dir, rewrite))).ms) },
    ];
    for (const peer of peers) await peer.go();
    for (const key of Object.keys(samples)) samples[key] = [];
    for (let r = 0; r < runs; r++) for (const peer of shuffled(peers, r)) await peer.go();
    clearRewriteCaches();
    collectGarbage();

    let js: { ms: number; matches: number; changed: number; errors: number } | undefined;
    if (withJscodeshift && rewrite.jscodeshift !== null) {
      const times: number[] = [];
      let result = { matches: 0, changedFiles: 0, parseErrors: 0 };
      for (let r = 0; r < jscodeshiftRuns; r++) {
        const t = await timed(() => runJscodeshift(corpus.dir, files, rewrite.jscodeshift!));
        times.push(t.ms);
        result = t.value;
      }
      samples.jscodeshift = times;
      js = { ms: median(times), matches: result.matches, changed: result.changedFiles, errors: result.parseErrors };
    }
    const cliJsonMs = median(samples.cli_json!);
    const cliUpdateMs = median(samples.cli_update!);
    rows.push({
      corpus: corpus.name,
      rewrite: rewrite.id,
      frequency: rewrite.frequency,
      headline: rewrite.headline,
      pat: rewrite.pat,
      out: rewrite.out,
      files_changed: bot.files.size,
      replacements: bot.replacements,
      prefilter_pass: prefilterPass,
      differing_files_vs_cli: differing,
      skipped_files: skipped.size,
      jscodeshift_matches: js?.matches ?? null,
      jscodeshift_files_changed: js?.changed ?? null,
      jscodeshift_parse_errors: js?.errors ?? null,
      ms: {
        bot: median(samples.bot!),
        bot_with_diff: median(samples.bot_with_diff!),
        bot_memory_ws: median(samples.bot_memory_ws!),
        bot_replay: median(samples.bot_replay!),
        ast_grep_cli: Math.min(cliJsonMs, cliUpdateMs),
        ast_grep_cli_json: cliJsonMs,
        ast_grep_cli_update: cliUpdateMs,
        jscodeshift: js?.ms ?? null,
        floor: median(samples.floor!),
      },
      samples,
    });
  }
  return rows;
}
