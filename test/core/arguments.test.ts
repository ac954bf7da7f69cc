import { Type } from "@sinclair/typebox";
import { bindArguments, splitWords } from "../../src/core/arguments.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";
import { COMMENT_PHRASING, phrased } from "../../src/core/messages.js";
import { helpSection, usageError, usageLine, parameterLines } from "../../src/core/usage.js";

const tool: AnyToolDefinition = {
  name: "demo_tool",
  label: "Demo",
  description: "demo",
  parameters: Type.Object({
    from: Type.String(),
    to: Type.Optional(Type.String()),
    paths: Type.Array(Type.String(), { default: ["."], description: "where to look" }),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    dryRun: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("slow")])),
    ops: Type.Optional(Type.Array(Type.Object({ pat: Type.String(), out: Type.String() }))),
  }),
  positionals: ["from", "to"],
  execute: async () => ({ content: [] }),
};

const bind = (args: string, block?: { language: "json" | "yaml"; text: string }) => bindArguments(tool, { args, block });

describe("bindArguments", () => {
  describe("on lines of a file", () => {
    const scoped: AnyToolDefinition = {
      ...tool,
      // Like /ast-edit: with no paths named, the file the comment is on.
      atLines: (given, anchor) => (given.paths !== undefined ? given : { ...given, paths: [anchor.path] }),
    };
    const refusal = "Those lines left the diff.";

    test("a tool that reads the lines is scoped to them", () => {
      expect(bindArguments(scoped, { args: "a" }, { path: "src/a.ts", startLine: 2, endLine: 3 })).toEqual({
        ok: true,
        params: { from: "a", paths: ["src/a.ts"] },
      });
    });

    test("lines that cannot scope a command refuse it only when the tool reads them", () => {
      expect(bindArguments(scoped, { args: "a" }, { refusal })).toEqual({ ok: false, errors: [], refusal });
      expect(bindArguments(scoped, { args: "a --paths src" }, { refusal })).toEqual({ ok: true, params: { from: "a", paths: ["src"] } });
      expect(bindArguments(tool, { args: "a" }, { refusal })).toEqual({ ok: true, params: { from: "a", paths: ["."] } });
    });

    test("a tool's own failure is not taken for a refusal", () => {
      const broken: AnyToolDefinition = {
        ...tool,
        atLines: () => {
          throw new Error("bug");
        },
      };
      expect(() => bindArguments(broken, { args: "a" }, { refusal })).toThrow("bug");
    });
  });

  test("positionals, --key value, --key=value, repeated arrays, numbers, booleans", () => {
    expect(bind("a b --paths src --paths=lib --limit 3 --dry-run --mode=fast")).toEqual({
      ok: true,
      params: { from: "a", to: "b", paths: ["src", "lib"], limit: 3, dryRun: true, mode: "fast" },
    });
  });

  test("defaults fill what is missing; --no-flag sets false; camelCase names work too", () => {
    expect(bind("a --no-dry-run --dryRun=false")).toEqual({ ok: true, params: { from: "a", paths: ["."], dryRun: false } });
  });

  test("shell-style quoting keeps spaces and $ metavariables literal", () => {
    expect(splitWords(`--pat 'console.log($$$A)' --out "logger.debug($$$A)" x\\ y`)).toEqual([
      "--pat",
      "console.log($$$A)",
      "--out",
      "logger.debug($$$A)",
      "x y",
    ]);
    expect(splitWords("a | b > c ; src/*.ts")).toEqual(["a", "|", "b", ">", "c", ";", "src/*.ts"]);
  });

  test("a json block gives complex parameters; flags on the line override it", () => {
    const result = bind("--paths src", { language: "json", text: '{"from": "x", "ops": [{"pat": "a", "out": "b"}], "paths": ["lib"]}' });
    expect(result).toEqual({ ok: true, params: { from: "x", ops: [{ pat: "a", out: "b" }], paths: ["src"] } });
  });

  test("a yaml block works the same way", () => {
    expect(bind("", { language: "yaml", text: "from: y\nlimit: 2\n" })).toEqual({
      ok: true,
      params: { from: "y", limit: 2, paths: ["."] },
    });
  });

  test("every error is listed: unknown option, missing value, wrong type, extra words, missing required", () => {
    // `wrong`: the parameters the errors are about, whose help a usage error shows (an unknown option is none).
    expect(bind("--bogus 1 --limit")).toEqual({
      ok: false,
      errors: ["Unknown option --bogus.", "--limit needs a value."],
      wrong: ["limit"],
    });
    expect(bind("a b c")).toEqual({ ok: false, errors: ['Unexpected argument: "c".'] });
    const wrong = bind("--limit 0 --mode medium");
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.errors).toEqual([
      "<from> is required",
      "--limit must be at least 1 (got 0)",
      '--mode must be one of fast, slow (got "medium")',
    ]);
    expect(!wrong.ok && wrong.wrong).toEqual(["from", "limit", "mode"]);
  });

  test("a union of a type and values says what it takes, from the schema", () => {
    const timed: AnyToolDefinition = {
      ...tool,
      parameters: Type.Object({ timeout: Type.Union([Type.Integer({ minimum: 1 }), Type.Literal("off")]) }),
      positionals: [],
    };
    expect(bindArguments(timed, { args: "", block: { language: "yaml", text: "timeout: [1]\n" } })).toEqual({
      ok: false,
      errors: ['--timeout must be a whole number of at least 1 or "off" (got 1 value)'],
      wrong: ["timeout"],
    });
  });

  test("`--paths a b` is one list of two when the list also takes the positional words", () => {
    const edit: AnyToolDefinition = {
      ...tool,
      name: "edit",
      parameters: Type.Object({ pat: Type.Optional(Type.Array(Type.String())), paths: Type.Array(Type.String(), { default: ["."] }) }),
      positionals: ["paths"],
    };
    const bindEdit = (args: string) => bindArguments(edit, { args });
    expect(bindEdit("--pat x --paths src/log.ts src/main.ts")).toEqual({
      ok: true,
      params: { pat: ["x"], paths: ["src/log.ts", "src/main.ts"] },
    });
    expect(bindEdit("--paths a --paths b c d")).toEqual({ ok: true, params: { paths: ["a", "b", "c", "d"] } });
    expect(bindEdit("--pat x a --paths b")).toEqual({ ok: true, params: { pat: ["x"], paths: ["b", "a"] } });
    // A block's list is replaced by the command line, never silently mixed with it.
    expect(bindArguments(edit, { args: "c", block: { language: "json", text: '{"paths": ["blocked"]}' } })).toEqual({
      ok: true,
      params: { paths: ["c"] },
    });
  });

  test("too few list values are said in words, with how many were given", () => {
    const pairs: AnyToolDefinition = {
      ...tool,
      parameters: Type.Object({ paths: Type.Array(Type.String(), { minItems: 2 }) }),
      positionals: ["paths"],
      positionalUsage: "<from> <to> [<from> <to>…]",
    };
    expect(bindArguments(pairs, { args: "only-one" })).toEqual({
      ok: false,
      errors: ["<paths> needs at least 2 values (got 1)"],
      wrong: ["paths"],
    });
    expect(usageLine(pairs)).toBe("/demo-tool <from> <to> [<from> <to>…]");
  });

  test("a broken block is reported, not thrown", () => {
    const result = bind("a", { language: "json", text: "{nope" });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^The json block is not valid: /);
  });
});

