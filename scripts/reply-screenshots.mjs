#!/usr/bin/env node
/**
 * Renders every reply and check-run output kind as GitHub would (marked, GitHub-flavoured, with
 * github-markdown-css) and screenshots each with headless Chromium into docs/replies/.
 * Needs `npm run build` first and Debian's chromium (`apt-get install -y chromium`).
 * Usage: node scripts/reply-screenshots.mjs [chromium binary]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { marked } from "marked";
import { renderReply } from "../dist/src/github/replies.js";
import { actionSummary, diffText, gateOutput, resolutionSummary } from "../dist/src/github/check-run-output.js";
import { Runtime } from "../dist/src/core/runtime.js";
import { createRegistry } from "../dist/src/tools/index.js";

const chromium = process.argv[2] ?? "chromium";
const out = path.resolve("docs/replies");
const css = readFileSync(path.resolve("node_modules/github-markdown-css/github-markdown-light.css"), "utf8");
const links = {
  commitUrl: (sha) => `https://github.com/acme/widgets/commit/${sha}`,
  checkRunUrl: (r) => `https://github.com/acme/widgets/runs/${1000 + r.seq}`,
};
const record = (seq, label) => ({
  id: `id-${seq}`,
  seq,
  label,
  tool: "ast_edit",
  requestedBy: "alice",
  headSha: "3f1c2ab9d0e4",
  params: {},
});
const commands = "`/resolve apply <reason>` or `/resolve discard <reason>`";
const steering = (stack) => (stack[0] ? `Pending: ${stack[0].label}. Resolve it with ${commands}.` : undefined);
const reply = (outcomes, stack, skipped = []) => renderReply({ outcomes, skipped, stack, steering: steering(stack) }, links);

const small = record(1, "AST Edit: 2 replacements in 2 files");
const smallDiff = `diff --git a/src/log.ts b/src/log.ts\n--- a/src/log.ts\n+++ b/src/log.ts\n@@ -1,3 +1,3 @@\n export function run(x: number) {\n-  console.log("run", x);\n+  logger.debug("run", x);\n   return x;\ndiff --git a/src/main.ts b/src/main.ts\n--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1,3 +1,3 @@\n import { run } from "./log";\n \n-console.log(run(1));\n+logger.debug(run(1));\n`;
const big = record(2, "AST Edit: 60 replacements in 60 files");
const bigFiles = Array.from({ length: 60 }, (_, i) => `- src/module${i}.ts: 1 replacement`).join("\n");
const bigDiff = Array.from(
  { length: 60 },
  (_, i) =>
    `diff --git a/src/module${i}.ts b/src/module${i}.ts\n--- a/src/module${i}.ts\n+++ b/src/module${i}.ts\n@@ -3,1 +3,1 @@\n-  console.log("m${i}");\n+  logger.debug("m${i}");`,
).join("\n");
const sha = "9b2e41c07f3d5a8e1b6c4d2f0a9e8d7c6b5a4f3e";
const help = new Runtime(await createRegistry({})).help();

const kinds = {
  "reply-preview": reply(
    [
      {
        command: "/ast-edit",
        kind: "preview",
        ok: true,
        message: `${small.label}\n- src/log.ts: 1 replacement\n- src/main.ts: 1 replacement`,
        pushed: [{ record: small, diff: smallDiff }],
      },
    ],
    [small],
  ),
  "reply-preview-large": reply(
    [{ command: "/ast-edit", kind: "preview", ok: true, message: `${big.label}\n${bigFiles}`, pushed: [{ record: big, diff: bigDiff }] }],
    [big],
  ),
  "reply-apply": reply(
    [
      {
        command: "/resolve",
        kind: "resolve",
        ok: true,
        message: "Applied 2 replacements in 2 files.",
        resolved: { record: small, action: "apply", reason: "use the structured logger", rendered: "", commit: sha },
      },
    ],
    [],
  ),
  "reply-discard": reply(
    [
      {
        command: "/resolve",
        kind: "resolve",
        ok: true,
        message: `Discarded: ${big.label}. Reason: too broad`,
        resolved: { record: big, action: "discard", reason: "too broad", rendered: "" },
      },
    ],
    [small],
  ),
  "reply-error": reply(
    [
      {
        command: "/move",
        kind: "error",
        ok: false,
        message:
          "`/move` was not run:\n\n- `<paths>` needs at least 2 values (got 1)\n\nUsage: `/move <paths>...`\n\n- `<paths>` — Pairs of paths: <from> <to> [<from> <to> …]",
      },
    ],
    [small],
  ),
  "reply-several": reply(
    [
      {
        command: "/pending",
        kind: "pending",
        ok: true,
        message: `1 pending, newest first (the first is resolved next):\n1. ${small.label} (#1, \`/ast-edit\` by alice)`,
      },
      {
        command: "/frobnicate",
        kind: "error",
        ok: false,
        message: "Unknown command `/frobnicate`. Known commands: `/ast-edit`, `/move`, `/rename-symbol`, `/resolve`, `/help`, `/pending`.",
      },
    ],
    [small],
    ["/help"],
  ),
  "reply-help": reply([{ command: "/help", kind: "help", ok: true, message: help }], []),
  "check-run-pending": `${actionSummary(small, { summary: `${small.label}\n- src/log.ts: 1 replacement\n- src/main.ts: 1 replacement`, diff: smallDiff }, "", 2, 50)}\n\n${diffText(smallDiff)}`,
  "check-run-applied": resolutionSummary(
    small,
    { id: small.id, action: "apply", reason: "use the structured logger", actor: "alice", message: "", commit: sha },
    links.commitUrl,
  ),
  "check-run-gate": (() => {
    const gate = gateOutput([big, small]);
    return `### ${gate.title}\n\n${gate.summary}`;
  })(),
};

const work = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-replies-"));
for (const [name, markdown] of Object.entries(kinds)) {
  const html = `<!doctype html><meta charset="utf-8"><style>${css}\nbody{margin:0;background:#fff}.markdown-body{box-sizing:border-box;max-width:880px;padding:24px}</style><article class="markdown-body">${marked.parse(markdown, { gfm: true })}</article>`;
  const page = path.join(work, `${name}.html`);
  writeFileSync(page, html);
  writeFileSync(path.join(out, `${name}.md`), `${markdown}\n`);
  const shown = markdown
    .replace(/<details>[\s\S]*?<\/details>/g, "<details>")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const height = Math.min(4000, 120 + shown.length * 30);
  execFileSync(
    chromium,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--hide-scrollbars",
      `--window-size=900,${height}`,
      `--screenshot=${path.join(out, `${name}.png`)}`,
      `file://${page}`,
    ],
    { stdio: "ignore" },
  );
  console.log(`docs/replies/${name}.png`);
}
