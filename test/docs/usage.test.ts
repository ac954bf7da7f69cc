/**
 * The commands' usage has one source, the tools' definitions: /help, docs/commands.md and the
 * README's table are made from it (scripts/docs-usage.mjs, on the built code). This fails when a
 * committed doc differs from what `npm run docs:usage` would write.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RESOLVE_USAGE } from "../../src/core/messages.js";
import { RESERVED_USAGE } from "../../src/core/command-reference.js";
import { Runtime } from "../../src/core/runtime.js";
import { usageLine } from "../../src/core/usage.js";
import { createRegistry } from "../../src/tools/index.js";

test("docs/commands.md and the README's table are what the tools' usage makes", () => {
  const checked = spawnSync(process.execPath, ["scripts/docs-usage.mjs", "--check"], { encoding: "utf8" });
  expect({ code: checked.status, out: checked.stdout, err: checked.stderr }).toEqual({
    code: 0,
    out: "README.md and docs/commands.md match the tools' usage.\n",
    err: "",
  });
});

test("/help and the docs give every tool the same usage line", async () => {
  const registry = await createRegistry();
  const help = new Runtime(registry).help();
  const commands = readFileSync("docs/commands.md", "utf8");
  const readme = readFileSync("README.md", "utf8");
  for (const tool of registry.list()) {
    const line = usageLine(tool);
    expect(help).toContain(`Usage: \`${line}\``);
    // In a table cell a `|` is written `\|`.
    expect(commands).toContain(`\`${line.replace(/\|/g, "\\|")}\``);
    expect(readme).toContain(`\`${usageLine(tool, { short: true }).replace(/\|/g, "\\|")}\``);
  }
  // Outside code, `<from>` would be read as HTML and dropped by GitHub: the docs write it as entities.
  expect(commands).toContain(
    "- `<paths>` — Pairs of paths, each &lt;from&gt; followed by the &lt;to&gt; it moves to: files or directories",
  );
  // /resolve's refusals name the same usage as the table.
  expect(RESERVED_USAGE.slice(0, 3).map((row) => row.usage)).toEqual(RESOLVE_USAGE.split(" | "));
});

test("a doc edited by hand inside the generated region is caught, and written back", () => {
  const copy = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-docs-"));
  mkdirSync(path.join(copy, "docs"));
  copyFileSync("docs/commands.md", path.join(copy, "docs/commands.md"));
  const readme = readFileSync("README.md", "utf8");
  const edited = readme.replace("`/move <from> <to> [<from> <to>…] [options]`", "`/move <paths>...`");
  expect(edited).not.toBe(readme);
  writeFileSync(path.join(copy, "README.md"), edited);
  const script = (...args: string[]) => {
    const result = spawnSync(process.execPath, ["scripts/docs-usage.mjs", "--docs", copy, ...args], { encoding: "utf8" });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  expect(script("--check")).toEqual({ code: 1, out: "", err: "README.md differs from the tools' usage: run npm run docs:usage.\n" });
  expect(script()).toEqual({ code: 0, out: "Written: README.md.\n", err: "" });
  expect(readFileSync(path.join(copy, "README.md"), "utf8")).toBe(readme);
});