describe("usage", () => {
  test("usage line and parameter lines come from the schema", () => {
    expect(usageLine(tool)).toBe(
      "/demo-tool <from> [<to>] [--paths <text>...] [--limit <number>] [--dry-run] [--mode <fast|slow>] [--ops <json>...]",
    );
    expect(parameterLines(tool)).toContain('--paths — where to look (default: ["."])');
  });

  test("an option's title names its value; a short line folds the optional options into [options]", () => {
    const titled: AnyToolDefinition = {
      ...tool,
      parameters: Type.Object({
        from: Type.String(),
        at: Type.Optional(Type.String({ title: "path:line" })),
        lines: Type.String({ title: "FROM-TO" }),
      }),
      positionals: ["from"],
    };
    expect(usageLine(titled)).toBe("/demo-tool <from> [--at <path:line>] --lines <FROM-TO>");
    expect(usageLine(titled, { short: true })).toBe("/demo-tool <from> --lines <FROM-TO> [options]");
  });

  test("a bad call says what is wrong, the one usage line, the wrong parameters' help and where the rest is", () => {
    const bound = bind("x --limit 0 --paths");
    expect(bound.ok).toBe(false);
    if (bound.ok) return;
    expect(usageError(tool, "/demo-tool", bound.errors, bound.wrong ?? [])).toBe(
      [
        "`/demo-tool` was not run:",
        "",
        "- --paths needs a value.",
        "",
        "Usage: `/demo-tool <from> [<to>] [--paths <text>...] [--limit <number>] [--dry-run] [--mode <fast|slow>] [--ops <json>...]`",
        "",
        '- `--paths` — where to look (default: ["."])',
        "",
        "Every parameter, and examples: `/help demo-tool`.",
      ].join("\n"),
    );
  });

  test("tool texts take the front end's words: {applyCommand} and {trustedFiles}", () => {
    const words = { ...COMMENT_PHRASING, applyCommand: "`apply it`", trustedFiles: "the trusted files", helpCommand: () => "`help`" };
    const text = "Reads {trustedFiles}; {applyCommand} commits it; {other} and { applyCommand } stay.";
    expect(phrased(text)).toBe(
      "Reads the default branch, never the pull request; `/resolve apply` commits it; {other} and { applyCommand } stay.",
    );
    expect(phrased(text, words)).toBe("Reads the trusted files; `apply it` commits it; {other} and { applyCommand } stay.");
    const described = { ...tool, description: "Shows the diff; {applyCommand} commits it.", examples: [] };
    expect(helpSection(described, words).split("\n")[0]).toBe("**`/demo-tool`** — Shows the diff; `apply it` commits it.");
  });
});
