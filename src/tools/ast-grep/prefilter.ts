/**
 * Text prefilter: words that must occur in the text of any file the pattern can match, so files
 * without them are never parsed. It is deliberately conservative:
 * - only identifier-like words are used (never punctuation, numbers or whitespace, which
 *   ast-grep's structural matching is free to differ on);
 * - anything attached to a `$` is dropped whole (metavariables, and `$word` identifiers);
 * - a pattern containing a comment opener yields no words (comments may be trivia);
 * - words are compared case-insensitively (a grammar may alias case-insensitive keywords).
 */

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

export function requiredWords(pattern: string): string[] {
  if (/\/\/|\/\*|<!--/.test(pattern)) return [];
  const withoutMetaVars = pattern.replace(/\$+[A-Za-z0-9_]*/g, " ");
  const words = new Set<string>();
  for (const match of withoutMetaVars.matchAll(WORD)) {
    words.add(match[0].toLowerCase());
  }
  // Longest first: the rarest words usually reject a file soonest.
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * True when `text` may contain a match: it holds every required word, outside comments when
 * the comments of the language can be told apart with certainty (see typeScriptCommentRanges).
 */
export function mayMatch(text: string, words: readonly string[], typescript = false): boolean {
  if (words.length === 0) return true;
  let lower: string | undefined;
  for (const word of words) {
    if (text.includes(word)) continue;
    lower ??= text.toLowerCase();
    if (!lower.includes(word)) return false;
  }
  if (!typescript) return true;
  const spans = typeScriptCommentRanges(text);
  if (spans === undefined || spans.length === 0) return true;
  for (const word of words) {
    if (occursOutside(text, word, spans)) continue;
    lower ??= text.toLowerCase();
    // Lower-casing can change lengths outside ASCII; then offsets no longer fit the comments.
    if (lower.length !== text.length) continue;
    if (!occursOutside(lower, word, spans)) return false;
  }
  return true;
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

const REGEX_AFTER_WORD = new Set([
  "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await",
]);

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code > 127;
}

/**
 * The comments of a TypeScript text as [start, end, start, end, ...] (sorted), or undefined when
 * the text cannot be lexed with certainty (then callers must treat all of it as code). Strings, template literals and regular
 * expressions are kept: only comments can be removed, so a word left out was certainly in a
 * comment, where no pattern without a comment in it can match. A `/` whose meaning (division or
 * regular expression) is uncertain is only accepted when the rest of its line holds nothing that
 * could start a comment, string or template, or change brace depth. TypeScript only: JSX text (in
 * .js/.jsx/.tsx) can hold `//` that is not a comment.
 */
export function typeScriptCommentRanges(text: string): number[] | undefined {
  const ranges: number[] = [];
  let i = 0;
  const n = text.length;
  /** Brace depth inside each open `${`; the template resumes when its depth returns to 0. */
  const templates: number[] = [];
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
  while (i < n) {
    const c = text.charCodeAt(i);
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
      const lineEnd = text.indexOf("\n", i);
      const rest = text.slice(i + 1, lineEnd < 0 ? n : lineEnd);
      if (!/[`'"{}]|\/\/|\/\*/.test(rest)) {
        // Either reading leaves the line without comments, strings or brace changes.
        i = lineEnd < 0 ? n : lineEnd;
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
    if (isWordChar(c)) {
      const start = i;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      const word = text.slice(start, i);
      const afterDot = start > 0 && text.charCodeAt(start - 1) === 46;
      prev = !afterDot && REGEX_AFTER_WORD.has(word) ? "word-regex" : "value";
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    // `]` ends a value. Uncertain: `)` may close an `if (...)` before a regex, and `++`/`--`
    // may be postfix (then `/` divides) or prefix.
    const postfix = (c === 43 || c === 45) && text.charCodeAt(i - 1) === c;
    prev = c === 93 ? "value" : c === 41 || postfix ? "close" : "punct";
    i++;
  }
  if (templates.length > 0) return undefined;
  return ranges;
}
