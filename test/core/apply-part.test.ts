/** `/resolve apply --only <path>…`: part of the newest action committed, the rest pending as `<label> (rest)`. */
import { parseCommands, type SlashCommand } from "../../src/core/commands.js";
import { stageChangeSet } from "../../src/core/execution.js";
import { carriedOut } from "../../src/pipeline/journal.js";
import type { RequestJournal } from "../../src/pipeline/ports.js";
import { parseResolveArgs, resolveCommandArgs } from "../../src/core/resolve.js";
import { Runtime } from "../../src/core/runtime.js";
import type { CustomToolFactory } from "../../src/core/tool.js";
import { appendTool, harness, noteTool, type Harness } from "../helpers/fake-tools.js";

/** `/stamp <text> <files…>`: appends a line to each file; each file's change reads that file alone. */
const stampTool: CustomToolFactory = (pi) => ({
  name: "stamp",
  label: "Stamp",
  description: "Appends a line to each file",
  parameters: pi.typebox.Type.Object({
    text: pi.typebox.Type.String(),
    files: pi.typebox.Type.Array(pi.typebox.Type.String(), { minItems: 1 }),
  }),
  positionals: ["text", "files"],
  splitsByFile: true,
  async execute(_id, params: { text: string; files: string[] }) {
    const changes = pi.newChangeSet();
    for (const file of params.files) {
      const before = await pi.workspace.readText(file);
      if (!before.endsWith(`${params.text}\n`)) await changes.write(file, `${before}${params.text}\n`);
    }
    if ((await changes.resolveChanges()).length === 0) return { content: [{ type: "text", text: "Nothing to stamp" }], isError: true };
    pi.pushPendingAction({
      label: `Stamp: ${params.files.length} files`,
      sourceToolName: "stamp",
      changes,
      apply: async () => {
        await stageChangeSet(pi.files, changes);
        return { content: [{ type: "text", text: "Stamped." }] };
      },
    });
    return { content: [{ type: "text", text: `Will stamp ${params.files.join(", ")}` }] };
  },
});

