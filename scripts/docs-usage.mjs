#!/usr/bin/env node
/**
 * Writes the commands' reference into the docs from the built tools (dist/, the code /help runs):
 * the table in README.md (short) and docs/commands.md, and each tool's section in docs/commands.md, between
 * their `<!-- usage:NAME -->` and `<!-- /usage:NAME -->` markers, formatted as prettier would.
 * `--check` writes nothing and exits 1 naming the docs that differ (test/docs/usage.test.ts).
 * `--docs DIR` reads (and writes) the docs under DIR instead of this repository's.
 * Run it through `npm run docs:usage`, which builds first.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { createRegistry } = await import(path.join(root, "dist/src/tools/index.js"));
const { commandsTable, toolReference } = await import(path.join(root, "dist/src/core/command-reference.js"));

const tools = (await createRegistry()).list();
// The README's table is short (each tool's options as "[options]"); docs/commands.md has the whole lines.
const regions = { short: commandsTable(tools, { short: true }), table: commandsTable(tools), tools: toolReference(tools) };
const docs = { "README.md": ["short"], "docs/commands.md": ["table", "tools"] };

/** The doc with each region's text between its markers; a missing marker is an error, not a skip. */
function splice(text, file, names) {
  for (const name of names) {
    const begin = `<!-- usage:${name} -->`;
    const end = `<!-- /usage:${name} -->`;
    const from = text.indexOf(begin);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${file} has no ${begin} … ${end} region.`);
    text = `${text.slice(0, from + begin.length)}\n\n${regions[name]}\n\n${text.slice(to)}`;
  }
  return text;
}

const check = process.argv.includes("--check");
// `--docs DIR`: the docs of another tree (a test's copy), formatted with this repository's settings.
const docsAt = process.argv.includes("--docs") ? path.resolve(process.argv[process.argv.indexOf("--docs") + 1]) : root;
const differing = [];
for (const [file, names] of Object.entries(docs)) {
  const where = path.join(docsAt, file);
  const committed = await readFile(where, "utf8");
  const options = { ...(await prettier.resolveConfig(path.join(root, file))), filepath: where };
  const generated = await prettier.format(splice(committed, file, names), options);
  if (generated === committed) continue;
  differing.push(file);
  if (!check) await writeFile(where, generated);
}
if (check && differing.length > 0) {
  console.error(
    `${differing.join(" and ")} ${differing.length === 1 ? "differs" : "differ"} from the tools' usage: run npm run docs:usage.`,
  );
  process.exit(1);
}
console.log(
  check ? `${Object.keys(docs).join(" and ")} match the tools' usage.` : `Written: ${differing.join(", ") || "nothing changed"}.`,
);
