/**
 * Text prefilter: words that must occur in the text of any file the pattern can match, so files
 * without them are never parsed. It is deliberately conservative:
 * - only identifier-like words are used (never punctuation, numbers or whitespace, which
 *   ast-grep's structural matching is free to differ on);
 * - anything attached to a `$` is dropped whole (metavariables, and `$word` identifiers);
 * - a pattern containing a comment opener yields no words (comments may be trivia);
 * - words keep their case only for languages whose identifiers and keywords are case-sensitive
 *   (TypeScript, TSX, JavaScript: ast-grep compares leaf text exactly, so a match holds the word
 *   as written); elsewhere (HTML, CSS: a grammar may alias case-insensitive keywords and tag
 *   names) they are compared case-insensitively.
 */

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

export function requiredWords(pattern: string, caseSensitive = false): string[] {
  if (/\/\/|\/\*|<!--/.test(pattern)) return [];
  const withoutMetaVars = pattern.replace(/\$+[A-Za-z0-9_]*/g, " ");
  const words = new Set<string>();
  for (const match of withoutMetaVars.matchAll(WORD)) {
    words.add(caseSensitive ? match[0] : match[0].toLowerCase());
  }
  // Longest first: the rarest words usually reject a file soonest.
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * True when `text` may contain a match: it holds every required word, outside comments when
 * the comments of the language can be told apart with certainty (see typeScriptCommentRanges).
 * `caseSensitive` words (from requiredWords(pattern, true)) must occur as written; otherwise the
 * words are lower case and compared case-insensitively.
 */
export function mayMatch(text: string, words: readonly string[], typescript = false, caseSensitive = false): boolean {
  if (words.length === 0) return true;
  let lower: string | undefined;
  for (const word of words) {
    if (text.includes(word)) continue;
    if (caseSensitive) return false;
    lower ??= text.toLowerCase();
    if (!lower.includes(word)) return false;
  }
  if (!typescript) return true;
  // Cheap first: a word that occurs, as written, somewhere no comment can be needs no lexing.
  const uncertain = words.filter((word) => !occursOutsideAnyComment(text, word));
  if (uncertain.length === 0) return true;
  // The lexer then only needs to reach the end of the last occurrence of those words (as
  // written: case-insensitive words may occur in any case, anywhere).
  let stop = text.length;
  if (caseSensitive) {
    stop = 0;
    for (const word of uncertain) stop = Math.max(stop, text.lastIndexOf(word) + word.length);
  }
  const spans = typeScriptCommentRanges(text, stop);
  if (spans === undefined || spans.length === 0) return true;
  for (const word of uncertain) {
    if (occursOutside(text, word, spans)) continue;
    if (caseSensitive) return false;
    lower ??= text.toLowerCase();
    // Lower-casing can change lengths outside ASCII; then offsets no longer fit the comments.
    if (lower.length !== text.length) continue;
    if (!occursOutside(lower, word, spans)) return false;
  }
  return true;
}

/** How many occurrences of a word occursOutsideAnyComment looks at before leaving it to the lexer. */
const QUICK_OCCURRENCES = 32;

/**
 * Does `word` (identifier characters only) occur at a place that certainly is not inside a
 * comment, whatever the strings, templates and regular expressions of the text are? False means
 * "not sure" (the lexer then decides). An occurrence at `at` is outside every comment when
 * - no `//` precedes it on its line (a line comment ends at the line's end; looking back only to
 *   a `\n` takes in more of the text when lines end otherwise, which only makes this stricter), and
 * - no `/*` precedes it, or a `*\/` lies between the last `/*` before it and it: a block comment
 *   holding `at` would start at or before that last `/*` and end at the first `*\/` after its
 *   start, so before `at`.
 * Every `//`, `/*` and `*\/` is taken at face value (even inside a string), which can only make an
 * occurrence look commented, never the reverse.
 */
function occursOutsideAnyComment(text: string, word: string): boolean {
  let at = text.indexOf(word);
  for (let seen = 0; at >= 0 && seen < QUICK_OCCURRENCES; seen++) {
    const lineStart = text.lastIndexOf("\n", at) + 1;
    let lineComment = false;
    for (let i = lineStart; i + 1 < at; i++) {
      if (text.charCodeAt(i) === 47 && text.charCodeAt(i + 1) === 47) {
        lineComment = true;
        break;
      }
    }
    if (lineComment) {
      // the rest of the line is as uncertain
      const lineEnd = text.indexOf("\n", at);
      if (lineEnd < 0) return false;
      at = text.indexOf(word, lineEnd);
      continue;
    }
    const open = at === 0 ? -1 : text.lastIndexOf("/*", at - 1);
    if (open < 0) return true;
    const close = text.indexOf("*/", open + 2);
    if (close >= 0 && close + 2 <= at) return true;
    // everything up to that `*\/` (or the end) is as uncertain
    if (close < 0) return false;
    at = text.indexOf(word, close + 2);
  }
  return false;
}

/** Does `word` occur in `text` outside the comment ranges? */
function occursOutside(text: string, word: string, comments: readonly number[]): boolean {
  let r = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    while (r < comments.length && comments[r + 1]! <= at) r += 2;
    if (r >= comments.length || at < comments[r]! || at + word.length > comments[r + 1]!) return true;
  }
  return false;
}

/**
 * The end of the line holding `at` (its `\n`, or the text's end) and the last position on it
 * where a comment, string or template could start or the brace depth could change (`` ` ``, `'`,
 * `"`, `{`, `}`, or a `//` or `/*`), or -1.
 */
