/**
 * tsconfig entries compared before and after a move: path entries must still resolve, and every
 * `include`/`exclude` pattern must still match what it matched (TypeScript's own matching).
 */
import { brokenEntries, configEntries, entryMatches, type ConfigState } from "../../src/tools/ts-config-entries.js";
import { VirtualFs } from "../../src/tools/ts-project.js";

function state(config: string, files: Record<string, string>): ConfigState {
  return { config, text: files[config]!, fs: new VirtualFs(new Set(Object.keys(files)), (rel) => files[rel]) };
}

function matches(config: string, files: Record<string, string>, value: string, options = {}): string[] {
  const entry = configEntries(config, files[config]!).find((each) => each.value === value)!;
  return entryMatches(config, entry, options, state(config, files).fs);
}

describe("entryMatches: what one include/exclude pattern matches on its own", () => {
  const files = {
    "app/tsconfig.json": '{ "include": ["src", "src/**/*.test.ts", "scripts/*.js"], "exclude": ["src/gen"] }',
    "app/src/a.ts": "",
    "app/src/a.test.ts": "",
    "app/src/gen/g.ts": "",
    "app/src/style.css": "",
    "app/scripts/s.js": "",
    "other/o.ts": "",
  };

  it("a directory means every file below it with an extension the options allow, relative to the config", () => {
    expect(matches("app/tsconfig.json", files, "src")).toEqual(["app/src/a.test.ts", "app/src/a.ts", "app/src/gen/g.ts"]);
  });

  it("a glob matches as tsc matches it", () => {
    expect(matches("app/tsconfig.json", files, "src/**/*.test.ts")).toEqual(["app/src/a.test.ts"]);
  });

  it("JavaScript files only with allowJs", () => {
    expect(matches("app/tsconfig.json", files, "scripts/*.js")).toEqual([]);
    expect(matches("app/tsconfig.json", files, "scripts/*.js", { allowJs: true })).toEqual(["app/scripts/s.js"]);
  });

  it("an exclude pattern is matched the same way (what it keeps out)", () => {
    expect(matches("app/tsconfig.json", files, "src/gen")).toEqual(["app/src/gen/g.ts"]);
  });
});

describe("brokenEntries: each entry against itself before the move", () => {
  const same = (rel: string) => rel;

  it("names a pattern that matched files before and matches none after, with the count", () => {
    const before = { "tsconfig.json": '{\n  "include": ["old/*.ts", "src"]\n}', "old/a.ts": "", "old/b.ts": "", "src/c.ts": "" };
    const after = { "tsconfig.json": before["tsconfig.json"], "new/a.ts": "", "new/b.ts": "", "src/c.ts": "" };
    const moved = (rel: string) => rel.replace(/^old\//, "new/");
    expect(brokenEntries(state("tsconfig.json", before), state("tsconfig.json", after), moved)).toEqual([
      { config: "tsconfig.json", line: 2, kind: "include", value: "old/*.ts", reason: "matched 2 files before and would match none after" },
    ]);
  });

  it("a pattern that still matches some of its files is not broken (a lost file is the program check's to name)", () => {
    const before = { "tsconfig.json": '{ "include": ["lib/*.ts"] }', "lib/a.ts": "", "lib/b.ts": "" };
    const after = { "tsconfig.json": before["tsconfig.json"], "lib/a.ts": "", "tools/b.ts": "" };
    expect(brokenEntries(state("tsconfig.json", before), state("tsconfig.json", after), same)).toEqual([]);
  });

  it("a pattern that matched nothing before is not the move's doing", () => {
    const before = { "tsconfig.json": '{ "include": ["src", "generated"] }', "src/a.ts": "" };
    expect(brokenEntries(state("tsconfig.json", before), state("tsconfig.json", before), same)).toEqual([]);
  });

  it("a pattern emptied by the move is fine when another entry of its kind matches its files at their new paths", () => {
    // TypeScript's getEditsForFileRename_tsconfig_include_add: "dir" stays, "newDir/b.ts" is appended.
    const before = { "src/tsconfig.json": '{ "include": ["dir"] }', "src/dir/a.ts": "" };
    const after = { "src/tsconfig.json": '{ "include": ["dir", "newDir/b.ts"] }', "src/newDir/b.ts": "" };
    const moved = (rel: string) => (rel === "src/dir/a.ts" ? "src/newDir/b.ts" : rel);
    expect(brokenEntries(state("src/tsconfig.json", before), state("src/tsconfig.json", after), moved)).toEqual([]);
  });

  it("an appended pattern must match a file", () => {
    const before = { "tsconfig.json": '{ "include": ["src"] }', "src/a.ts": "" };
    const after = { "tsconfig.json": '{ "include": ["src", "nowhere"] }', "src/a.ts": "" };
    expect(brokenEntries(state("tsconfig.json", before), state("tsconfig.json", after), same)).toEqual([
      { config: "tsconfig.json", line: 1, kind: "include", value: "nowhere", reason: "would match no file" },
    ]);
  });

  it("a files entry names a file that must still exist", () => {
    const before = { "tsconfig.json": '{ "files": ["a.ts"] }', "a.ts": "" };
    const after = { "tsconfig.json": before["tsconfig.json"], "b.ts": "" };
    expect(brokenEntries(state("tsconfig.json", before), state("tsconfig.json", after), same)).toEqual([
      { config: "tsconfig.json", line: 1, kind: "files", value: "a.ts", reason: "would not resolve" },
    ]);
  });
});
