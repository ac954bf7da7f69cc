/**
 * resolve-bot benchmark (issue 4): ast-edit vs the ast-grep CLI, jscodeshift and the read floor;
 * rename_symbol / move vs the raw TypeScript language service; GitHub API calls per preview and
 * apply; peak memory of a preview. Prints a markdown table and writes results.json.
 * Absolute times on a shared machine are noise: read the ratios (see bench/README.md).
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { astGrepBinary, astGrepVersion, benchAstEdit, MULTI_LANGUAGE_REWRITES, REWRITES, type AstEditRow } from "./ast-edit.js";
import { benchApi, type ApiRow } from "./api-cost.js";
import { benchIntake } from "./intake.js";
import type { IntakeFigures } from "../test/e2e/ack-under-load.js";
import { actionMarkdown, benchAction, type ActionRow } from "./action.js";
import { benchMcp, type McpRow } from "./mcp.js";
import { benchRepoSizes, repoSizeMarkdown, type RepoSizeRow } from "./repo-size.js";
import { defaultWorkDir, packageVersion, prepareAstCorpora, prepareMultiLanguageCorpus, prepareTsProject } from "./corpus.js";
import { jscodeshiftVersion } from "./jscodeshift.js";
import { memoryOf, type MemoryRow } from "./memory.js";
import { parseOptions, type BenchOptions } from "./options.js";
import { MOVE_PAIRS, RENAME, benchTs, benchTsMonorepo, type TsRow } from "./ts-service.js";
import { fmtMs, fmtRatio, log, ratio } from "./stats.js";

/** GitHub tree-chunk size of the commit writer (src/forges/github/edits/commit-writer.ts TREE_CHUNK_ENTRIES). */
export const TREE_CHUNK_ENTRIES = 150;

export const TARGETS = {
  speedup_vs_ast_grep_cli: 2.5,
  speedup_vs_jscodeshift: 40,
  ratio_to_floor: 3,
  rename_ratio_to_language_service: 1.2,
  move_ratio_to_program_load: 2,
  preview_calls: 4,
  preview_writes: 2,
  apply_calls: 7,
  apply_writes: 5,
  ast_edit_peak_mb: 300,
  intake_ack_p99_ms: 100,
  /** Repository size (issue 19): bot ÷ floor, first command on a head and second on the same head; peak RSS of all processes. */
  repo_size_first_ratio: 1.5,
  repo_size_second_ratio: 1.0,
  repo_size_peak_rss_mb: 1024,
  /** The GitHub Action (issue 28): a cold preview on the 365-file repository ÷ the server's first command on a head; the JS bundle (MB = 2^20 bytes, as the build prints it). */
  action_cold_ratio: 2,
  action_bundle_mb: 15,
  /** MCP (issue 35): a preview through `resolve-bot mcp` ÷ the same through the CLI, cold (fresh processes) and warm (a running server vs main() in process). */
  mcp_preview_ratio: 1.1,
};

export interface BenchResults {
  generated_at: string;
  machine: { cpus: number; cpu_model: string; node: string; platform: string; load_avg: number[] };
  settings: { runs: number; ts_runs: number; jscodeshift_runs: number; sections: string[] };
  versions: Record<string, string>;
  corpus: { name: string; description: string; files: number; bytes: number };
  ast_edit?: {
    speedup_vs_ast_grep_cli: number | null;
    speedup_vs_jscodeshift: number | null;
    ratio_to_floor: number | null;
    worst_speedup_vs_ast_grep_cli: number | null;
    worst_ratio_to_floor: number | null;
    /** The same ratios for the bot over a MemoryWorkspace (production: the PR tarball is already in memory). */
    memory_ws: { speedup_vs_ast_grep_cli: number | null; speedup_vs_jscodeshift: number | null; ratio_to_floor: number | null };
    identical_to_cli: boolean;
    differing_files_vs_cli: number;
    totals_ms: Record<string, number | null>;
    rows: AstEditRow[];
  };
  rename_symbol?: { ratio_to_language_service: number | null; ratio_to_language_service_same_ts: number | null; row: TsRow };
  move_monorepo?: { ratio_to_program_load: number | null; ratio_to_language_service: number | null; row: TsRow };
  move?: {
    ratio_to_program_load: number | null;
    ratio_to_program_load_same_ts: number | null;
    ratio_to_language_service: number | null;
    ratio_to_language_service_same_ts: number | null;
    row: TsRow;
  };
  api?: {
    preview: { calls: number; writes: number };
    apply: { calls: number; writes: number };
    tree_chunk_entries: number;
    sizes: ApiRow[];
  };
  memory?: { ast_edit_peak_mb: number; rows: MemoryRow[] };
  intake?: IntakeFigures;
  repo_size?: RepoSizeRow[];
  action?: ActionRow;
  mcp?: McpRow;
  targets: typeof TARGETS;
  met: Record<string, boolean | null>;
}