function lineFacts(text: string, at: number): { end: number; lastSpecial: number } {
  const newline = text.indexOf("\n", at);
  const end = newline < 0 ? text.length : newline;
  for (let p = end - 1; p > at; p--) {
    const c = text.charCodeAt(p);
    if (c === 96 || c === 39 || c === 34 || c === 123 || c === 125) return { end, lastSpecial: p };
    if (c === 47 && p + 1 < end && (text.charCodeAt(p + 1) === 47 || text.charCodeAt(p + 1) === 42)) return { end, lastSpecial: p };
  }
  return { end, lastSpecial: -1 };
}

const REGEX_AFTER_WORD = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code > 127
  );
}

/**
 * The comments of a TypeScript text as [start, end, start, end, ...] (sorted), or undefined when
 * the text cannot be lexed with certainty (then callers must treat all of it as code). Strings, template literals and regular
 * expressions are kept: only comments can be removed, so a word left out was certainly in a
 * comment, where no pattern without a comment in it can match. A `/` whose meaning (division or
 * regular expression) is uncertain is only accepted when the rest of its line holds nothing that
 * could start a comment, string or template, or change brace depth. TypeScript only: JSX text (in
 * .js/.jsx/.tsx) can hold `//` that is not a comment.
 * With `stop`, lexing ends at the first token that starts at or after it: the comments returned
 * are then those starting before `stop` (the text's end is not checked for open templates).
 */
export function typeScriptCommentRanges(text: string, stop = text.length): number[] | undefined {
  const ranges: number[] = [];
  let i = 0;
  const n = text.length;
  const end = Math.min(stop, n);
  /** Brace depth inside each open `${`; the template resumes when its depth returns to 0. */
  const templates: number[] = [];
  /** The line of the last uncertain `/` (facts computed once per line: many `/` on one long line stay linear). */
  let line = { end: -1, lastSpecial: -1 };
  /** What the previous significant token was, for regex-vs-division. */
  let prev: "start" | "punct" | "word-regex" | "value" | "close" = "start";
  const scanTemplate = (): boolean => {
    // i is just after a backtick or a closing `}` of a substitution
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 96) {
        i++;
        return true;
      } else if (c === 36 && text.charCodeAt(i + 1) === 123) {
        i += 2;
        templates.push(0);
        return true;
      } else i++;
    }
    return false;
  };
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isWordChar(c)) {
      const start = i;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      // Only short lower-case words can be keywords that a regular expression may follow.
      const length = i - start;
      const keyword =
        length >= 2 &&
        length <= 10 &&
        c >= 97 &&
        c <= 122 &&
        !(start > 0 && text.charCodeAt(start - 1) === 46) &&
        REGEX_AFTER_WORD.has(text.slice(start, i));
      prev = keyword ? "word-regex" : "value";
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (c === 47) {
      const next = text.charCodeAt(i + 1);
      if (next === 47) {
        const end = text.indexOf("\n", i);
        const stop = end < 0 ? n : end;
        ranges.push(i, stop);
        i = stop;
        continue;
      }
      if (next === 42) {
        const end = text.indexOf("*/", i + 2);
        if (end < 0) return undefined;
        ranges.push(i, end + 2);
        i = end + 2;
        continue;
      }
      const certainRegex = prev === "start" || prev === "punct" || prev === "word-regex";
      const certainDivision = prev === "value";
      if (i >= line.end) line = lineFacts(text, i);
      if (line.lastSpecial <= i) {
        // Either reading leaves the line without comments, strings or brace changes.
        i = line.end;
        prev = "punct";
        continue;
      }
      if (certainDivision) {
        i++;
        prev = "punct";
        continue;
      }
      if (!certainRegex) return undefined;
      // a regular expression literal: up to the unescaped `/` outside a class, on this line
      let j = i + 1;
      let inClass = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 10 || d === 13) return undefined;
        if (d === 92) j++;
        else if (d === 91) inClass = true;
        else if (d === 93) inClass = false;
        else if (d === 47 && !inClass) break;
      }
      if (j >= n) return undefined;
      i = j + 1;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      prev = "value";
      continue;
    }
    if (c === 39 || c === 34) {
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 92) j++;
        else if (d === c) break;
        else if (d === 10) return undefined; // unterminated string: not sure what we read
      }
      if (j >= n) return undefined;
      i = j + 1;
      prev = "value";
      continue;
    }
    if (c === 96) {
      i++;
      if (!scanTemplate()) return undefined;
      prev = "value";
      continue;
    }
    if (c === 123) {
      if (templates.length > 0) templates[templates.length - 1]!++;
      i++;
      prev = "punct";
      continue;
    }
    if (c === 125) {
      i++;
      if (templates.length > 0) {
        if (templates[templates.length - 1] === 0) {
          templates.pop();
          if (!scanTemplate()) return undefined;
          prev = "value";
          continue;
        }
        templates[templates.length - 1]!--;
      }
      prev = "close";
      continue;
    }
    // `]` ends a value. Uncertain: `)` may close an `if (...)` before a regex, and `++`/`--`
    // may be postfix (then `/` divides) or prefix.
    const postfix = (c === 43 || c === 45) && text.charCodeAt(i - 1) === c;
    prev = c === 93 ? "value" : c === 41 || postfix ? "close" : "punct";
    i++;
  }
  if (i >= n && templates.length > 0) return undefined;
  return ranges;
}
