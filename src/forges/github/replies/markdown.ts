/**
 * Safe markdown for replies and check runs. Everything that came from a person or a repository
 * (reasons, labels, paths, error messages) goes through `text()` or into a code fence, so it
 * cannot ping anyone (@mentions) or inject HTML.
 */

/**
 * Escapes text for GitHub markdown: HTML and @mentions outside code spans. Code spans are kept
 * as they are: GitHub shows them literally (no HTML, no mentions), and entities there would show.
 * A line after a list reads as its own paragraph, as in the plain text (`ownParagraphs`).
 */
export function text(value: string): string {
  let out = "";
  let rest = ownParagraphs(value);
  for (;;) {
    const span = /(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest);
    if (!span) return out + escapeProse(rest);
    out += escapeProse(rest.slice(0, span.index)) + span[0];
    rest = rest.slice(span.index + span[0].length);
  }
}

const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Markdown carries a line that follows a list item into that item (a "lazy continuation"): in
 * "- src/a.ts: 2 replacements\nOnly matches … were kept." the note would end the file's line.
 * Plain text means a line of its own, so an unindented line right after a list gets a blank line
 * before it: its own paragraph. Fenced code is left as it is.
 */
function ownParagraphs(value: string): string {
  if (!value.includes("\n")) return value;
  const out: string[] = [];
  let fence: string | undefined;
  let inList = false;
  for (const line of value.split("\n")) {
    if (fence !== undefined) {
      const marker = FENCE.exec(line)?.[1];
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      out.push(line);
      continue;
    }
    const item = LIST_ITEM.test(line);
    if (inList && !item && /^\S/.test(line)) out.push("");
    if (line.trim() === "") inList = false;
    else if (item) inList = true;
    else if (/^\S/.test(line)) inList = false;
    fence = FENCE.exec(line)?.[1];
    if (fence !== undefined) inList = false;
    out.push(line);
  }
  return out.join("\n");
}

function escapeProse(value: string): string {
  return (
    value
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      // A zero-width joiner after "@" keeps the text readable but stops the mention.
      .replace(/@(?=[A-Za-z0-9_-])/g, "@\u2060")
  );
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(content: string, language = ""): string {
  const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${content.replace(/\n$/, "")}\n${fence}`;
}

/** Inline code that survives backticks in the content. */
export function code(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = value.startsWith("`") || value.endsWith("`") ? " " : "";
  return `${fence}${pad}${value}${pad}${fence}`;
}

/**
 * Cuts text to at most `limit` characters at a line boundary, saying what was left out.
 * GitHub refuses check-run output over 65,535 characters.
 */
export function truncate(value: string, limit: number, what = "lines"): { text: string; truncated: boolean } {
  if (value.length <= limit) return { text: value, truncated: false };
  const note = (omitted: number) => `\n… ${omitted} more ${what} not shown (the output is limited to ${limit} characters).\n`;
  const budget = limit - note(99_999_999).length;
  let cut = value.lastIndexOf("\n", budget);
  if (cut <= 0) cut = budget;
  const omitted = value.slice(cut).split("\n").length - 1;
  return { text: `${value.slice(0, cut)}${note(omitted)}`, truncated: true };
}

/** A folded section: `summary` is shown, `body` (markdown) opens on click. */
export function details(summary: string, body: string): string {
  return `<details><summary>${text(summary)}</summary>\n\n${body}\n\n</details>`;
}

/**
 * `truncate` for markdown: a cut inside a code fence or a `<details>` closes them after the cut,
 * so what follows (the note, the steering line) is not swallowed into the block.
 */
export function truncateMarkdown(value: string, limit: number, what = "lines"): { text: string; truncated: boolean } {
  const closingRoom = 200;
  const cut = truncate(value, limit - closingRoom, what);
  if (!cut.truncated) return cut;
  const lines = cut.text.split("\n");
  const note = lines.splice(lines.length - 2, 2).join("\n"); // the note and the final newline
  let fence: string | undefined;
  let openDetails = 0;
  for (const line of lines) {
    const marker = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence !== undefined) {
      if (marker && marker[1]![0] === fence[0] && marker[1]!.length >= fence.length && marker[2]!.trim() === "") fence = undefined;
      continue;
    }
    if (marker) fence = marker[1]!;
    else openDetails += (line.match(/<details>/g) ?? []).length - (line.match(/<\/details>/g) ?? []).length;
  }
  const closers = [...(fence ? [fence] : []), ...Array.from({ length: Math.max(0, openDetails) }, () => "\n</details>")];
  return { text: [...lines, ...closers, note].join("\n"), truncated: true };
}
