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
import { undoConflicts, undoLabel, undoneCommit } from "../dist/src/core/messages.js";
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
// /resolve undo of the commit `sha` that applied `small`: git's revert, pushed like any preview.
const undo = { ...record(1, undoLabel(small.label, sha)), tool: "undo" };
const undoDiff = smallDiff.replace(/^-(?!--)(.*)\n\+(?!\+\+)(.*)$/gm, "-$2\n+$1");
const head = "c41d07e2b9a85f316e0d4c7b2a19f8e6d5c3b2a1";
// The README's example: a command on lines 12–14 of src/api.ts in "Files changed", answered in its review thread.
const API = [
  "export async function fetchOrder(id: string) {",
  "  const started = Date.now();",
  '  console.log("fetching order", id);',
  "  const order = await db.orders.find(id);",
  '  console.log("took", Date.now() - started);',
  "  return order;",
];
const lineCommand = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
const onLine = record(1, "AST Edit: 2 replacements in 1 file");
const onLineDiff = `diff --git a/src/api.ts b/src/api.ts\n--- a/src/api.ts\n+++ b/src/api.ts\n@@ -11,4 +11,4 @@\n   const started = Date.now();\n-  console.log("fetching order", id);\n+  logger.debug("fetching order", id);\n   const order = await db.orders.find(id);\n-  console.log("took", Date.now() - started);\n+  logger.debug("took", Date.now() - started);\n`;
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
  "reply-undo": reply(
    [
      {
        command: "/resolve",
        kind: "preview",
        ok: true,
        message: `${undo.label}\nReverts ${sha.slice(0, 7)} as \`git revert\` would, onto the head (${head.slice(0, 7)}). Reason: the logger is not wired up yet`,
        pushed: [{ record: undo, diff: undoDiff }],
      },
    ],
    [undo],
  ),
  "reply-undo-conflict": reply(
    [
      {
        command: "/resolve",
        kind: "preview",
        ok: false,
        message: undoConflicts(undoneCommit(small.label, sha), sha, ["src/log.ts"]),
        pushed: [],
      },
    ],
    [],
  ),
  "reply-thread": {
    markdown: reply(
      [
        {
          command: "/ast-edit",
          kind: "preview",
          ok: true,
          message: `${onLine.label}\nOnly matches overlapping lines 12–14 of src/api.ts were kept.\n- src/api.ts: 2 replacements`,
          pushed: [{ record: onLine, diff: onLineDiff }],
        },
      ],
      [onLine],
    ),
    thread: { path: "src/api.ts", firstLine: 10, lines: API, commented: [12, 14], command: lineCommand },
  },
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

const escape = (value) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A review thread as GitHub shows it under "Files changed" and in the conversation: the file and
 * the diff lines the comment is on, the reviewer's comment, then the bot's reply in the thread.
 */
const THREAD_CSS = `
.thread{border:1px solid #d0d7de;border-radius:6px;overflow:hidden;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
.thread .file{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:8px 16px;font:600 12px ui-monospace,SFMono-Regular,Menlo,monospace;color:#1f2328}
.thread table{display:table;border-collapse:collapse;width:100%;margin:0;font:12px/20px ui-monospace,SFMono-Regular,Menlo,monospace}
.thread td{border:none}.thread td.num{width:40px;padding:0 10px;text-align:right;color:#59636e;background:#e6ffec}
.thread td.code{padding:0 10px;white-space:pre;background:#e6ffec}
.thread tr.commented td{background:#fff8c5}
.thread .comments{border-top:1px solid #d0d7de}
.thread .comment{display:flex;gap:12px;padding:16px;border-bottom:1px solid #d8dee4}
.thread .avatar{flex:none;width:28px;height:28px;border-radius:50%;color:#fff;font:600 13px/28px sans-serif;text-align:center}
.thread .who{font-size:14px;margin-bottom:6px;color:#59636e}.thread .who b{color:#1f2328}
.thread .label{border:1px solid #d0d7de;border-radius:2em;padding:0 6px;font-size:12px;margin-left:4px;color:#59636e}
.thread .reactions{margin-top:8px}.thread .reactions span{border:1px solid #d0d7de;border-radius:2em;padding:2px 8px;font-size:12px;margin-right:4px}
.thread .body.markdown-body{padding:0;font-size:14px;max-width:none}
.thread .footer{display:flex;gap:8px;padding:12px 16px;background:#f6f8fa}
.thread .footer .reply{flex:1;border:1px solid #d0d7de;border-radius:6px;background:#fff;padding:5px 12px;color:#59636e;font-size:14px}
.thread .footer .resolve{border:1px solid #d0d7de;border-radius:6px;background:#f6f8fa;padding:5px 12px;font-size:14px;font-weight:500}`;

function threadHtml({ path: file, firstLine, lines, commented: [from, to], command }, replyHtml) {
  const rows = lines
    .map((line, index) => {
      const number = firstLine + index;
      const marked = number >= from && number <= to ? "commented" : "";
      return `<tr class="${marked}"><td class="num">${number}</td><td class="code">+${escape(line)}</td></tr>`;
    })
    .join("");
  const comment = (avatar, colour, who, label, when, body, reactions) =>
    `<div class="comment"><div class="avatar" style="background:${colour}">${avatar}</div><div style="flex:1;min-width:0"><div class="who"><b>${who}</b>${label ? `<span class="label">${label}</span>` : ""} ${when}</div><div class="body markdown-body">${body}</div>${reactions ? `<div class="reactions">${reactions}</div>` : ""}</div></div>`;
  return `<div class="thread"><div class="file">${escape(file)}</div><table>${rows}</table><div class="comments">${comment(
    "A",
    "#8250df",
    "alice",
    "",
    `commented on lines +${from} to +${to}`,
    marked.parse(`\`\`\`\n${command}\n\`\`\``, { gfm: true }),
    "<span>👀 1</span><span>🚀 1</span>",
  )}${comment("R", "#1f883d", "resolve-bot", "bot", "replied", replyHtml, "")}</div><div class="footer"><div class="reply">Reply...</div><div class="resolve">Resolve conversation</div></div></div>`;
}

const work = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-replies-"));
for (const [name, kind] of Object.entries(kinds)) {
  const markdown = typeof kind === "string" ? kind : kind.markdown;
  const rendered = marked.parse(markdown, { gfm: true });
  const body =
    typeof kind === "string"
      ? `<article class="markdown-body">${rendered}</article>`
      : `<article class="markdown-body">${threadHtml(kind.thread, rendered)}</article>`;
  const html = `<!doctype html><meta charset="utf-8"><style>${css}\nbody{margin:0;background:#fff}.markdown-body{box-sizing:border-box;max-width:880px;padding:24px}${THREAD_CSS}</style>${body}`;
  const page = path.join(work, `${name}.html`);
  writeFileSync(page, html);
  writeFileSync(path.join(out, `${name}.md`), `${markdown}\n`);
  const shown = markdown
    .replace(/<details>[\s\S]*?<\/details>/g, "<details>")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const threadLines = typeof kind === "string" ? 0 : kind.thread.lines.length + 4;
  // Chromium's --screenshot takes the window's size: estimate the page's, counting a long line as
  // the lines it wraps into (about 100 characters each at this width), so a long reply is not cut off.
  const wrapped = shown.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / 100)), 0);
  const height = Math.min(16000, 120 + (wrapped + threadLines) * 30);
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
