/**
 * Replacement templates expanded exactly as ast-grep CLI 0.51.1 expands `--rewrite`
 * (crates/core/src/replacer/template.rs and indent.rs):
 * - `$NAME` / `$$NAME` insert the source text of a single capture, `$$$NAME` the source span from
 *   the first to the last node of a multi capture (separators and newlines included); an unknown
 *   or empty capture inserts nothing. A `$` not followed by a name is literal.
 * - A multi-line capture is re-indented: its lines lose the indentation of the line it starts on
 *   and gain the indentation of the template line the variable sits on.
 * - The expanded template is re-indented to the line of the match: every line after the first
 *   gains that line's leading spaces.
 * Indentation is leading spaces only (tabs count as text), looked for within the 512 bytes
 * (UTF-8) before an offset, as the CLI does. Strings here are JS strings (UTF-16); napi ranges
 * are UTF-16 offsets, so slicing is direct, and the byte window is computed explicitly.
 */

const MAX_LOOK_AHEAD = 512;
const NEWLINE = 10;
const SPACE = 32;

/** Leading spaces of the line `offset` is on (CLI get_indent_at_offset). */
export function indentAt(src: string, offset: number): number {
  let indent = 0;
  let bytes = 0;
  for (let i = offset - 1; i >= 0; i--) {
    const code = src.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xdc00 && code <= 0xdfff && i > 0 && isHighSurrogate(src.charCodeAt(i - 1))) {
      bytes += 4;
      i--;
    } else bytes += 3;
    // The CLI only looks at the last 512 bytes; with no newline among them the indent is 0.
    if (bytes > MAX_LOOK_AHEAD) return 0;
    if (code === NEWLINE) return indent;
    if (code === SPACE) indent++;
    else indent = 0;
  }
  return indent;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** CLI indent_lines for a multi-line text whose own indentation is `original`. */
export function reindent(text: string, original: number, indent: number): string {
  if (original === indent) return text;
  if (original > indent) {
    const prefix = " ".repeat(original - indent);
    return text
      .split("\n")
      .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
      .join("\n");
  }
  return text.split("\n").join(`\n${" ".repeat(indent - original)}`);
}

export interface TemplateVar {
  name: string;
  multi: boolean;
  /** Indentation of the template line the variable is on. */
  indent: number;
}

export interface Template {
  /** fragments.length === vars.length + 1; vars[i] sits between fragments[i] and fragments[i + 1]. */
  fragments: string[];
  vars: TemplateVar[];
}

function isMetaVarChar(code: number): boolean {
  return (code >= 65 && code <= 90) || code === 95 || (code >= 48 && code <= 57); // A-Z _ 0-9
}

/** Splits a template into literal fragments and metavariables (CLI create_template). */
export function parseTemplate(template: string): Template {
  const fragments: string[] = [];
  const vars: TemplateVar[] = [];
  let fragmentStart = 0;
  let search = 0;
  for (;;) {
    const at = template.indexOf("$", search);
    if (at < 0) break;
    let dollars = 1;
    while (dollars < 3 && template.charCodeAt(at + dollars) === 36) dollars++;
    let end = at + dollars;
    while (end < template.length && isMetaVarChar(template.charCodeAt(end))) end++;
    if (end === at + dollars) {
      search = at + 1;
      continue;
    }
    fragments.push(template.slice(fragmentStart, at));
    vars.push({ name: template.slice(at + dollars, end), multi: dollars === 3, indent: indentAt(template, at) });
    fragmentStart = end;
    search = end;
  }
  fragments.push(template.slice(fragmentStart));
  return { fragments, vars };
}

/** A source span [start, end) captured by a metavariable, or null when it captured nothing. */
export type CaptureLookup = (name: string, multi: boolean) => readonly [number, number] | null;

/** The replacement text for one match starting at `matchStart` in `src`. */
export function expandTemplate(template: Template, src: string, matchStart: number, capture: CaptureLookup): string {
  let out = template.fragments[0]!;
  for (let i = 0; i < template.vars.length; i++) {
    const variable = template.vars[i]!;
    const span = capture(variable.name, variable.multi);
    if (span) {
      const text = src.slice(span[0], span[1]);
      out += text.includes("\n") ? reindent(text, indentAt(src, span[0]), variable.indent) : text;
    }
    out += template.fragments[i + 1]!;
  }
  return reindent(out, 0, indentAt(src, matchStart));
}
