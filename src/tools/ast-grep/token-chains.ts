/**
 * A sharper text prefilter for TypeScript, TSX and JavaScript patterns: runs of tokens that a
 * match must hold next to each other. `$A === undefined` must contain `===` followed by
 * `undefined` with nothing but trivia between, while the word prefilter (prefilter.ts) only asks
 * for the word `undefined` somewhere — which most files have.
 *
 * Why it is sound (ast-grep 0.51 "smart" matching, crates/core/src/match_tree): a pattern node's
 * children are matched in order against the candidate's children; between two matched children
 * the matcher skips only unnamed nodes and comments (extras). So when two leaves of the pattern
 * are consecutive children of one node, the text between their matches in a file holds only
 * whitespace, comments and unnamed tokens — punctuation and keywords. A leaf's text is compared
 * exactly when it is named; an unnamed leaf is compared by kind only, which for a literal token
 * (kind equal to its text) means the same text. Left out, because they may be absent from a
 * match: a leaf that is or contains a metavariable, an unnamed leaf right after a `$$$` (the
 * matcher skips those), a `;` (automatic semicolons are empty), and anything outside the node
 * the pattern is reduced to.
 */
import type { SgNode } from "@ast-grep/napi";

/** A run of at least two token texts that must occur in order with only trivia between. */
export type TokenChain = readonly string[];

/** The node ast-grep matches for a pattern: its parse root, descended while it has one child. */
function patternNode(root: SgNode): SgNode {
  let node = root;
  for (;;) {
    const children = node.children();
    // ast-grep also descends when a second child is empty (a missing or zero-width node)
    const single = children.length === 1 || (children.length === 2 && children[1]!.text() === "");
    if (!single) return node;
    node = children[0]!;
  }
}

/** Text that is a metavariable (`$A`, `$$A`, `$$$`, `$$$ARGS`; read generously). */
const METAVAR = /^\$+[A-Z0-9_]*$/;
const ELLIPSIS = /^\$\$\$[A-Z0-9_]*$/;

/** Chains of consecutive sibling leaves of the pattern tree (see the module comment). */
export function tokenChains(patternRoot: SgNode): TokenChain[] {
  const chains: TokenChain[] = [];
  const visit = (node: SgNode): void => {
    if (METAVAR.test(node.text())) return; // matches any text
    const children = node.children();
    let run: string[] = [];
    let afterEllipsis = false;
    const close = (): void => {
      if (run.length >= 2) chains.push(run);
      run = [];
    };
    for (const child of children) {
      const text = child.text();
      if (text === "") {
        close(); // a missing (or zero-width) node: not worth reasoning about
        continue;
      }
      if (ELLIPSIS.test(text)) {
        close();
        afterEllipsis = true;
        continue;
      }
      const named = child.isNamed();
      if (named) afterEllipsis = false;
      const anchor =
        child.isLeaf() &&
        !text.startsWith("$") && // a metavariable, or an identifier the expando rules might touch
        (named || (!afterEllipsis && child.kind() === text && text !== ";"));
      if (anchor) run.push(text);
      else {
        close();
        if (!child.isLeaf()) visit(child);
      }
    }
    close();
  };
  visit(patternNode(patternRoot));
  return chains;
}

/**
 * Words that are unnamed tokens (keywords) in the tree-sitter JavaScript/TypeScript grammars and
 * so may sit between two matched siblings: TypeScript's keywords (a test checks the list against
 * the compiler's), plus `target` and `meta` (`new.target`, `import.meta`).
 */
const KEYWORDS = new Set(
  (
    "abstract accessor any as assert asserts async await bigint boolean break case catch class const constructor " +
    "continue debugger declare default defer delete do else enum export extends false finally for from function " +
    "get global if immutable implements import in infer instanceof interface intrinsic is keyof let meta module " +
    "namespace never new null number object of out override package private protected public readonly require " +
    "return satisfies set static string super switch symbol target this throw true try type typeof undefined " +
    "unique unknown using var void while with yield"
  ).split(" "),
);

/** The keyword list, for the test that compares it with TypeScript's. */
export const GAP_KEYWORDS: ReadonlySet<string> = KEYWORDS;

const LONGEST_KEYWORD = Math.max(...[...KEYWORDS].map((keyword) => keyword.length));

function isIdentifierChar(code: number): boolean {
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
  return IDENTIFIER_PART.test(String.fromCharCode(code));
}

const IDENTIFIER_PART = /[\p{ID_Continue}\u200C\u200D]/u;

