/**
 * Every reply kind rendered as GitHub would render it (GitHub-flavoured markdown through `marked`),
 * then the HTML checked: fences and <details> closed (a marker after the reply is a paragraph of its
 * own), no element or attribute from user input, no @mention left live.
 */
import { marked } from "marked";
import { Parser } from "htmlparser2";
import type { CommentOutcome, CommandOutcome } from "../../../../src/core/runtime.js";
import type { PendingRecord } from "../../../../src/core/store.js";
import { renderReply } from "../../../../src/forges/github/replies/render.js";
import { Runtime } from "../../../../src/core/runtime.js";
import { createRegistry } from "../../../../src/tools/index.js";

const ALLOWED = new Set(["p", "strong", "em", "code", "pre", "a", "ul", "ol", "li", "details", "summary", "hr", "br", "blockquote", "del"]);
const HOSTILE = "<img src=x onerror=alert(1)> @octocat <script>alert(2)</script>";

function record(seq: number, label: string): PendingRecord {
  return { id: `id-${seq}`, seq, label, tool: "ast_edit", requestedBy: "mia", headSha: "a".repeat(40) } as unknown as PendingRecord;
}

function diffOf(files: number, linesPerFile: number): string {
  return (
    Array.from({ length: files }, (_, file) =>
      [
        `diff --git a/f${file}.ts b/f${file}.ts`,
        `--- a/f${file}.ts`,
        `+++ b/f${file}.ts`,
        `@@ -1,${linesPerFile} +1,${linesPerFile} @@`,
        ...Array.from({ length: linesPerFile }, (_, line) => `-console.log(${line}); // \`\`\` ${HOSTILE}\n+log(${line});`),
      ].join("\n"),
    ).join("\n") + "\n"
  );
}

function reply(outcomes: CommandOutcome[], stack: PendingRecord[], skipped: string[] = []): string {
  const result: CommentOutcome = {
    outcomes,
    skipped,
    stack,
    steering: stack[0]
      ? `Pending: ${stack[0].label}. Resolve it with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`
      : undefined,
  };
  return renderReply(result, {
    commitUrl: (sha) => `https://github.com/o/r/commit/${sha}`,
    checkRunUrl: (r) => `https://github.com/o/r/runs/${r.seq}`,
  });
}

interface Rendered {
  tags: string[];
  attributes: Array<[string, string, string]>;
  prose: string;
  html: string;
}

function render(markdown: string): Rendered {
  const html = marked.parse(`${markdown}\n\nEND-OF-REPLY`, { gfm: true, async: false });
  const rendered: Rendered = { tags: [], attributes: [], prose: "", html };
  let inCode = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        rendered.tags.push(name);
        for (const [key, value] of Object.entries(attributes)) rendered.attributes.push([name, key, value]);
        if (name === "code" || name === "pre") inCode++;
      },
      onclosetag(name) {
        if (name === "code" || name === "pre") inCode--;
      },
      ontext(value) {
        if (inCode === 0) rendered.prose += value;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return rendered;
}

