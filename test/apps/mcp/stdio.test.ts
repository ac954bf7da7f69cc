/**
 * `resolve-bot mcp` as an agent runs it: the official SDK's client over stdio, spawning the built
 * binary (dist/src/apps/bin.js, built by `npm test`'s pretest) on a fixture checkout.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Ajv } from "ajv";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { git, makeRepo, treeAt } from "../../helpers/git-repo.js";

const BIN = path.resolve("dist/src/apps/bin.js");

const SOURCES = {
  "src/a.ts": 'export function greet(name: string) {\n  console.log("hi", name);\n}\n',
  "src/b.ts": 'import { greet } from "./a";\n\nconsole.log(greet("b"));\n',
};

const LOGGER = { ops: [{ pat: "console.log($$$A)", out: "logger.debug($$$A)" }], paths: ["src/a.ts"] };
const LOGGER_DIFF = [
  "```diff",
  "diff --git a/src/a.ts b/src/a.ts",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -1,3 +1,3 @@",
  " export function greet(name: string) {",
  '-  console.log("hi", name);',
  '+  logger.debug("hi", name);',
  " }",
  "```",
].join("\n");
const STEERING =
  'Pending: AST Edit: 1 replacement in 1 file. Resolve it with a `resolve` call with action "apply" or "discard" and a reason.';

interface Session {
  client: Client;
  /** Resolves at the next `notifications/tools/list_changed`. */
  nextListChange(): Promise<void>;
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; structured: unknown }>;
  names(): Promise<string[]>;
}

const sessions: Client[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((client) => client.close()));
});

async function connect(repo: string, flags: string[] = []): Promise<Session> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  let waiting: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--cwd", repo, ...flags], stderr: "pipe" }),
  );
  sessions.push(client);
  return {
    client,
    nextListChange: () => new Promise<void>((resolve) => waiting.push(resolve)),
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text: string }[];
      return { text: content.map((part) => part.text).join("\n"), isError: result.isError === true, structured: result.structuredContent };
    },
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
  };
}

