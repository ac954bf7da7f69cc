import { createToolAPI, executeTool, STORE_UNAVAILABLE } from "../../src/core/execution.js";
import { UserError } from "../../src/errors.js";
import { localPhrasing } from "../../src/forges/local/ports.js";
import { Runtime } from "../../src/core/runtime.js";
import { ToolRegistry } from "../../src/core/registry.js";
import type { CustomToolFactory } from "../../src/core/tool.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { helpSection } from "../../src/core/usage.js";
import { appendTool, harness, noteTool } from "../helpers/fake-tools.js";

const NOTHING = "No pending action to resolve. Nothing to apply or discard.";

describe("resolve: apply or discard the newest pending action", () => {
  test("nothing pending: apply and discard fail with the exact message", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    expect(await runtime.resolve("apply", "why", h.context)).toEqual({ ok: false, message: NOTHING });
    expect(await runtime.resolve("discard", "why", h.context)).toEqual({ ok: false, message: NOTHING });
  });

  test("apply with no result text says `Applied: <label>.` and commits the change", async () => {
    const h = await harness([appendTool], { "a.txt": "one\n" });
    const runtime = new Runtime(h.registry);
    const previewed = await runtime.handleComment("/append a.txt two", h.context);
    expect(previewed.outcomes[0]).toMatchObject({ ok: true, message: "Will append to a.txt" });
    expect(previewed.outcomes[0]!.pushed![0]!.diff).toBe(
      "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n one\n+two\n",
    );
    const outcome = await runtime.resolve("apply", "looks right", h.context);
    expect(outcome.message).toBe("Applied: Append: 1 line to a.txt.");
    expect(outcome.resolved?.rendered).toBe("Accept: 1 line to a.txt [Append]\nReason: looks right");
    expect(outcome.resolved?.commit).toBe("commit1");
    expect(h.commits.map((commit) => commit.files)).toEqual([{ "a.txt": "one\ntwo\n" }]);
    expect(await h.store.hasPending()).toBe(false);
  });

  test("apply's text parts are the reply; default sourceToolName is custom_tool", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/note release --plain-source", h.context);
    expect((await h.store.peek())!.sourceToolName).toBe("custom_tool");
    const outcome = await runtime.resolve("apply", "ship it", h.context);
    expect(outcome).toMatchObject({ ok: true, message: "Noted release. Reason: ship it" });
    expect(h.commits).toEqual([]);
  });

  test("discard: default message, or reject's result in its place", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/note plain\n/note cleanup --with-reject", h.context);
    expect((await runtime.resolve("discard", "not now", h.context)).message).toBe("Dropped cleanup. Reason: not now");
    const plain = await runtime.resolve("discard", "not now", h.context);
    expect(plain.message).toBe("Discarded: Note: plain. Reason: not now");
    expect(plain.resolved?.rendered).toBe("Discard: plain [Note]\nReason: not now");
  });

  test("LIFO: several pushes are resolved newest first", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    const result = await runtime.handleComment("/note x --count 3", h.context);
    expect(result.stack.map((record) => [record.label, record.index, record.seq])).toEqual([
      ["Note: x 3", 2, 3],
      ["Note: x 2", 1, 2],
      ["Note: x 1", 0, 1],
    ]);
    expect((await runtime.resolve("apply", "r", h.context)).message).toBe("Noted x 3. Reason: r");
    expect((await runtime.resolve("discard", "r", h.context)).message).toBe("Discarded: Note: x 2. Reason: r");
    expect((await runtime.resolve("apply", "r", h.context)).message).toBe("Noted x 1. Reason: r");
  });

  test("a failed apply says `Apply failed: ` with the cause and leaves the action pending", async () => {
    const h = await harness([appendTool], { "a.txt": "one\n" });
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/append a.txt two", h.context);
    h.context.commit = async () => {
      throw new UserError("the branch moved; nothing was committed.");
    };
    expect(await runtime.resolve("apply", "r", h.context)).toEqual({
      ok: false,
      message: "Apply failed: the branch moved; nothing was committed.",
    });
    expect((await h.store.peek())?.label).toBe("Append: 1 line to a.txt");
  });

  test.each([
    ["the forge failing for now", Object.assign(new Error("Bad Gateway"), { status: 502 })],
    ["a bug", new TypeError("Cannot read properties of undefined (reading 'sha')")],
  ])(
    "an apply failing for a reason that is not the reviewer's (%s) is thrown, never `Apply failed`; still pending",
    async (_what, failure) => {
      const h = await harness([appendTool], { "a.txt": "one\n" });
      const runtime = new Runtime(h.registry);
      await runtime.handleComment("/append a.txt two", h.context);
      h.context.commit = async () => {
        throw failure;
      };
      await expect(runtime.resolve("apply", "r", h.context)).rejects.toBe(failure);
      await expect(runtime.handleComment("/resolve apply r", h.context)).rejects.toBe(failure);
      expect((await h.store.peek())?.label).toBe("Append: 1 line to a.txt");
    },
  );

  test("recording fails after the commit: the reply tells the truth (committed) and the failure is reported, not hidden", async () => {
    const h = await harness([appendTool], { "a.txt": "one\n" });
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/append a.txt two", h.context);
    const reported: string[] = [];
    h.context.report = (_error, what) => void reported.push(what);
    h.store.pop = async () => {
      throw Object.assign(new Error("Bad Gateway"), { status: 502 });
    };
    const outcome = await runtime.resolve("apply", "r", h.context);
    expect(outcome.ok).toBe(true);
    expect(outcome.message).toBe(
      "Applied: Append: 1 line to a.txt.\n\nThe edit is committed (commit1), but marking it applied on the pull request failed; the next command finishes that from the commit itself, so it is never applied twice.",
    );
    expect(reported).toEqual(["marking Append: 1 line to a.txt applied failed after commit commit1"]);
  });

  test("replay: a file the preview touched changed → stale, nothing committed, still pending", async () => {
    const h = await harness([appendTool], { "a.txt": "one\n" });
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/append a.txt two", h.context);
    h.setWorkspace({ "a.txt": "ONE\n" }, "rev2");
    const outcome = await runtime.resolve("apply", "r", h.context);
    expect(outcome).toEqual({
      ok: false,
      message:
        "Apply failed: preview is stale: a.txt changed since the preview (previewed on rev1, now rev2). Discard it and run the command again for a fresh preview.",
    });
    expect(h.commits).toEqual([]);
    expect(await h.store.hasPending()).toBe(true);
  });

  test("replay: unrelated files may change; apply then works on the new revision", async () => {
    const h = await harness([appendTool], { "a.txt": "one\n", "b.txt": "b\n" });
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/append a.txt two", h.context);
    h.setWorkspace({ "a.txt": "one\n", "b.txt": "changed\n" }, "rev2");
    expect((await runtime.resolve("apply", "r", h.context)).ok).toBe(true);
    expect(h.commits[0]!.files).toEqual({ "a.txt": "one\ntwo\n" });
  });

  test("discard still works when replay is impossible (tool removed)", async () => {
    const h = await harness([noteTool]);
    await new Runtime(h.registry).handleComment("/note gone --with-reject", h.context);
    const emptyRegistry = new ToolRegistry();
    expect((await new Runtime(emptyRegistry).resolve("discard", "bye", h.context)).message).toBe("Discarded: Note: gone. Reason: bye");
    const h2 = await harness([noteTool]);
    await new Runtime(h2.registry).handleComment("/note gone", h2.context);
    expect((await new Runtime(emptyRegistry).resolve("apply", "x", h2.context)).message).toBe(
      "Apply failed: the tool `note` that made this preview is no longer available.",
    );
  });

  test("/resolve in a comment: the rest of the line is the reason; an empty reason names the usage", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/note a", h.context);
    const empty = await runtime.handleComment("/resolve apply", h.context);
    expect(empty.outcomes[0]).toMatchObject({
      ok: false,
      message:
        "`/resolve apply` needs a reason. Usage: `/resolve apply [--only <path>…] <reason> | /resolve discard <reason> | /resolve undo <reason>`",
    });
    const done = await runtime.handleComment("/resolve apply  it's   fine  ", h.context);
    expect(done.outcomes[0]!.message).toBe("Noted a. Reason: it's   fine");
  });
});