/** How many files the bot skipped (syntax errors) over all rewrites, as a note; "" when none. */
function skippedNote(rows: readonly AstEditRow[]): string {
  const skipped = rows.reduce((n, r) => n + r.skipped_files, 0);
  return skipped > 0
    ? `; files the bot left alone and named because they do not parse cleanly are not compared: ${skipped} over all rewrites`
    : "";
}

function sum(rows: readonly AstEditRow[], pick: (row: AstEditRow) => number | null): number | null {
  let total = 0;
  for (const row of rows) {
    const value = pick(row);
    if (value === null) return null;
    total += value;
  }
  return total;
}

function minOf(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : Math.min(...present);
}

function maxOf(values: Array<number | null>): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : Math.max(...present);
}

export async function runBench(argv: readonly string[]): Promise<{ results: BenchResults; markdown: string }> {
  const options = parseOptions(argv);
  const workDir = options.workDir ?? defaultWorkDir();
  await mkdir(workDir, { recursive: true });
  log(`work dir ${workDir}; corpus ${options.corpus}; runs ${options.runs}; sections ${options.sections.join(",")}`);
  const { main, small } = await prepareAstCorpora(workDir, options.corpus, options.smallCorpus);
  const results: BenchResults = {
    generated_at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? "?",
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      load_avg: os.loadavg(),
    },
    settings: { runs: options.runs, ts_runs: options.tsRuns, jscodeshift_runs: options.jscodeshiftRuns, sections: options.sections },
    versions: {
      "ast-grep CLI": await astGrepVersion(),
      "@ast-grep/napi": packageVersion("@ast-grep/napi"),
      jscodeshift: jscodeshiftVersion(),
      typescript: packageVersion("typescript"),
      rxjs: packageVersion("rxjs"),
      effect: packageVersion("effect"),
    },
    corpus: { name: main.name, description: main.description, files: main.files, bytes: main.bytes },
    targets: TARGETS,
    met: {},
  };

  if (options.sections.includes("ast-edit")) {
    const allRows = await benchAstEdit(main, workDir, options.runs, options.jscodeshiftRuns, true);
    const rows = allRows.filter((row) => row.headline);
    const smallRows = small ? await benchAstEdit(small, workDir, options.runs, options.jscodeshiftRuns, false) : [];
    if (options.corpus === "large") {
      const multi = await prepareMultiLanguageCorpus(workDir);
      if ("missing" in multi) log(`multi-language row skipped: install ${multi.missing.join(", ")} (see .ci/run)`);
      else
        smallRows.push(
          ...(await benchAstEdit(multi, workDir, options.runs, options.jscodeshiftRuns, false, MULTI_LANGUAGE_REWRITES, null)),
        );
    }
    const bot = sum(rows, (r) => r.ms.bot);
    const cli = sum(rows, (r) => r.ms.ast_grep_cli);
    const js = sum(rows, (r) => r.ms.jscodeshift);
    const floor = sum(rows, (r) => r.ms.floor);
    const botMemory = sum(rows, (r) => r.ms.bot_memory_ws);
    const differing =
      allRows.reduce((n, r) => n + r.differing_files_vs_cli, 0) + smallRows.reduce((n, r) => n + r.differing_files_vs_cli, 0);
    results.ast_edit = {
      speedup_vs_ast_grep_cli: ratio(cli ?? undefined, bot ?? undefined),
      speedup_vs_jscodeshift: ratio(js ?? undefined, bot ?? undefined, 1),
      ratio_to_floor: ratio(bot ?? undefined, floor ?? undefined),
      worst_speedup_vs_ast_grep_cli: minOf(rows.map((r) => ratio(r.ms.ast_grep_cli, r.ms.bot))),
      worst_ratio_to_floor: maxOf(rows.map((r) => ratio(r.ms.bot, r.ms.floor))),
      memory_ws: {
        speedup_vs_ast_grep_cli: ratio(cli ?? undefined, botMemory ?? undefined),
        speedup_vs_jscodeshift: ratio(js ?? undefined, botMemory ?? undefined, 1),
        ratio_to_floor: ratio(botMemory ?? undefined, floor ?? undefined),
      },
      identical_to_cli: differing === 0,
      differing_files_vs_cli: differing,
      totals_ms: {
        bot,
        bot_with_diff: sum(rows, (r) => r.ms.bot_with_diff),
        bot_memory_ws: botMemory,
        bot_replay: sum(rows, (r) => r.ms.bot_replay),
        ast_grep_cli: cli,
        jscodeshift: js,
        floor,
      },
      rows: [...allRows, ...smallRows],
    };
  }

  if (options.sections.includes("ts")) {
    const project = await prepareTsProject(workDir, options.corpus);
    const [rename, move] = await benchTs(project, options.tsRuns);
    results.rename_symbol = {
      ratio_to_language_service: ratio(rename!.ms.bot, rename!.ms.raw_ls),
      ratio_to_language_service_same_ts: ratio(rename!.ms.bot, rename!.ms.raw_ls_same_ts),
      row: rename!,
    };
    results.move = {
      ratio_to_program_load: ratio(move!.ms.bot, move!.ms.program_load),
      ratio_to_program_load_same_ts: ratio(move!.ms.bot, move!.ms.program_load_same_ts),
      ratio_to_language_service: ratio(move!.ms.bot, move!.ms.raw_ls),
      ratio_to_language_service_same_ts: ratio(move!.ms.bot, move!.ms.raw_ls_same_ts),
      row: move!,
    };
    const monorepo = await benchTsMonorepo(project, workDir, options.tsRuns);
    results.move_monorepo = {
      ratio_to_program_load: ratio(monorepo.ms.bot, monorepo.ms.program_load),
      ratio_to_language_service: ratio(monorepo.ms.bot, monorepo.ms.raw_ls),
      row: monorepo,
    };
  }

  if (options.sections.includes("api")) {
    const sizes = await benchApi(options.apiSizes);
    const upToChunk = sizes.filter((s) => s.files <= TREE_CHUNK_ENTRIES);
    const pick = (rows: ApiRow[], f: (r: ApiRow) => number) => (rows.length === 0 ? 0 : Math.max(...rows.map(f)));
    results.api = {
      preview: { calls: pick(sizes, (r) => r.preview.calls), writes: pick(sizes, (r) => r.preview.writes) },
      apply: { calls: pick(upToChunk, (r) => r.apply.calls), writes: pick(upToChunk, (r) => r.apply.writes) },
      tree_chunk_entries: TREE_CHUNK_ENTRIES,
      sizes,
    };
  }

  if (options.sections.includes("intake")) results.intake = await benchIntake();
  if (options.sections.includes("memory")) {
    const rows: MemoryRow[] = [];
    for (const rewrite of REWRITES) {
      rows.push(await memoryOf("ast_edit", main, { pat: [rewrite.pat], out: [rewrite.out] }, rewrite.pat));
    }
    const project = await prepareTsProject(workDir, options.corpus);
    rows.push(await memoryOf("rename_symbol", project, { from: RENAME.from, to: RENAME.to }, `${RENAME.from} → ${RENAME.to}`));
    rows.push(await memoryOf("move", project, { paths: MOVE_PAIRS.flat() }, `${MOVE_PAIRS.length} directories`));
    results.memory = { ast_edit_peak_mb: Math.max(...rows.filter((r) => r.tool === "ast_edit").map((r) => r.peak_mb)), rows };
  }

  if (options.sections.includes("repo-size")) {
    results.repo_size = await benchRepoSizes(options.repoSizes, astGrepBinary(), options.runs);
  }
  if (options.sections.includes("action")) results.action = await benchAction(astGrepBinary(), options.runs);
  if (options.sections.includes("mcp"))
    results.mcp = await benchMcp(workDir, options.runs, options.corpus === "tiny" ? main.dir : undefined);

  const met = results.met;
  const atLeast = (v: number | null | undefined, t: number) => (v === null || v === undefined ? null : v >= t);
  const atMost = (v: number | null | undefined, t: number) => (v === null || v === undefined ? null : v <= t);
  met["ast_edit.speedup_vs_ast_grep_cli"] = atLeast(results.ast_edit?.speedup_vs_ast_grep_cli, TARGETS.speedup_vs_ast_grep_cli);
  met["ast_edit.speedup_vs_jscodeshift"] = atLeast(results.ast_edit?.speedup_vs_jscodeshift, TARGETS.speedup_vs_jscodeshift);
  met["ast_edit.ratio_to_floor"] = atMost(results.ast_edit?.ratio_to_floor, TARGETS.ratio_to_floor);
  met["ast_edit.identical_to_cli"] = results.ast_edit ? results.ast_edit.identical_to_cli : null;
  met["rename_symbol.ratio_to_language_service"] = atMost(
    results.rename_symbol?.ratio_to_language_service,
    TARGETS.rename_ratio_to_language_service,
  );
  met["move.ratio_to_program_load"] = atMost(results.move?.ratio_to_program_load, TARGETS.move_ratio_to_program_load);
  met["api.preview.calls"] = atMost(results.api?.preview.calls, TARGETS.preview_calls);
  met["api.preview.writes"] = atMost(results.api?.preview.writes, TARGETS.preview_writes);
  met["api.apply.calls"] = atMost(results.api?.apply.calls, TARGETS.apply_calls);
  met["api.apply.writes"] = atMost(results.api?.apply.writes, TARGETS.apply_writes);
  met["memory.ast_edit_peak_mb"] = atMost(results.memory?.ast_edit_peak_mb, TARGETS.ast_edit_peak_mb);
  met["intake.ack_p99_ms"] = atMost(results.intake?.p99, TARGETS.intake_ack_p99_ms);
  for (const row of results.repo_size ?? []) {
    met[`repo_size.${row.files}.first_ratio`] = atMost(row.first_ratio, TARGETS.repo_size_first_ratio);
    met[`repo_size.${row.files}.second_ratio`] = atMost(row.second_ratio, TARGETS.repo_size_second_ratio);
    met[`repo_size.${row.files}.peak_rss_mb`] = atMost(row.peak_rss_mb, TARGETS.repo_size_peak_rss_mb);
  }

  met["action.cold_ratio"] = atMost(results.action?.cold_ratio, TARGETS.action_cold_ratio);
  met["action.bundle_mb"] = atMost(results.action && results.action.bundle.js_bytes / 1024 / 1024, TARGETS.action_bundle_mb);

  met["mcp.cold_ratio"] = atMost(results.mcp?.cold_ratio, TARGETS.mcp_preview_ratio);
  met["mcp.warm_ratio"] = atMost(results.mcp?.warm_ratio, TARGETS.mcp_preview_ratio);

  const markdown = renderMarkdown(results, options);
  const out = path.resolve(options.out);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${out}`);
  return { results, markdown };
}

function mark(ok: boolean | null | undefined): string {
  return ok === null || ok === undefined ? "" : ok ? " ✅" : " ❌";
}

export function renderMarkdown(r: BenchResults, options: BenchOptions): string {
  const lines: string[] = [];
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  lines.push(`# resolve-bot benchmark`, "");
  lines.push(
    `Machine: ${r.machine.cpus} × ${r.machine.cpu_model}, node ${r.machine.node}, load average ${r.machine.load_avg.map((l) => l.toFixed(2)).join(" ")} at start. ` +
      `Medians of ${options.runs} interleaved runs after a warm-up (TypeScript peers: ${options.tsRuns}; jscodeshift: ${options.jscodeshiftRuns}). Absolute times are noise on a shared machine; read the ratios.`,
    "",
  );
  lines.push(`Corpus: **${r.corpus.name}** — ${r.corpus.description}: ${r.corpus.files} files, ${mb(r.corpus.bytes)}.`, "");
  lines.push(
    `Versions: ${Object.entries(r.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
  );

  if (r.ast_edit) {
    const a = r.ast_edit;
    lines.push("## ast-edit", "");
    lines.push(
      "| corpus | rewrite | files changed / replacements | parsed (prefilter pass) | bot | bot+diff | bot, memory ws | bot replay | ast-grep CLI (json / -U) | jscodeshift (matches) | floor | vs CLI | vs jscodeshift | × floor | ≠ CLI |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const row of a.rows) {
      lines.push(
        `| ${row.corpus} | \`${row.pat}\` → \`${row.out}\`${row.headline ? "" : " (not in the headline)"} | ${row.files_changed} / ${row.replacements} | ${row.prefilter_pass} | ${fmtMs(row.ms.bot)} | ${fmtMs(row.ms.bot_with_diff)} | ${fmtMs(row.ms.bot_memory_ws)} | ${fmtMs(row.ms.bot_replay)} | ${fmtMs(row.ms.ast_grep_cli_json)} / ${fmtMs(row.ms.ast_grep_cli_update)} | ${row.ms.jscodeshift === null ? "–" : `${fmtMs(row.ms.jscodeshift)} (${row.jscodeshift_matches})`} | ${fmtMs(row.ms.floor)} | ${fmtRatio(ratio(row.ms.ast_grep_cli, row.ms.bot))} | ${fmtRatio(row.ms.jscodeshift === null ? null : ratio(row.ms.jscodeshift, row.ms.bot, 1))} | ${fmtRatio(ratio(row.ms.bot, row.ms.floor))} | ${row.differing_files_vs_cli}${row.skipped_files > 0 ? ` (${row.skipped_files} skipped)` : ""} |`,
      );
    }
    lines.push("");
    lines.push(
      `Headline (${r.corpus.name}, sum of the three rewrites' medians): **${fmtRatio(a.speedup_vs_ast_grep_cli)} faster than the ast-grep CLI**${mark(r.met["ast_edit.speedup_vs_ast_grep_cli"])} (target ≥ ${TARGETS.speedup_vs_ast_grep_cli}×; worst single rewrite ${fmtRatio(a.worst_speedup_vs_ast_grep_cli)}), ` +
        `**${fmtRatio(a.speedup_vs_jscodeshift)} faster than jscodeshift**${mark(r.met["ast_edit.speedup_vs_jscodeshift"])} (target ≥ ${TARGETS.speedup_vs_jscodeshift}×), ` +
        `**${fmtRatio(a.ratio_to_floor)} the read + prefilter floor**${mark(r.met["ast_edit.ratio_to_floor"])} (target ≤ ${TARGETS.ratio_to_floor}×; worst ${fmtRatio(a.worst_ratio_to_floor)}). ` +
        `Output identical to the CLI: **${a.identical_to_cli ? "yes" : "NO"}** (${a.differing_files_vs_cli} differing files${skippedNote(a.rows)})${mark(a.identical_to_cli)}.`,
      "",
      `Bot over a MemoryWorkspace (files already in memory, as the PR tarball is in production): ${fmtRatio(a.memory_ws.speedup_vs_ast_grep_cli)} faster than the CLI, ${fmtRatio(a.memory_ws.speedup_vs_jscodeshift)} faster than jscodeshift, ${fmtRatio(a.memory_ws.ratio_to_floor)} the floor.`,
      "",
    );
  }
  if (r.rename_symbol && r.move) {
    const rn = r.rename_symbol.row;
    const mv = r.move.row;
    lines.push("## rename_symbol / move (TypeScript language service)", "");
    lines.push(
      `Bot: TypeScript ${rn.versions["bot (ts-morph's TS)"]} (bundled with ts-morph). Raw LS: typescript ${rn.versions["raw LS (typescript)"]} and, as a control, ts-morph's ${rn.versions["raw LS (ts-morph's TS)"]}.`,
      "",
    );
    lines.push(
      "| op | corpus | what | bot | raw LS (ts 5.9) | raw LS (same TS) | program load (ts 5.9) | program load (same TS) | bot ÷ raw LS | bot ÷ raw LS (same TS) | bot ÷ program load | result (bot / raw) |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const row of [rn, mv]) {
      lines.push(
        `| ${row.op} | ${row.corpus} | ${row.what} | ${fmtMs(row.ms.bot)} | ${fmtMs(row.ms.raw_ls)} | ${fmtMs(row.ms.raw_ls_same_ts)} | ${fmtMs(row.ms.program_load)} | ${fmtMs(row.ms.program_load_same_ts)} | ${fmtRatio(ratio(row.ms.bot, row.ms.raw_ls))} | ${fmtRatio(ratio(row.ms.bot, row.ms.raw_ls_same_ts))} | ${fmtRatio(ratio(row.ms.bot, row.ms.program_load))} | ${row.bot_summary} / ${row.raw_summary} |`,
      );
    }
    lines.push("");
    lines.push(
      `rename_symbol ÷ raw language service: **${fmtRatio(r.rename_symbol.ratio_to_language_service)}**${mark(r.met["rename_symbol.ratio_to_language_service"])} (target ≤ ${TARGETS.rename_ratio_to_language_service}×). ` +
        `move (${MOVE_PAIRS.length} directories) ÷ program load: **${fmtRatio(r.move.ratio_to_program_load)}**${mark(r.met["move.ratio_to_program_load"])} (target ≤ ${TARGETS.move_ratio_to_program_load}×).`,
      "",
    );
  }
  if (r.api) {
    lines.push("## GitHub API calls (emulator request log)", "");
    lines.push(
      "| files touched | preview calls (writes) | overhead / work | apply calls (writes) | overhead / work |",
      "|---|---|---|---|---|",
    );
    for (const s of r.api.sizes) {
      lines.push(
        `| ${s.files} | ${s.preview.calls} (${s.preview.writes}) | ${s.preview.overhead_calls} (${s.preview.overhead_writes}) / ${s.preview.work_calls} (${s.preview.work_writes}) | ${s.apply.calls} (${s.apply.writes}) | ${s.apply.overhead_calls} (${s.apply.overhead_writes}) / ${s.apply.work_calls} (${s.apply.work_writes}) |`,
      );
    }
    lines.push("");
    lines.push(
      `Preview: **${r.api.preview.calls} calls${mark(r.met["api.preview.calls"])} / ${r.api.preview.writes} writes${mark(r.met["api.preview.writes"])}** (targets ≤ ${TARGETS.preview_calls} / ≤ ${TARGETS.preview_writes}). ` +
        `Apply (up to ${r.api.tree_chunk_entries} files, the tree-chunk size): **${r.api.apply.calls} calls${mark(r.met["api.apply.calls"])} / ${r.api.apply.writes} writes${mark(r.met["api.apply.writes"])}** (targets ≤ ${TARGETS.apply_calls} / ≤ ${TARGETS.apply_writes}).`,
      "",
    );
    const largest = r.api.sizes.at(-1);
    if (largest) {
      lines.push(`By endpoint, ${largest.files} files (preview | apply):`, "");
      lines.push("| endpoint | preview | apply |", "|---|---|---|");
      const keys = [...new Set([...Object.keys(largest.preview.by_endpoint), ...Object.keys(largest.apply.by_endpoint)])].sort();
      for (const key of keys)
        lines.push(`| \`${key}\` | ${largest.preview.by_endpoint[key] ?? 0} | ${largest.apply.by_endpoint[key] ?? 0} |`);
      lines.push("");
    }
  }
  if (r.memory) {
    lines.push("## Memory (fresh process per preview; corpus held in a MemoryWorkspace like a PR tarball)", "");
    lines.push(
      "| tool | corpus | what | files | RSS after import | RSS with files | peak RSS | cold compute | cold preview (+ fingerprint + diff) |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    for (const m of r.memory.rows) {
      lines.push(
        `| ${m.tool} | ${m.corpus} | \`${m.what}\` | ${m.files} | ${m.baseline_mb} MB | ${m.loaded_mb} MB | ${m.peak_mb} MB | ${fmtMs(m.cold_compute_ms)} | ${fmtMs(m.cold_preview_ms)} |`,
      );
    }
    lines.push(
      "",
      `ast-edit peak RSS: **${r.memory.ast_edit_peak_mb} MB**${mark(r.met["memory.ast_edit_peak_mb"])} (target ≤ ${TARGETS.ast_edit_peak_mb} MB).`,
      "",
    );
  }
  if (r.intake) {
    const i = r.intake;
    lines.push("## Webhook intake while a tool burns CPU (real server, one worker thread)", "");
    lines.push("| deliveries | p50 | p99 | max | overlapped the tool |", "|---|---|---|---|---|");
    lines.push(`| ${i.count} | ${i.p50} ms | ${i.p99} ms | ${i.max} ms | ${i.overlapped ? "yes" : "NO"} |`, "");
    lines.push(`Acknowledgement p99: **${i.p99} ms**${mark(r.met["intake.ack_p99_ms"])} (target ≤ ${TARGETS.intake_ack_p99_ms} ms).`, "");
  }
  if (r.repo_size) {
    lines.push(...repoSizeMarkdown(r.repo_size), "");
    lines.push(
      `Targets: first ÷ floor ≤ ${TARGETS.repo_size_first_ratio}×, second ÷ floor ≤ ${TARGETS.repo_size_second_ratio}×, peak RSS ≤ ${TARGETS.repo_size_peak_rss_mb} MB. The cold process's first command has no target; it is shown so that nothing the warm-up buys is hidden.`,
      "",
    );
  }
  if (r.action) {
    lines.push(...actionMarkdown(r.action, { ratio: TARGETS.action_cold_ratio, bundleMb: TARGETS.action_bundle_mb }, (ok) => mark(ok)), "");
  }
  if (r.mcp) {
    const m = r.mcp;
    lines.push("## MCP preview vs the CLI's (same checkout, same `/ast-edit`)", "");
    lines.push(
      "| corpus | files | preview | CLI cold (process) | MCP cold (process + initialize + call) | CLI warm (main() in process) | MCP warm (call on a running server) | cold ÷ | warm ÷ |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    lines.push(
      `| ${m.corpus} | ${m.files} | ${m.preview} | ${fmtMs(m.ms.cli_cold)} | ${fmtMs(m.ms.mcp_cold)} | ${fmtMs(m.ms.cli_warm)} | ${fmtMs(m.ms.mcp_warm)} | ${fmtRatio(m.cold_ratio)} | ${fmtRatio(m.warm_ratio)} |`,
      "",
    );
    lines.push(
      `MCP ÷ CLI: **${fmtRatio(m.cold_ratio)} cold**${mark(r.met["mcp.cold_ratio"])}, **${fmtRatio(m.warm_ratio)} warm**${mark(r.met["mcp.warm_ratio"])} (target ≤ ${TARGETS.mcp_preview_ratio}×).`,
      "",
    );
  }
  return lines.join("\n");
}
