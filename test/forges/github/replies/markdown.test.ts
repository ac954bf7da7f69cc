import { code, codeBlock, text, truncate } from "../../../../src/forges/github/replies/markdown.js";

describe("markdown", () => {
  test("user text cannot ping or inject HTML; code spans stay literal", () => {
    expect(text("thanks @octocat <img src=x> & co")).toBe("thanks @\u2060octocat &lt;img src=x&gt; &amp; co");
    expect(text("run `/resolve apply <reason>` now @team")).toBe("run `/resolve apply <reason>` now @\u2060team");
    expect(text("mail me at a@b.c")).toBe("mail me at a@\u2060b.c");
  });

  test("a line after a list is its own paragraph, as in the plain text; fenced code is left as it is", () => {
    expect(text("- src/api.ts: 2 replacements\nOnly matches overlapping lines 12–14 of src/api.ts were kept.")).toBe(
      "- src/api.ts: 2 replacements\n\nOnly matches overlapping lines 12–14 of src/api.ts were kept.",
    );
    expect(text("Not searched: 2 files:\n- a.ts\n1. b.ts\n  indented, still the item's\nNote\n\nAfter a blank")).toBe(
      "Not searched: 2 files:\n- a.ts\n1. b.ts\n  indented, still the item's\n\nNote\n\nAfter a blank",
    );
    expect(text("- a\n```\n- b\nnot a note\n```\nNote")).toBe("- a\n\n```\n- b\nnot a note\n```\nNote");
    expect(text("Status\nDetails")).toBe("Status\nDetails");
  });

  test("fences outgrow the backticks inside", () => {
    expect(codeBlock("a ``` b\n", "diff")).toBe("````diff\na ``` b\n````");
    expect(code("x`y")).toBe("``x`y``");
  });

  test("truncation cuts at a line and says how much is left out", () => {
    const long = Array.from({ length: 100 }, (_, index) => `line ${index}`).join("\n");
    const cut = truncate(long, 200);
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(200);
    expect(cut.text).toMatch(/\n… \d+ more lines not shown \(the output is limited to 200 characters\)\.\n$/);
    expect(truncate("short", 200)).toEqual({ text: "short", truncated: false });
  });
});