const FILES = { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" };

/** Each commit becomes the new head's files, as a forge's commit does. */
async function withHead(factories: CustomToolFactory[]): Promise<Harness & { head(): Record<string, string> }> {
  const h = await harness(factories, FILES);
  let files: Record<string, string> = { ...FILES };
  const commit = h.context.commit.bind(h.context);
  h.context.commit = async (changes, request) => {
    const sha = await commit(changes, request);
    files = { ...files, ...h.commits.at(-1)!.files };
    h.setWorkspace(files, `rev${h.commits.length + 1}`);
    return sha;
  };
  return { ...h, head: () => files };
}

describe("/resolve apply --only", () => {
  test("commits the named files only; the rest is pending as `<label> (rest)`, previewed on the new head; applying it commits the rest", async () => {
    const h = await withHead([stampTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/stamp done a.txt b.txt c.txt", h.context);
    const part = await runtime.handleComment("/resolve apply --only a.txt c.txt keep these two", h.context);
    expect(part.outcomes[0]).toMatchObject({
      ok: true,
      kind: "resolve",
      message: "Applied Stamp: 3 files to a.txt, c.txt only. The rest (b.txt) is pending as Stamp: 3 files (rest).",
      resolved: { action: "apply", reason: "keep these two", commit: "commit1" },
    });
    expect(h.commits.map((commit) => commit.files)).toEqual([{ "a.txt": "a\ndone\n", "c.txt": "c\ndone\n" }]);
    expect(part.outcomes[0]!.pushed!.map(({ record, diff }) => [record.label, record.headSha, Object.keys(record.files), diff])).toEqual([
      ["Stamp: 3 files (rest)", "rev2", ["b.txt"], "diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1,2 @@\n b\n+done\n"],
    ]);
    expect(part.stack.map((record) => record.label)).toEqual(["Stamp: 3 files (rest)"]);
    expect(part.steering).toBe("Pending: Stamp: 3 files (rest). Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.");
    expect((await runtime.handleComment("/pending", h.context)).outcomes[0]!.message).toBe(
      "1 pending, newest first (the first is resolved next):\n1. Stamp: 3 files (rest) (#2, `/stamp` by alice)",
    );

    const rest = await runtime.handleComment("/resolve apply the rest too", h.context);
    expect(rest.outcomes[0]).toMatchObject({ ok: true, message: "Applied the rest of Stamp: 3 files (b.txt)." });
    expect(h.commits.map((commit) => commit.files)).toEqual([{ "a.txt": "a\ndone\n", "c.txt": "c\ndone\n" }, { "b.txt": "b\ndone\n" }]);
    expect(h.head()).toEqual({ "a.txt": "a\ndone\n", "b.txt": "b\ndone\n", "c.txt": "c\ndone\n" });
    expect(await h.store.hasPending()).toBe(false);
  });

  test("a rest split again stays `<label> (rest)`; its part's commit names the files", async () => {
    const h = await withHead([stampTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/stamp done a.txt b.txt c.txt", h.context);
    await runtime.handleComment("/resolve apply --only a.txt first", h.context);
    const again = await runtime.handleComment("/resolve apply --only b.txt second", h.context);
    expect(again.outcomes[0]!.message).toBe(
      "Applied Stamp: 3 files (rest) to b.txt only. The rest (c.txt) is pending as Stamp: 3 files (rest).",
    );
    expect(h.commits.map((commit) => commit.files)).toEqual([{ "a.txt": "a\ndone\n" }, { "b.txt": "b\ndone\n" }]);
    expect(again.stack.map((record) => [record.label, Object.keys(record.files)])).toEqual([["Stamp: 3 files (rest)", ["c.txt"]]]);
    expect((await runtime.resolve("discard", "not c", h.context)).message).toBe("Discarded: Stamp: 3 files (rest). Reason: not c");
  });

  test("bad --only changes nothing and lists the action's files: not among them, none, every one; a tool that does not split is refused", async () => {
    const h = await withHead([stampTool, appendTool, noteTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/stamp done a.txt b.txt", h.context);
    const replies = async (comment: string) => (await runtime.handleComment(comment, h.context)).outcomes[0]!;
    expect(await replies("/resolve apply --only c.txt ./a.txt go")).toMatchObject({
      ok: false,
      message: "`--only` names c.txt, which Stamp: 2 files does not change. Its files: a.txt, b.txt. Nothing was applied.",
    });
    expect((await replies("/resolve apply --only x/y.txt ../z.txt go")).message).toBe(
      "`--only` names x/y.txt, ../z.txt, which Stamp: 2 files does not change. Its files: a.txt, b.txt. Nothing was applied.",
    );
    expect((await replies("/resolve apply --only go ahead")).message).toBe(
      "`--only` names no file: name the files to apply before the reason (the rest stays pending). The files of Stamp: 2 files: a.txt, b.txt. Nothing was applied.",
    );
    expect((await replies("/resolve apply --only b.txt a.txt all of it")).message).toBe(
      "`--only` names every file of Stamp: 2 files (a.txt, b.txt), so nothing would be left pending: apply it whole, without `--only`. Nothing was applied.",
    );
    expect((await replies("/resolve discard --only a.txt no")).message).toBe(
      "`--only` goes with `/resolve apply` alone: `/resolve discard` acts on the whole newest action.",
    );
    expect(h.commits).toEqual([]);
    expect((await h.store.list()).map((record) => record.label)).toEqual(["Stamp: 2 files"]);

    await runtime.handleComment("/resolve discard not now", h.context);
    await runtime.handleComment("/append a.txt more", h.context);
    expect((await replies("/resolve apply --only a.txt go")).message).toBe(
      "Append: 1 line to a.txt cannot be applied in part: `/append` does not split by file (its changes to a.txt go together). Apply or discard it whole with `/resolve apply <reason>` or `/resolve discard <reason>`. Nothing was applied.",
    );
    await runtime.handleComment("/resolve discard not now", h.context);
    await runtime.handleComment("/note plan", h.context);
    expect((await replies("/resolve apply --only a.txt go")).message).toBe(
      "Note: plan cannot be applied in part: `/note` does not split by file (it changes no files resolve-bot can tell apart). Apply or discard it whole with `/resolve apply <reason>` or `/resolve discard <reason>`. Nothing was applied.",
    );
    expect(h.commits).toEqual([]);
  });

  test("a stale preview fails the part as a whole apply does: nothing committed, still pending", async () => {
    const h = await withHead([stampTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/stamp done a.txt b.txt", h.context);
    h.setWorkspace({ ...FILES, "a.txt": "changed\n" }, "rev9");
    const outcome = await runtime.resolve("apply", "go", h.context, { only: ["b.txt"] });
    expect(outcome).toEqual({
      ok: false,
      message:
        "Apply failed: preview is stale: a.txt changed since the preview (previewed on rev1, now rev9). Discard it and run the command again for a fresh preview.",
    });
    expect(h.commits).toEqual([]);
    expect((await h.store.list()).map((record) => record.label)).toEqual(["Stamp: 2 files"]);
  });

  test("the rest that cannot be previewed again on the new head is said, and nothing is pushed", async () => {
    const h = await withHead([stampTool]);
    const runtime = new Runtime(h.registry);
    await runtime.handleComment("/stamp done a.txt b.txt", h.context);
    // The part's commit happens to bring b.txt's change too (someone pushed it meanwhile, say): nothing is left.
    const commit = h.context.commit.bind(h.context);
    h.context.commit = async (changes, request) => {
      const sha = await commit(changes, request);
      h.setWorkspace({ "a.txt": "a\ndone\n", "b.txt": "b\ndone\n", "c.txt": "c\n" }, "rev5");
      return sha;
    };
    const outcome = await runtime.resolve("apply", "go", h.context, { only: ["a.txt"] });
    expect(outcome).toMatchObject({
      ok: true,
      message:
        "Applied Stamp: 2 files to a.txt only. The rest (b.txt) could not be previewed again, so nothing of it is pending: Nothing to stamp",
      pushed: [],
    });
    expect(await h.store.hasPending()).toBe(false);
  });
});

test("a request cut short between the part's commit and the rest's push: its re-run pushes the rest, once, and commits nothing again", async () => {
  const h = await withHead([stampTool]);
  const runtime = new Runtime(h.registry);
  await runtime.handleComment("/stamp done a.txt b.txt", h.context);
  const record = (await h.store.peek())!;
  const push = h.store.push.bind(h.store);
  h.store.push = async () => {
    throw new Error("the worker was stopped");
  };
  const [command] = parseCommands("/resolve apply --only a.txt first");
  await expect(runtime.handleStep(command!, 0, { ...h.context, requestId: "req" })).rejects.toThrow("the worker was stopped");
  h.store.push = push;
  expect(await h.store.hasPending()).toBe(false);

  const journal: RequestJournal = { pushed: new Map(), resolved: new Map([["req#0", { action: "apply", commit: "commit1", record }]]) };
  const rerun = {
    ...h.context,
    requestId: "req",
    carriedOut: async (step: string, again: SlashCommand) => carriedOut(journal, step, again),
  };
  const said =
    "This was already carried out: commit commit1 on the branch is this request's apply of part (resolve-bot was interrupted before it could reply). The rest (b.txt) is pending as Stamp: 2 files (rest).";
  const outcome = await runtime.handleStep(command!, 0, rerun);
  expect(outcome).toMatchObject({ ok: true, kind: "resolve", message: said });
  expect(outcome.pushed!.map(({ record: pushed }) => [pushed.label, pushed.requestStep, Object.keys(pushed.files)])).toEqual([
    ["Stamp: 2 files (rest)", "req#0", ["b.txt"]],
  ]);
  // Run yet again, the journal finds the rest pushed: it is said, not pushed twice.
  journal.pushed.set("req#0", [outcome.pushed![0]!.record]);
  expect((await runtime.handleStep(command!, 0, rerun)).message).toBe(said);
  expect((await h.store.list()).map((pending) => pending.label)).toEqual(["Stamp: 2 files (rest)"]);
  expect(h.commits.map((commit) => commit.files)).toEqual([{ "a.txt": "a\ndone\n" }]);
});

describe("/resolve's options", () => {
  test("--only takes quoted words and words that read as paths, up to the reason; `--` ends the options", () => {
    expect(parseResolveArgs("apply --only a.ts src/b.ts keep the logger")).toEqual({
      action: "apply",
      reason: "keep the logger",
      only: ["a.ts", "src/b.ts"],
    });
    expect(parseResolveArgs(`apply --only "Makefile" --only=c.ts 'my file.ts' -- src/d.ts is wrong`)).toEqual({
      action: "apply",
      reason: "src/d.ts is wrong",
      only: ["Makefile", "c.ts", "my file.ts"],
    });
    expect(parseResolveArgs("apply -- --force it")).toEqual({ action: "apply", reason: "--force it" });
    expect(parseResolveArgs("apply --only a.ts")).toEqual({
      error:
        "`/resolve apply` needs a reason. Usage: `/resolve apply [--only <path>…] <reason> | /resolve discard <reason> | /resolve undo <reason>`",
    });
  });

  test("a reason starting with an unknown `--` option is refused with the way to write it (GitHub, MCP)", () => {
    expect(parseResolveArgs("apply --force it")).toEqual({
      error:
        "`/resolve apply` has no option `--force` (it takes `--only <path>…`). To begin the reason with `--`, put `--` before it: `/resolve apply -- --force …`.",
    });
    expect(parseResolveArgs("discard --olny a.ts x")).toEqual({
      error:
        "`/resolve discard` has no option `--olny`. To begin the reason with `--`, put `--` before it: `/resolve discard -- --olny …`.",
    });
  });

  test("resolveCommandArgs writes what parseResolveArgs reads back as given", () => {
    for (const [action, reason, only] of [
      ["apply", "--force it", undefined],
      ["apply", "src/x.ts is fine", ["Makefile", "a b.ts", `it"s.ts`]],
      ["discard", "  no  ", undefined],
    ] as const) {
      const parsed = parseResolveArgs(resolveCommandArgs(action, reason, only));
      expect(parsed).toEqual({ action, reason: reason.trim(), ...(only ? { only } : {}) });
    }
  });
});