describe("resolve-bot mcp (stdio)", () => {
  test("lists the preview tools with their schemas as valid JSON Schema and annotations; pending and resolve beside them", async () => {
    const { client } = await connect(makeRepo(SOURCES));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint, tool.annotations?.destructiveHint])).toEqual([
      ["ast_edit", true, undefined],
      ["ast_fix", true, undefined],
      ["move", true, undefined],
      ["rename_symbol", true, undefined],
      ["pending", true, undefined],
      ["resolve", false, true],
    ]);
    const ajv = new Ajv({ strict: false });
    for (const tool of tools)
      expect([tool.name, ajv.validateSchema(tool.inputSchema), ajv.errors ?? null]).toEqual([tool.name, true, null]);
    // The schema is the tool's: ast_edit's ops are objects of pat and out, and it validates what a call sends.
    const astEdit = ajv.compile(tools[0]!.inputSchema);
    expect([astEdit(LOGGER), astEdit({ ops: "x" })]).toEqual([true, false]);
    const resolve = tools.find((tool) => tool.name === "resolve")!;
    expect(resolve.inputSchema.required).toEqual(["action", "reason"]);
    expect(ajv.compile(resolve.inputSchema)({ action: "apply" })).toBe(false);
  });

  test("a preview, pending (from the agent and from a terminal beside it), resolve apply commits exactly the preview, resolve undo reverts it", async () => {
    const repo = makeRepo(SOURCES);
    const agent = await connect(repo);
    expect(await agent.call("ast_edit", LOGGER)).toEqual({
      text: ["- src/a.ts: 1 replacement", "Pending: AST Edit: 1 replacement in 1 file", LOGGER_DIFF, STEERING].join("\n\n"),
      isError: false,
      structured: { status: "ok", pushed: [{ seq: 1, label: "AST Edit: 1 replacement in 1 file", files: ["src/a.ts"] }], stackDepth: 1 },
    });
    // Nothing is written by a preview.
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(await agent.call("pending", {})).toEqual({
      text:
        "1 pending, newest first (the first is resolved next):\n1. AST Edit: 1 replacement in 1 file (#1, `/ast-edit` by Test User)\n\n" +
        STEERING,
      isError: false,
      structured: { status: "ok", pushed: [], stackDepth: 1 },
    });
    // The stack is the CLI's: a person sees it in a terminal.
    const terminal = spawnSync(process.execPath, [BIN, "--cwd", repo, "pending"], { encoding: "utf8" });
    expect([terminal.status, terminal.stdout]).toEqual([
      0,
      '1 pending, newest first (the first is resolved next):\n1. AST Edit: 1 replacement in 1 file (#1, /ast-edit by Test User)\n\nPending: AST Edit: 1 replacement in 1 file. Resolve it with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".\n',
    ]);

    const before = git(repo, "rev-parse", "HEAD").trim();
    const applied = await agent.call("resolve", { action: "apply", reason: "use the logger" });
    const commit = git(repo, "rev-parse", "HEAD").trim();
    expect(applied).toEqual({
      text: `Applied 1 replacement in 1 file.\n\nCommitted ${commit.slice(0, 7)}.`,
      isError: false,
      structured: {
        status: "ok",
        pushed: [],
        resolved: { action: "apply", label: "AST Edit: 1 replacement in 1 file", commit },
        stackDepth: 0,
      },
    });
    // Exactly the preview: one commit on the old head, changing src/a.ts as the diff showed and nothing else.
    expect(git(repo, "rev-parse", "HEAD~1").trim()).toBe(before);
    expect(treeAt(repo)).toEqual({ ...SOURCES, "src/a.ts": SOURCES["src/a.ts"].replace("console.log", "logger.debug") });
    expect(git(repo, "log", "-1", "--format=%s").trim()).toBe("AST Edit: 1 replacement in 1 file");
    expect(git(repo, "status", "--porcelain")).toBe("");

    const short = commit.slice(0, 7);
    const undo = await agent.call("resolve", { action: "undo", reason: "the logger is not ready" });
    expect(undo.text).toBe(
      [
        `Reverts ${short} as \`git revert\` would, onto the head (${short}). Reason: the logger is not ready`,
        `Pending: Undo: AST Edit: 1 replacement in 1 file (${short})`,
        LOGGER_DIFF.replace(
          '-  console.log("hi", name);\n+  logger.debug("hi", name);',
          '-  logger.debug("hi", name);\n+  console.log("hi", name);',
        ),
        `Pending: Undo: AST Edit: 1 replacement in 1 file (${short}). Resolve it with a \`resolve\` call with action "apply" or "discard" and a reason.`,
      ].join("\n\n"),
    );
    const reverted = await agent.call("resolve", { action: "apply", reason: "the logger is not ready" });
    const revert = git(repo, "rev-parse", "HEAD").trim();
    expect(reverted.text).toBe(`Reverted ${short} (AST Edit: 1 replacement in 1 file).\n\nCommitted ${revert.slice(0, 7)}.`);
    expect(treeAt(repo)).toEqual(SOURCES);
  });

  test("resolve apply with only: the named file is committed, the rest stays pending as (rest) and applies after", async () => {
    const repo = makeRepo(SOURCES);
    const agent = await connect(repo);
    const both = { ops: LOGGER.ops, paths: ["src"] };
    expect((await agent.call("ast_edit", both)).structured).toMatchObject({ stackDepth: 1 });
    const part = await agent.call("resolve", { action: "apply", reason: "a first", only: ["src/a.ts"] });
    const label = "AST Edit: 2 replacements in 2 files";
    expect(part.text).toBe(
      [
        `Applied ${label} to src/a.ts only. The rest (src/b.ts) is pending as ${label} (rest).`,
        `Pending: ${label} (rest)`,
        [
          "```diff",
          "diff --git a/src/b.ts b/src/b.ts",
          "--- a/src/b.ts",
          "+++ b/src/b.ts",
          "@@ -1,3 +1,3 @@",
          ' import { greet } from "./a";',
          " ",
          '-console.log(greet("b"));',
          '+logger.debug(greet("b"));',
          "```",
        ].join("\n"),
        `Committed ${git(repo, "rev-parse", "--short=7", "HEAD").trim()}.`,
        `Pending: ${label} (rest). Resolve it with a \`resolve\` call with action "apply" or "discard" and a reason.`,
      ].join("\n\n"),
    );
    expect(part.structured).toMatchObject({ stackDepth: 1 });
    expect(git(repo, "show", "--name-only", "--format=", "HEAD").trim()).toBe("src/a.ts");
    expect(treeAt(repo)).toEqual({ ...SOURCES, "src/a.ts": SOURCES["src/a.ts"].replace("console.log", "logger.debug") });
    const rest = await agent.call("resolve", { action: "apply", reason: "b next" });
    expect(rest.structured).toMatchObject({ stackDepth: 0 });
    expect(treeAt(repo)).toEqual({
      "src/a.ts": SOURCES["src/a.ts"].replace("console.log", "logger.debug"),
      "src/b.ts": SOURCES["src/b.ts"].replace("console.log", "logger.debug"),
    });
    expect(await agent.call("resolve", { action: "apply", reason: "x", only: [] })).toEqual({
      text: '`only` is a list of the files to apply, e.g. ["src/a.ts"] (got []). Usage: `resolve` with `{ "action": "apply" | "discard" | "undo", "reason": "<why>" }` (and `"only": ["<path>", …]` to apply part).',
      isError: true,
      structured: undefined,
    });
  });

  test("bad arguments, a path out of the repository, an unknown tool and resolve without a reason answer tool errors with the usage", async () => {
    const repo = makeRepo(SOURCES);
    const agent = await connect(repo);
    const bad = await agent.call("rename_symbol", { path: 3 });
    expect(bad).toEqual({
      text: [
        "`rename_symbol` was not run:",
        "- `from` is required",
        "Arguments of `rename_symbol`:",
        [
          "- `from` (required) — Current name (or Container.name); with --at, the new name may come alone",
          "- `to` — New name",
          "- `at` — Position of the symbol: path:line or path:line:column (1-based), as an editor's F2",
          "- `file` — File that declares it, when the name is declared more than once",
          "- `oneNameOnLine` — With --at path:line and only the new name: refuse unless the line holds exactly one name (set by a comment on a line) (default: false)",
          "- `findInComments` — Also rename the name in comments (default: false)",
          "- `findInStrings` — Also rename the name in strings (default: false)",
          "- `providePrefixAndSuffixTextForRename` — Keep public names: { foo } becomes { foo: bar }, export { foo } becomes export { bar as foo } (on by default; --no-provide-prefix-and-suffix-text-for-rename turns it off)",
          "- `quotePreference` — Quotes of new import specifiers (default: typescript.preferences.quoteStyle, else auto)",
          "- `importModuleSpecifierPreference` — Style of rewritten import paths (default: typescript.preferences.importModuleSpecifier, else shortest)",
          "- `importModuleSpecifierEnding` — Extension of rewritten import paths (default: typescript.preferences.importModuleSpecifierEnding, else auto)",
        ].join("\n"),
      ].join("\n\n"),
      isError: true,
      structured: undefined,
    });
    const short = await agent.call("move", { paths: ["src/a.ts"] });
    expect(short).toEqual({
      text: [
        "`move` was not run:",
        "- `paths` needs at least 2 values (got 1)",
        "Arguments of `move`:",
        [
          "- `paths` (required) — Pairs of paths, each <from> followed by the <to> it moves to: files or directories",
          "- `quotePreference` — Quotes of new import specifiers (default: typescript.preferences.quoteStyle, else auto)",
          "- `importModuleSpecifierPreference` — Style of rewritten import paths (default: typescript.preferences.importModuleSpecifier, else shortest)",
          "- `importModuleSpecifierEnding` — Extension of rewritten import paths (default: typescript.preferences.importModuleSpecifierEnding, else auto)",
        ].join("\n"),
      ].join("\n\n"),
      isError: true,
      structured: undefined,
    });
    expect(await agent.call("ast_edit", { ...LOGGER, paths: ["../outside"] })).toEqual({
      text: 'Path "../outside" leaves the repository ("..").',
      isError: true,
      structured: { status: "user-error", pushed: [], stackDepth: 0 },
    });
    expect(await agent.call("move", { paths: ["src/a.ts", "../c.ts"] })).toEqual({
      text: 'Path "../c.ts" leaves the repository ("..").',
      isError: true,
      structured: { status: "user-error", pushed: [], stackDepth: 0 },
    });
    expect(await agent.call("nope", {})).toEqual({
      text: "Unknown tool `nope`. Tools: `ast_edit`, `ast_fix`, `move`, `rename_symbol`, `pending`, `resolve`.",
      isError: true,
      structured: undefined,
    });
    expect(await agent.call("resolve", { action: "apply" })).toEqual({
      text: '`resolve` with action "apply" needs a `reason`: why, in words. Usage: `resolve` with `{ "action": "apply" | "discard" | "undo", "reason": "<why>" }` (and `"only": ["<path>", …]` to apply part).',
      isError: true,
      structured: undefined,
    });
    expect(await agent.call("resolve", { action: "apply", reason: "nothing there" })).toEqual({
      text: "No pending action to resolve. Nothing to apply or discard.",
      isError: true,
      structured: { status: "user-error", pushed: [], stackDepth: 0 },
    });
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("1");
  });

  test("--strict: while something is pending the list narrows to resolve and pending (list_changed each way) and a preview is refused", async () => {
    const repo = makeRepo(SOURCES);
    const agent = await connect(repo, ["--strict"]);
    expect(await agent.names()).toEqual(["ast_edit", "ast_fix", "move", "rename_symbol", "pending", "resolve"]);
    const narrowed = agent.nextListChange();
    expect((await agent.call("ast_edit", LOGGER)).isError).toBe(false);
    await narrowed;
    expect(await agent.names()).toEqual(["pending", "resolve"]);
    expect(await agent.call("ast_edit", { ops: [{ pat: "greet", out: "hello" }], paths: ["src/b.ts"] })).toEqual({
      text:
        '`resolve-bot mcp --strict` is on: resolve the pending action first (AST Edit: 1 replacement in 1 file) with a `resolve` call with action "apply" or "discard" and a reason.\n\n' +
        STEERING,
      isError: true,
      structured: { status: "user-error", pushed: [], stackDepth: 1 },
    });
    const widened = agent.nextListChange();
    expect((await agent.call("resolve", { action: "discard", reason: "not now" })).text).toBe(
      "Discarded: AST Edit: 1 replacement in 1 file. Reason: not now",
    );
    await widened;
    expect(await agent.names()).toEqual(["ast_edit", "ast_fix", "move", "rename_symbol", "pending", "resolve"]);

    // A person resolving in a terminal beside the agent widens the list too, without the agent calling anything.
    const narrowedAgain = agent.nextListChange();
    expect((await agent.call("ast_edit", LOGGER)).isError).toBe(false);
    await narrowedAgain;
    expect(await agent.names()).toEqual(["pending", "resolve"]);
    const widenedByPerson = agent.nextListChange();
    const person = spawnSync(process.execPath, [BIN, "--cwd", repo, "resolve", "apply", "use the logger"], { encoding: "utf8" });
    expect([person.status, person.stderr]).toEqual([0, ""]);
    await widenedByPerson;
    expect(await agent.names()).toEqual(["ast_edit", "ast_fix", "move", "rename_symbol", "pending", "resolve"]);
    expect(treeAt(repo)["src/a.ts"]).toBe(SOURCES["src/a.ts"].replace("console.log", "logger.debug"));
  });

  test("the checkout's .github/resolve-bot.yml as committed at HEAD: its tools are the list, its steering: strict narrows it", async () => {
    const repo = makeRepo({ ...SOURCES, ".github/resolve-bot.yml": "tools: [ast_edit]\nsteering: strict\n" });
    const agent = await connect(repo);
    expect(await agent.names()).toEqual(["ast_edit", "pending", "resolve"]);
    expect((await agent.call("ast_edit", LOGGER)).isError).toBe(false);
    expect(await agent.names()).toEqual(["pending", "resolve"]);
    expect((await agent.call("ast_edit", LOGGER)).text.split("\n\n")[0]).toBe(
      '`.github/resolve-bot.yml` (as committed at HEAD) sets `steering: strict`: resolve the pending action first (AST Edit: 1 replacement in 1 file) with a `resolve` call with action "apply" or "discard" and a reason.',
    );
  });

  test("stdout is the protocol's: a directory that is no checkout is said on stderr (exit 1), a bad flag with the usage (exit 2); closing stdin ends it (exit 0)", () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-not-a-checkout-"));
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, "mcp", ...args], { input: "", encoding: "utf8" });
    expect(run(["--cwd", outside])).toMatchObject({ status: 1, stdout: "", stderr: `${outside} is not inside a git checkout.\n` });
    const flag = run(["--bogus"]);
    // node:util's parseArgs words the first line (differently across Node lines); the usage follows it.
    expect([flag.status, flag.stdout]).toEqual([2, ""]);
    expect(flag.stderr).toMatch(/^Unknown option '--bogus'/);
    expect(flag.stderr).toContain("resolve-bot mcp [--cwd DIR] [--strict]");
    expect(run(["--cwd", makeRepo(SOURCES)])).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  test("the MCP Inspector CLI lists the tools of resolve-bot mcp", () => {
    const repo = makeRepo(SOURCES);
    const inspector = path.resolve("node_modules/@modelcontextprotocol/inspector-cli/build");
    // Run from its build directory: the Inspector CLI finds its own package.json relative to the working directory.
    const listed = spawnSync(process.execPath, ["cli.js", "--cli", process.execPath, BIN, "mcp", "--cwd", repo, "--method", "tools/list"], {
      cwd: inspector,
      encoding: "utf8",
    });
    expect(listed.status).toBe(0);
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(["ast_edit", "ast_fix", "move", "rename_symbol", "pending", "resolve"]);
  });
});