describe("custom tools: pushPendingAction", () => {
  const capture: { pi?: ReturnType<typeof createToolAPI> } = {};
  const leaky: CustomToolFactory = (pi) => {
    capture.pi = pi;
    return {
      name: "leaky",
      label: "Leaky",
      description: "pushes after returning",
      parameters: pi.typebox.Type.Object({}),
      async execute() {
        return { content: [{ type: "text", text: "ok" }] };
      },
    };
  };

  test("outside an execution (load time, after execute, no context) it throws the exact error", async () => {
    const registry = new ToolRegistry();
    const tool = await registry.registerFactory(leaky);
    const push = () => capture.pi!.pushPendingAction({ label: "x", apply: async () => ({ content: [] }) });
    expect(push).toThrow(new Error("Pending action store unavailable for custom tools in this runtime."));
    expect(STORE_UNAVAILABLE).toBe("Pending action store unavailable for custom tools in this runtime.");
    await executeTool(tool, {}, new MemoryWorkspace({}), "call");
    expect(push).toThrow("Pending action store unavailable for custom tools in this runtime.");
  });

  test("writes during a preview are an error", async () => {
    const writer: CustomToolFactory = (pi) => ({
      name: "writer",
      label: "Writer",
      description: "writes in execute",
      parameters: pi.typebox.Type.Object({}),
      async execute() {
        await pi.files.write("a.txt", "x");
        return { content: [] };
      },
    });
    const h = await harness([writer]);
    const result = await new Runtime(h.registry).handleComment("/writer", h.context);
    expect(result.outcomes[0]).toMatchObject({
      ok: false,
      message: "Files can only be written inside a pending action's apply(); a preview must not change anything.",
    });
    expect(await h.store.hasPending()).toBe(false);
  });
});

