/**
 * Every relative link and anchor in README.md and docs/ resolves: the file exists and a `#anchor`
 * is a heading's slug as GitHub makes it (github-slugger, the library GitHub's own slugs are
 * reproduced with). Links into code blocks are not links, so the markdown is read with marked's lexer.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { marked, type Token } from "marked";

const ROOT = path.resolve(".");

function markdownFiles(root: string): string[] {
  const docs = path.join(root, "docs");
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : name.endsWith(".md") ? [file] : [];
    });
  return [path.join(root, "README.md"), ...(existsSync(docs) ? walk(docs) : [])];
}

/** What a heading reads as: its inline tokens' text, without markup. */
function plain(tokens: Token[]): string {
  return tokens
    .map((token) => ("tokens" in token && token.tokens ? plain(token.tokens) : "text" in token ? String(token.text) : ""))
    .join("");
}

function walkTokens(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    if ("tokens" in token && token.tokens) walkTokens(token.tokens, visit);
    if (token.type === "list") for (const item of token.items as Token[]) walkTokens([item], visit);
    if (token.type === "table") {
      for (const cell of token.header as { tokens: Token[] }[]) walkTokens(cell.tokens, visit);
      for (const row of token.rows as { tokens: Token[] }[][]) for (const cell of row) walkTokens(cell.tokens, visit);
    }
  }
}

function read(file: string): { anchors: Set<string>; links: string[] } {
  const tokens = marked.lexer(readFileSync(file, "utf8"), { gfm: true });
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const links: string[] = [];
  walkTokens(tokens, (token) => {
    if (token.type === "heading") anchors.add(slugger.slug(plain(token.tokens ?? [])));
    if (token.type === "link" || token.type === "image") links.push(token.href as string);
  });
  return { anchors, links };
}

/** Each link of `files` that does not resolve, as `file: link`. */
export function brokenLinks(root: string): string[] {
  const files = markdownFiles(root);
  const parsed = new Map(files.map((file) => [file, read(file)]));
  const broken: string[] = [];
  for (const [file, { links }] of parsed) {
    for (const link of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: — not checked (no network)
      const [target = "", anchor] = link.split("#", 2);
      const resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
      const where = `${path.relative(root, file)}: ${link}`;
      if (!existsSync(resolved)) {
        broken.push(where);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith(".md")) continue;
      const anchors = parsed.get(resolved)?.anchors ?? read(resolved).anchors;
      if (!anchors.has(anchor)) broken.push(where);
    }
  }
  return broken;
}

test("every relative link and anchor in README.md and docs/ resolves", () => {
  expect(brokenLinks(ROOT)).toEqual([]);
});

test("a missing file, a missing anchor and a heading's slug as GitHub makes it are told apart", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-links-"));
  writeFileSync(
    path.join(root, "README.md"),
    [
      "# Title",
      "## Repository: `.github/resolve-bot.yml`",
      "[ok](#repository-githubresolve-botyml) [ok](docs/a.md#a-b) [gone](docs/gone.md) [bad](#nope) [bad](docs/a.md#nope)",
      "```",
      "[in code](nowhere.md)",
      "```",
    ].join("\n"),
  );
  const docs = path.join(root, "docs");
  mkdirSync(docs);
  writeFileSync(path.join(docs, "a.md"), "# A b\n\n[up](../README.md#title)\n");
  expect(brokenLinks(root)).toEqual(["README.md: docs/gone.md", "README.md: #nope", "README.md: docs/a.md#nope"]);
});

test("README.md is at most 200 lines", () => {
  expect(readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
});
