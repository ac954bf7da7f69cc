#!/usr/bin/env node
/**
 * Screenshots every reply and check-run output kind in docs/replies/ as GitHub renders it (marked,
 * GitHub-flavoured, with github-markdown-css), with headless Chromium. The markdown is not made
 * here: test/e2e/reply-docs.test.ts writes each .md from what the real server posted against the
 * emulator (run it with UPDATE_REPLY_DOCS=1 first; `npm run screenshots` does both), and a
 * `<name>.thread.json` beside a reply frames it in its review thread.
 * Needs Debian's chromium and a colour-emoji font (`apt-get install -y chromium fonts-noto-color-emoji`).
 * Usage: node scripts/reply-screenshots.mjs [chromium binary]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { marked } from "marked";

const chromium = process.argv[2] ?? "chromium";
const out = path.resolve("docs/replies");
const css = readFileSync(path.resolve("node_modules/github-markdown-css/github-markdown-light.css"), "utf8");

/** Every .md but the folder's README, with its thread frame when it has one. */
const kinds = Object.fromEntries(
  readdirSync(out)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .map((file) => {
      const name = file.slice(0, -3);
      const markdown = readFileSync(path.join(out, file), "utf8").trimEnd();
      const frame = path.join(out, `${name}.thread.json`);
      return [name, existsSync(frame) ? { markdown, thread: JSON.parse(readFileSync(frame, "utf8")) } : markdown];
    }),
);

const escape = (value) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * GitHub colours a ```diff block (its diff grammar and github-markdown-css's classes): removed
 * lines and `--- a/…` red, added lines and `+++ b/…` green, `@@ … @@` purple, git's headers bold
 * blue. marked highlights nothing itself, so without this every diff would be grey.
 */
const GIT_HEADER =
  /^(diff |index |new file mode |deleted file mode |old mode |new mode |similarity index |rename (from|to) |Binary files )/;
function diffLine(line) {
  const cls = line.startsWith("+")
    ? "pl-mi1"
    : line.startsWith("-")
      ? "pl-md"
      : line.startsWith("@@")
        ? "pl-mdr"
        : GIT_HEADER.test(line)
          ? "pl-mh"
          : "";
  return cls ? `<span class="${cls}">${escape(line)}</span>` : escape(line);
}
marked.use({
  renderer: {
    code({ text, lang }) {
      if (lang !== "diff") return false;
      const body = text.split("\n").map(diffLine).join("\n");
      return `<div class="highlight highlight-source-diff"><pre>${body}</pre></div>\n`;
    },
  },
});

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