describe("commands and steering", () => {
  test("unknown command lists known commands; bad args list errors and usage", async () => {
    const h = await harness([noteTool, appendTool]);
    const runtime = new Runtime(h.registry);
    const unknown = await runtime.handleComment("/frobnicate", h.context);
    expect(unknown.outcomes[0]!.message).toBe(
      "Unknown command `/frobnicate`. Known commands: `/append`, `/note`, `/resolve`, `/help`, `/pending`.",
    );
    const bad = await runtime.handleComment("/append --nope", h.context);
    expect(bad.outcomes[0]!.message).toBe(
      [
        "`/append` was not run:",
        "",
        "- Unknown option --nope.",
        "",
        "Usage: `/append <file> <text>`",
        "",
        "Every parameter, and examples: `/help append`.",
      ].join("\n"),
    );
    // The parameter that is wrong is shown with its help; the others are not repeated.
    const missing = await runtime.handleComment("/append", h.context);
    expect(missing.outcomes[0]!.message).toBe(
      [
        "`/append` was not run:",
        "",
        "- <file> is required",
        "- <text> is required",
        "",
        "Usage: `/append <file> <text>`",
        "",
        "- `<file>` — file to change\n- `<text>`",
        "",
        "Every parameter, and examples: `/help append`.",
      ].join("\n"),
    );
    // In the command line's words, the pointer names its own command.
    const local = await runtime.handleComment("/append --nope", { ...h.context, phrasing: localPhrasing({}) });
    expect(local.outcomes[0]!.message.split("\n").at(-1)).toBe("Every parameter, and examples: `resolve-bot tools append`.");
  });

  test("commands run in order and stop at the first failure", async () => {
    const h = await harness([noteTool]);
    const result = await new Runtime(h.registry).handleComment("/note a\n/nope\n/note b\n/pending", h.context);
    expect(result.outcomes.map((outcome) => [outcome.command, outcome.ok])).toEqual([
      ["/note", true],
      ["/nope", false],
    ]);
    expect(result.skipped).toEqual(["/note", "/pending"]);
    expect(result.stack.map((record) => record.label)).toEqual(["Note: a"]);
  });

  test("steering line while pending; strict mode refuses new previews until the stack is empty", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    const first = await runtime.handleComment("/note a", h.context);
    expect(first.steering).toBe("Pending: Note: a. Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.");
    h.context.steering = "strict";
    const refused = await runtime.handleComment("/note b", h.context);
    expect(refused.outcomes[0]).toMatchObject({
      ok: false,
      message:
        "This repository uses `steering: strict`: resolve the pending action first (Note: a) with `/resolve apply <reason>` or `/resolve discard <reason>`.",
    });
    const cleared = await runtime.handleComment("/resolve discard no\n/note b", h.context);
    expect(cleared.outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    const two = await ((h.context.steering = "stack"), runtime.handleComment("/note c", h.context));
    expect(two.steering).toBe(
      "Pending: Note: c (2 pending; the newest is resolved first). Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
    );
    const empty = await runtime.handleComment("/resolve discard a\n/resolve discard b", h.context);
    expect(empty.steering).toBeUndefined();
  });

  test("a full stack refuses the preview and names the front end's resolve commands", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    h.context.limits = { maxCommandsPerComment: 10, maxPending: 1 };
    await runtime.handleComment("/note a", h.context);
    const stackFull = (file: string, commands: string) =>
      `This pull request already has 1 pending actions, the most it may hold (1; \`limits.max_pending\` in ${file}). Nothing was previewed: resolve some first with ${commands}.`;
    expect((await runtime.handleComment("/note b", h.context)).outcomes[0]).toMatchObject({
      ok: false,
      message: stackFull("`.github/resolve-bot.yml`", "`/resolve apply <reason>` or `/resolve discard <reason>`"),
    });
    // Each front end's own words, through the context's phrasing (here the command line's).
    h.context.phrasing = localPhrasing({});
    expect((await runtime.handleComment("/note b", h.context)).outcomes[0]).toMatchObject({
      ok: false,
      message: stackFull(
        "`.github/resolve-bot.yml` (as committed at HEAD)",
        '`resolve-bot resolve apply "<reason>"` or `resolve-bot resolve discard "<reason>"`',
      ),
    });
    expect((await h.store.list()).map((record) => record.label)).toEqual(["Note: a"]);
  });

  test("/pending lists newest first; /help lists tools and explains resolve separately", async () => {
    const h = await harness([noteTool]);
    const runtime = new Runtime(h.registry);
    const pending = await runtime.handleComment("/note a\n/note b\n/pending", h.context);
    expect(pending.outcomes[2]!.message).toBe(
      "2 pending, newest first (the first is resolved next):\n1. Note: b (#2, `/note` by alice)\n2. Note: a (#1, `/note` by alice)",
    );
    const help = runtime.help();
    expect(help).toContain("**`/note`** — Pushes a pending action with no file change");
    expect(help).toContain("Usage: `/note <name> [--with-reject] [--count <number>] [--plain-source]`");
    expect(help).not.toContain("**`/resolve`**");
    expect(help).toContain("Resolving: `/resolve apply <reason>` or `/resolve discard <reason>` takes the newest pending action");
    // Undo is explained with resolve, never listed or callable as a tool of its own.
    expect(help).toContain(
      "Undoing: `/resolve undo <reason>` previews reverting the newest commit resolve-bot applied (as `git revert` would) as a new pending action",
    );
    expect(help).not.toContain("**`/undo`**");
    expect((await runtime.handleComment("/undo", h.context)).outcomes[0]!.message).toBe(
      "Unknown command `/undo`. Known commands: `/note`, `/resolve`, `/help`, `/pending`.",
    );
    // `/help <command>`: that tool's section alone (with or without its slash); an unknown one is said.
    expect((await runtime.handleComment("/help note", h.context)).outcomes[0]).toMatchObject({
      kind: "help",
      ok: true,
      message: helpSection(h.registry.command("note")!),
    });
    expect((await runtime.handleComment("/help /note", h.context)).outcomes[0]!.message).toBe(helpSection(h.registry.command("note")!));
    expect((await runtime.handleComment("/help resolve", h.context)).outcomes[0]!.message).toBe(runtime.help(h.context));
    expect((await runtime.handleComment("/help nope", h.context)).outcomes[0]).toMatchObject({
      ok: false,
      message: "Unknown command `/nope`. Known commands: `/note`, `/resolve`, `/help`, `/pending`.",
    });
    // The last line names each front end's commands.
    expect(help.split("\n").at(-1)).toBe(
      "`/pending` lists the stack, newest first. `/help` shows this; `/help <command>` shows one command.",
    );
    expect(
      runtime
        .help({ ...h.context, phrasing: localPhrasing({}) })
        .split("\n")
        .at(-1),
    ).toBe(
      "`resolve-bot pending` lists the stack, newest first. `resolve-bot preview -- /help` shows this; `resolve-bot tools <command>` shows one command.",
    );
    const undoNamed: CustomToolFactory = async (pi) => ({ ...(await noteTool(pi)), name: "undo" });
    await expect(h.registry.registerFactory(undoNamed)).rejects.toThrow("Tool name undo is reserved.");
  });
});
