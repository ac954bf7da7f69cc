/**
 * An MCP preview's added cost over the CLI's (issue 35), on rxjs@7.8.2's src as a git checkout:
 * the same `/ast-edit` through each front end, discarded (untimed) after each run.
 * - cold: `resolve-bot preview` as a fresh process vs `resolve-bot mcp` as a fresh process that the
 *   SDK's client connects to (initialize), calls once and closes — a preview from nothing each way;
 * - warm: the CLI's `main()` in this process (what each verb runs) vs one `tools/call` on an
 *   MCP server that is already running (an agent's session) — the protocol layer alone.
 */
import { execFile, spawnSync } from "node:child_process";
import { cp, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { main } from "../src/apps/cli/main.js";
import { packageSrc } from "./corpus.js";
import { log, median, ratio, shuffled, timed } from "./stats.js";

const BIN = path.resolve("dist/src/apps/bin.js");
const PAT = "new Error($$$A)";
const OUT = "createError($$$A)";

export interface McpRow {
  corpus: string;
  files: number;
  /** The preview's label. */
  preview: string;
  ms: { cli_cold: number; mcp_cold: number; cli_warm: number; mcp_warm: number };
  cold_ratio: number | null;
  warm_ratio: number | null;
}

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/** `source`: the files to put under src/ (rxjs's src; the tiny corpus for the smoke test). */
async function checkout(workDir: string, source: string): Promise<string> {
  const dir = path.join(workDir, "mcp-checkout");
  await rm(dir, { recursive: true, force: true });
  await cp(source, path.join(dir, "src"), { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "add", "-A");
  git(dir, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", "rxjs");
  return dir;
}

async function connect(repo: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--cwd", repo] }));
  return client;
}

const ARGS = { ops: [{ pat: PAT, out: OUT }], paths: ["src"] };

async function mcpPreview(client: Client): Promise<string> {
  const result = await client.callTool({ name: "ast_edit", arguments: ARGS });
  if (result.isError) throw new Error(`MCP preview failed: ${JSON.stringify(result.content)}`);
  return (result.structuredContent as { pushed: { label: string }[] }).pushed[0]!.label;
}

const quiet = { out: () => undefined, err: () => undefined };

export async function benchMcp(workDir: string, runs: number, source = packageSrc("rxjs")): Promise<McpRow> {
  const repo = await checkout(workDir, source);
  const discard = async () => {
    if ((await main(["--cwd", repo, "resolve", "discard", "bench"], quiet)) !== 0) throw new Error("discard failed");
  };
  const command = `/ast-edit --pat '${PAT}' --out '${OUT}' src`;
  const peers: Record<keyof McpRow["ms"], () => Promise<unknown>> = {
    cli_cold: () => promisify(execFile)(process.execPath, [BIN, "--cwd", repo, "preview", "--", command]),
    mcp_cold: async () => {
      const client = await connect(repo);
      await mcpPreview(client);
      await client.close();
    },
    cli_warm: async () => {
      if ((await main(["--cwd", repo, "preview", "--", command], quiet)) !== 0) throw new Error("CLI preview failed");
    },
    mcp_warm: async () => mcpPreview(session),
  };
  const session = await connect(repo);
  try {
    const label = await mcpPreview(session);
    await discard();
    for (const peer of Object.values(peers)) {
      await peer(); // warm-up
      await discard();
    }
    const samples: Record<string, number[]> = { cli_cold: [], mcp_cold: [], cli_warm: [], mcp_warm: [] };
    for (let run = 0; run < runs; run++) {
      for (const name of shuffled(Object.keys(peers) as (keyof McpRow["ms"])[], run)) {
        samples[name]!.push((await timed(peers[name])).ms);
        await discard();
      }
    }
    const ms = {
      cli_cold: median(samples.cli_cold!),
      mcp_cold: median(samples.mcp_cold!),
      cli_warm: median(samples.cli_warm!),
      mcp_warm: median(samples.mcp_warm!),
    };
    const row: McpRow = {
      corpus: source === packageSrc("rxjs") ? "rxjs" : path.basename(source),
      files: Number(spawnSync("git", ["ls-files"], { cwd: repo, encoding: "utf8" }).stdout.split("\n").filter(Boolean).length),
      preview: label,
      ms,
      cold_ratio: ratio(ms.mcp_cold, ms.cli_cold),
      warm_ratio: ratio(ms.mcp_warm, ms.cli_warm),
    };
    log(`mcp: ${JSON.stringify(row)}`);
    return row;
  } finally {
    await session.close();
  }
}
