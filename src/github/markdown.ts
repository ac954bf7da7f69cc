/**
 * Safe markdown for replies and check runs. Everything that came from a person or a repository
 * (reasons, labels, paths, error messages) goes through `text()` or into a code fence, so it
 * cannot ping anyone (@mentions) or inject HTML.
 */

/**
 * Escapes text for GitHub markdown: HTML and @mentions outside code spans. Code spans are kept
 * as they are: GitHub shows them literally (no HTML, no mentions), and entities there would show.
 */
export function text(value: string): string {
  let out = "";
  let rest = value;
  for (;;) {
    const span = /(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest);
    if (!span) return out + escapeProse(rest);
    out += escapeProse(rest.slice(0, span.index)) + span[0];
    rest = rest.slice(span.index + span[0].length);
  }
}

function escapeProse(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    // A zero-width joiner after "@" keeps the text readable but stops the mention.
    .replace(/@(?=[A-Za-z0-9_-])/g, "@\u2060");
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
