/** The terminal's plain text from the runtime's markdown, as GitHub would show the same text. */
import { plain } from "../../../src/forges/local/terminal.js";

test("code spans lose their backticks; an unclosed run of backticks stays as written, and later spans still read", () => {
  expect(plain("Use `/resolve apply <reason>` or ``a `b` c``.")).toBe("Use /resolve apply <reason> or a `b` c.");
  expect(plain("a ```yaml block of rules after the command runs like `ast-grep scan`; see `--lang`.")).toBe(
    "a ```yaml block of rules after the command runs like ast-grep scan; see --lang.",
  );
  expect(plain("**bold** and `code`")).toBe("bold and code");
});
