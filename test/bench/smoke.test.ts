/**
 * The benchmark is not part of `npm test` (it takes minutes); this checks that it runs end to end
 * on a tiny generated corpus and writes every number the issue asks for.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runBench } from "../../bench/run.js";

const KEYS = [
  "ast_edit.speedup_vs_ast_grep_cli",
  "ast_edit.speedup_vs_jscodeshift",
  "ast_edit.ratio_to_floor",
  "rename_symbol.ratio_to_language_service",
  "move.ratio_to_program_load",
  "api.preview.calls",
  "api.preview.writes",
  "api.apply.calls",
  "api.apply.writes",
  "memory.ast_edit_peak_mb",
  "intake.p99",
  "repo_size.0.first_ratio",
  "repo_size.0.peak_rss_mb",
  "action.cold_ratio",
  "action.warm_ratio",
  "action.peak_rss_mb",
  "action.bundle.js_bytes",
  "mcp.cold_ratio",
  "mcp.warm_ratio",
  "action.bundle.entry_bytes",
  "action.bundle.native_bytes",
  "action.startup.bundle_load_ms",
  "deliveries.calls",
  "deliveries.list_pages",
  "deliveries.detail_calls",
  "deliveries.without_older_history.calls",
  "corpus.files",
  "corpus.bytes",
];

function at(object: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], object);
}

test("npm run bench runs on a tiny corpus: table on stdout, every key in results.json, output identical to the CLI", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "resolve-bot-bench-smoke-"));
  try {
    const out = path.join(dir, "results.json");
    const { markdown } = await runBench(["--corpus", "tiny", "--runs", "1", "--ts-runs", "1", "--out", out, "--work-dir", dir]);
    for (const heading of [
      "## ast-edit",
      "## rename_symbol / move",
      "## GitHub API calls",
      "## Memory",
      "## Webhook intake",
      "## GitHub Action",
      "## Sweep of the app's webhook deliveries",
      "## MCP preview",
    ])
      expect(markdown).toContain(heading);
    expect(markdown).toContain("| tiny | `console.log($$$A)` → `logger.debug($$$A)` | 4 / 4 |");
    const results = JSON.parse(await readFile(out, "utf8")) as Record<string, unknown>;
    for (const key of KEYS) expect([key, typeof at(results, key)]).toEqual([key, "number"]);
    expect(at(results, "corpus.files")).toBe(12);
    expect(at(results, "ast_edit.differing_files_vs_cli")).toBe(0);
    // The rename and the move found the same edits as the raw language service.
    expect(at(results, "rename_symbol.row.bot_summary")).toBe("7 references in 4 files");
    expect(at(results, "rename_symbol.row.raw_summary")).toBe("7 locations in 4 files");
    expect(at(results, "api.sizes.0.preview_outcome")).toMatch(/^rocket: /);
    expect(at(results, "api.sizes.0.apply_outcome")).toMatch(/^rocket: Applied/);
    expect(at(results, "intake.overlapped")).toBe(true);
    // The bundled Action answered the same command on the same repository as the server.
    expect(at(results, "action.reply")).toMatch(
      /^rocket: \*\*AST Edit: 89 replacements in 16 files\*\* — pending, nothing written yet · \[check run\]\(http:\/\/127\.0\.0\.1:\d+\/\S+\/runs\/\d+\)$/,
    );
    expect(at(results, "action.ok")).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 600_000); // every section, the intake (100 commands) and a real repository included: minutes on a loaded machine