function expectSafe(markdown: string): Rendered {
  const rendered = render(markdown);
  expect(rendered.tags.filter((tag) => !ALLOWED.has(tag))).toEqual([]);
  for (const [tag, key, value] of rendered.attributes) {
    if (tag === "code" && key === "class") expect(value).toBe("language-diff");
    else {
      expect([tag, key]).toEqual(["a", "href"]);
      expect(value).toMatch(/^https:\/\/github\.com\//);
    }
  }
  expect(rendered.prose).not.toMatch(/(^|[^\w\u2060])@[A-Za-z0-9]/);
  // Fences and <details> are closed: the marker is a paragraph of its own at the end.
  expect(rendered.html.trimEnd().endsWith("<p>END-OF-REPLY</p>")).toBe(true);
  return rendered;
}

describe("replies render safely and read status-first", () => {
  test("a preview: status line with the check-run link, files and long diff folded, the next command once", () => {
    const top = record(1, `AST Edit: 60 replacements in 60 files ${HOSTILE}`);
    const files = Array.from({ length: 60 }, (_, index) => `- f${index}.ts: 1 replacement`).join("\n");
    const markdown = reply(
      [
        {
          command: "/ast-edit",
          kind: "preview",
          ok: true,
          message: `${top.label}\n${files}`,
          pushed: [{ record: top, diff: diffOf(60, 1) }],
        },
      ],
      [top],
    );
    const firstLine = markdown.split("\n")[0]!;
    expect(firstLine).toContain("— pending, nothing written yet · [check run](https://github.com/o/r/runs/1)");
    expect(markdown.split("AST Edit: 60 replacements").length - 1).toBe(1); // the label, once
    expect(markdown).toContain("<details><summary>Details (60 lines)</summary>");
    expect(markdown).toContain("<details><summary>Diff: 361 lines in 60 files</summary>");
    expect(markdown.endsWith("---\nNext: `/resolve apply <reason>` or `/resolve discard <reason>`.")).toBe(true);
    const rendered = expectSafe(markdown);
    expect(rendered.tags.filter((tag) => tag === "details")).toHaveLength(2);
  });

  test("an agent's proposal (MCP) says whose it is and the agent's rationale, with nothing live from either", () => {
    const top = {
      ...record(1, "AST Edit: 1 replacement in 1 file"),
      proposedBy: { agent: `bot ${HOSTILE}`, rationale: `tidy ${HOSTILE}` },
    };
    const markdown = reply(
      [{ command: "/ast-edit", kind: "preview", ok: true, message: top.label, pushed: [{ record: top, diff: "" }] }],
      [top],
    );
    const rendered = expectSafe(markdown);
    expect(rendered.prose).toContain(
      "AST Edit: 1 replacement in 1 file — proposed by an agent (bot <img src=x onerror=alert(1)> @\u2060octocat <script>alert(2)</script>) for @\u2060mia, pending, nothing written yet · check run\nThe agent's rationale: tidy <img src=x onerror=alert(1)> @\u2060octocat <script>alert(2)</script>",
    );
  });

  test("a short diff is shown open; apply and discard say the commit and reason once", () => {
    const top = record(2, "AST Edit: 1 replacement in 1 file");
    expectSafe(
      reply(
        [{ command: "/ast-edit", kind: "preview", ok: true, message: top.label, pushed: [{ record: top, diff: diffOf(1, 1) }] }],
        [top],
      ),
    );
    const applied = reply(
      [
        {
          command: "/resolve",
          kind: "resolve",
          ok: true,
          message: "Applied 1 replacement in 1 file.",
          resolved: { record: top, action: "apply", reason: `ship it ${HOSTILE}`, rendered: "", commit: "b".repeat(40) },
        },
      ],
      [],
    );
    expect(applied).toBe(
      `Applied 1 replacement in 1 file.\n\nCommit [bbbbbbb](https://github.com/o/r/commit/${"b".repeat(40)}) · Reason: ship it &lt;img src=x onerror=alert(1)&gt; @\u2060octocat &lt;script&gt;alert(2)&lt;/script&gt;`,
    );
    expectSafe(applied);
    const discarded = reply(
      [
        {
          command: "/resolve",
          kind: "resolve",
          ok: true,
          message: "Discarded: AST Edit: 1 replacement in 1 file. Reason: no",
          resolved: { record: top, action: "discard", reason: "no", rendered: "" },
        },
      ],
      [],
    );
    expect(discarded).toBe("Discarded: AST Edit: 1 replacement in 1 file. Reason: no");
  });

  test("errors, several commands with a skipped one, /pending", () => {
    const top = record(3, "Move: 1 file (1 import updated)");
    const markdown = reply(
      [
        {
          command: "/pending",
          kind: "pending",
          ok: true,
          message: `1 pending, newest first (the first is resolved next):\n1. ${top.label} (#3, \`/move\` by ${HOSTILE})`,
        },
        { command: "/ast-edit", kind: "error", ok: false, message: `\`/ast-edit\` was not run:\n\n- Unknown option --${HOSTILE}.` },
      ],
      [top],
      ["/move a b"],
    );
    expect(markdown.split("\n")[0]).toBe("✅ `/pending`");
    expect(markdown).toContain("Not run, because an earlier command failed: `/move a b`.");
    expect(
      markdown.endsWith(
        "---\nPending: Move: 1 file (1 import updated). Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
      ),
    ).toBe(true);
    expectSafe(markdown);
  });

  test("/help: examples and usage lines are their own lists, not run into the last bullet", async () => {
    const runtime = new Runtime(await createRegistry({}));
    const markdown = reply([{ command: "/help", kind: "help", ok: true, message: runtime.help() }], []);
    const rendered = expectSafe(markdown);
    expect(rendered.html).toContain(
      "<p>Examples:</p>\n<ul>\n<li><code>/ast-edit --pat &#39;console.log($$$A)&#39; --out &#39;logger.debug($$$A)&#39; src</code></li>",
    );
    expect(rendered.html).toContain(
      "<p>Usage: <code>/rename-symbol &lt;from&gt; [&lt;to&gt;] [--at &lt;path:line[:column]&gt;] [--file &lt;path&gt;] [--one-name-on-line] [--find-in-comments] [--find-in-strings] [--provide-prefix-and-suffix-text-for-rename] [--quote-preference &lt;auto|double|single&gt;] [--import-module-specifier-preference &lt;shortest|project-relative|relative|non-relative&gt;] [--import-module-specifier-ending &lt;auto|minimal|index|js&gt;]</code></p>\n<ul>\n<li><code>&lt;from&gt;</code>",
    );
  });

  test("a reply cut near GitHub's limit closes its fence and its <details>", () => {
    const top = record(4, "AST Edit: 3000 replacements in 1 file");
    const huge: CommandOutcome[] = Array.from({ length: 3 }, () => ({
      command: "/ast-edit",
      kind: "preview",
      ok: true,
      message: top.label,
      pushed: [{ record: top, diff: diffOf(1, 3000) }],
    }));
    const markdown = reply(huge, [top]);
    expect(markdown.length).toBeLessThanOrEqual(65_536);
    expect(markdown).toContain("not shown (the output is limited to");
    expectSafe(markdown);
  });
});