/** Does `text` at `at` hold `token`, not glued to identifier characters on either side? */
function tokenAt(text: string, at: number, token: string): boolean {
  if (!text.startsWith(token, at)) return false;
  if (isIdentifierChar(token.charCodeAt(0)) && at > 0 && isIdentifierChar(text.charCodeAt(at - 1))) return false;
  const end = at + token.length;
  return !(isIdentifierChar(token.charCodeAt(token.length - 1)) && end < text.length && isIdentifierChar(text.charCodeAt(end)));
}

/** What ends a line comment in JavaScript. */
const LINE_END = /[\n\r\u2028\u2029]/g;

/** How a read of trivia went, for holdsChain's bookkeeping. */
interface Scan {
  /** Where the trivia ended: the token found, the word or unterminated comment that ended it, or the text's end. */
  stop: number;
  /** How far it read (past `stop` when it read a word or a comment to its end). */
  read: number;
  /** Where it first jumped over a comment, or -1: up to there it stepped on every token. */
  firstJump: number;
}

/**
 * Where `token` starts after `from` with only trivia between (whitespace, comments, punctuation,
 * keywords), or -1 when it does not. The trivia is read generously: anything that is not an
 * identifier-like word outside the keyword list is skipped, one character, keyword or comment at
 * a time.
 */
function nextAfterTrivia(text: string, from: number, token: string, scan: Scan): number {
  let i = from;
  scan.firstJump = -1;
  while (i < text.length) {
    if (tokenAt(text, i, token)) {
      scan.stop = scan.read = i;
      return i;
    }
    const c = text.charCodeAt(i);
    if (isIdentifierChar(c)) {
      let end = i + 1;
      while (end < text.length && isIdentifierChar(text.charCodeAt(end))) end++;
      if (end - i > LONGEST_KEYWORD || !KEYWORDS.has(text.slice(i, end))) {
        scan.stop = i;
        scan.read = end;
        return -1;
      }
      i = end;
    } else if (text.startsWith("/*", i)) {
      if (scan.firstJump < 0) scan.firstJump = i;
      const close = text.indexOf("*/", i + 2);
      if (close < 0) {
        scan.stop = i;
        scan.read = text.length;
        return -1;
      }
      i = close + 2;
    } else if (text.startsWith("//", i) || text.startsWith("<!--", i) || text.startsWith("-->", i)) {
      if (scan.firstJump < 0) scan.firstJump = i;
      LINE_END.lastIndex = i;
      if (!LINE_END.test(text)) {
        scan.stop = i;
        scan.read = text.length;
        return -1;
      }
      i = LINE_END.lastIndex;
    } else i++;
  }
  scan.stop = scan.read = i;
  return -1;
}

/**
 * Does `text` hold the chain somewhere (with only trivia between its tokens)? Each try reads on
 * from one occurrence of the first token. Two things keep this linear:
 * - A later occurrence that the first step of a try stepped on (before it found the second token
 *   or gave up, and before it jumped over any comment) needs no try of its own: its first step
 *   would read a tail of the same tokens, stop at the same place and go on the same way. Past a
 *   jumped-over comment that does not hold (the try may have read a `/*` inside a string).
 * - What is left is budgeted (a few times the text's length); past the budget the answer is
 *   "maybe", which only costs a parse.
 *
 * With `comments` (sorted [start, end, …] ranges that are certainly comments, from
 * typeScriptCommentRanges), an occurrence of the first token inside one gets no try: a match's
 * tokens are code, and a comment is a single leaf the matcher never looks into. (Skipping a try
 * never makes `resume` skip more: it is only set by tries that ran.)
 */
export function holdsChain(text: string, chain: TokenChain, comments?: readonly number[]): boolean {
  const first = chain[0]!;
  let budget = 4 * text.length + 4096;
  let resume = 0;
  let comment = 0;
  const scan: Scan = { stop: 0, read: 0, firstJump: -1 };
  for (let at = text.indexOf(first); at >= 0; at = text.indexOf(first, Math.max(at + 1, resume))) {
    if (!tokenAt(text, at, first)) continue;
    if (comments !== undefined) {
      while (comment < comments.length && comments[comment + 1]! <= at) comment += 2;
      if (comment < comments.length && comments[comment]! <= at) continue;
    }
    let cursor = at + first.length;
    let held = true;
    for (let k = 1; k < chain.length && held; k++) {
      const next = nextAfterTrivia(text, cursor, chain[k]!, scan);
      budget -= scan.read - cursor;
      if (k === 1) resume = scan.firstJump < 0 ? scan.stop : Math.min(scan.stop, scan.firstJump);
      if (next < 0) held = false;
      else cursor = next + chain[k]!.length;
    }
    if (held || budget < 0) return true;
  }
  return false;
}
