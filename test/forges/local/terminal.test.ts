/** The terminal's plain text from the runtime's markdown, as GitHub would show the same text. */
import { plain } from "../../../src/forges/local/terminal.js";

test("code spans lose their backticks; an unclosed run of backticks stays as written, and later spans still read", () => {
  expect(plain("Use `/resolve apply <reason>` or ``a `b` c``.")).toBe("Use /resolve apply <reason> or a `b` c.");
  expect(plain("a ```yaml block of rules after the command runs like `ast-grep scan`; see `--lang`.")).toBe(
    "a ```yaml block of rules after the command runs like ast-grep scan; see --lang.",
  );
  expect(plain("**bold** and `code`")).toBe("bold and code");
});

test("an unclosed run of backticks never pairs with one in a later paragraph or list item", () => {
  // /help's text: a "```yaml" in one paragraph and another in a list item below it.
  const help = [
    "**`/ast-edit`** — a ```yaml block of rules runs like `ast-grep scan --rule RULES`.",
    "",
    "- `--ops` — Rewrites to run in order.",
    "- `--rules` — YAML rules: a ```yaml block right after the command line.",
    "- `<paths>` — Files (default `.`).",
  ].join("\n");
  expect(plain(help)).toBe(
    [
      "/ast-edit — a ```yaml block of rules runs like ast-grep scan --rule RULES.",
      "",
      "- --ops — Rewrites to run in order.",
      "- --rules — YAML rules: a ```yaml block right after the command line.",
      "- <paths> — Files (default .).",
    ].join("\n"),
  );
  expect(plain("`` ```yaml `` blocks, `a` and ` b `")).toBe("```yaml blocks, a and b");
});

test("a fenced block keeps its lines as written; its fences become blank lines", () => {
  expect(plain("The CLI warns:\n```\nWarning: `x` and **y**\n```\nafter `z`")).toBe("The CLI warns:\n\nWarning: `x` and **y**\n\nafter z");
});
