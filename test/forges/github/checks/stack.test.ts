import { OUTPUT_LIMIT } from "../../../../src/forges/github/checks/output.js";
import { CheckRunStore } from "../../../../src/forges/github/checks/store.js";
import { decodeRecord, encodeRecord } from "../../../../src/forges/github/checks/record-codec.js";
import type { PendingRecord } from "../../../../src/core/store.js";
import { fakeOctokit } from "../../../helpers/fake-octokit.js";

const pr = () => ({
  owner: "o",
  repo: "r",
  number: 7,
  headSha: "a".repeat(40),
  headRef: "topic",
  headRepo: "o/r",
  isFork: false,
  state: "open",
});
const options = { gateCheck: true, commitUrl: (sha: string) => `https://example.test/commit/${sha}` };

function draft(label: string): Omit<PendingRecord, "seq"> {
  return {
    id: `id-${label}`,
    tool: "t",
    params: {},
    callId: "c",
    index: 0,
    label,
    sourceToolName: "t",
    digest: "d",
    files: { "a.ts": "f" },
    headSha: "a".repeat(40),
    requestedBy: "alice",
    createdAt: "2026-12-02T00:00:00Z",
  };
}

/** A diff with `hunks` hunks in one file, each changing one line. */
function bigDiff(hunks: number, lineLength = 10): string {
  const lines = ["diff --git a/a.ts b/a.ts", "--- a/a.ts", "+++ b/a.ts"];
  for (let index = 0; index < hunks; index++)
    lines.push(`@@ -${index * 10 + 1} +${index * 10 + 1} @@`, `-${"x".repeat(lineLength)}`, `+${"y".repeat(lineLength)}`);
  return `${lines.join("\n")}\n`;
}

describe("CheckRunStore", () => {
  test("a push creates one in_progress run whose summary carries the record; the first 50 hunks are annotated, in one request", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    const store = new CheckRunStore(octokit, pr(), options);
    const record = await store.push(draft("AST Edit: 120 replacements in 1 file"), { summary: "did it", diff: bigDiff(120) });
    expect(record.seq).toBe(1);
    const create = calls.find((call) => call.method === "checks.create")!.params;
    expect([create.name, create.status, create.external_id, create.output.title]).toEqual([
      "resolve-bot: AST Edit: 120 replacements in 1 file",
      "in_progress",
      "pr:7:id-AST Edit: 120 replacements in 1 file",
      "AST Edit: 120 replacements in 1 file",
    ]);
    expect(decodeRecord(create.output.summary)).toEqual(record);
    expect(create.output.annotations).toHaveLength(50);
    expect(create.output.summary).toContain("The first 50 of 120 changed hunks are annotated; the full diff is below.");
    // A head with none of our runs yet is read once more: it may be an interrupted apply of ours.
    expect(calls.map((call) => call.method)).toEqual(["checks.listForRef", "pulls.listCommits", "checks.create"]);
  });

  test("the summary says the label once: a tool's summary that opens with it is shown without that line", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    const label = "AST Edit: 2 replacements in 2 files";
    await new CheckRunStore(octokit, pr(), options).push(draft(label), {
      summary: `${label}\n- src/log.ts: 1 replacement\n- src/main.ts: 1 replacement`,
      diff: bigDiff(1),
    });
    const summary: string = calls.find((call) => call.method === "checks.create")!.params.output.summary;
    expect(summary.split("\n").slice(0, 4)).toEqual([
      `**${label}** — previewed on aaaaaaa for alice (action #1 of this pull request).`,
      "",
      "- src/log.ts: 1 replacement",
      "- src/main.ts: 1 replacement",
    ]);
  });

  test("a diff over GitHub's limit is cut below 65,535 characters with a note", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    await new CheckRunStore(octokit, pr(), options).push(draft("Big"), { summary: "", diff: bigDiff(2_000, 40) });
    const text: string = calls.find((call) => call.method === "checks.create")!.params.output.text;
    expect(text.length).toBeLessThan(OUTPUT_LIMIT);
    expect(text).toMatch(/^```diff\n/);
    expect(text).toMatch(/more lines not shown \(the output is limited to \d+ characters\)\.\n```$/);
  });

  test("repeated labels get the sequence number; the stack is read from one list call, newest first", async () => {
    const existing = [
      {
        id: 1,
        name: "resolve-bot: Same",
        status: "in_progress",
        conclusion: null,
        external_id: "x",
        output: { title: "Same", summary: "" },
      },
    ];
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => existing });
    const store = new CheckRunStore(octokit, pr(), options);
    await store.push(draft("Same"), { summary: "", diff: "" });
    await store.push(draft("Other"), { summary: "", diff: "" });
    const names = calls.filter((call) => call.method === "checks.create").map((call) => call.params.name);
    expect(names).toEqual(["resolve-bot: Same (#1)", "resolve-bot: Other"]);
    expect((await store.list()).map((record) => [record.label, record.seq])).toEqual([
      ["Other", 2],
      ["Same", 1],
    ]);
  });

  test("pop completes the run (success with commit link, or cancelled) and only pops the expected top", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    const store = new CheckRunStore(octokit, pr(), options);
    await store.push(draft("First"), { summary: "", diff: "" });
    await store.push(draft("Second"), { summary: "", diff: "" });
    expect(await store.pop({ id: "id-First", action: "discard", reason: "r", actor: "bob", message: "m" })).toBeNull();
    await store.pop({ id: "id-Second", action: "discard", reason: "not now <b>@team</b>", actor: "bob", message: "m" });
    const cancelled = calls.filter((call) => call.method === "checks.update").at(-1)!.params;
    expect([cancelled.status, cancelled.conclusion, cancelled.output.title]).toEqual(["completed", "cancelled", "Discarded: Second"]);
    expect(cancelled.output.summary).toContain("Reason: not now &lt;b&gt;@\u2060team&lt;/b&gt;");
    await store.pop({ id: "id-First", action: "apply", reason: "ok", actor: "bob", message: "m", commit: "b".repeat(40) });
    const success = calls.filter((call) => call.method === "checks.update").at(-1)!.params;
    expect([success.conclusion, success.output.summary.split("\n")[0]]).toEqual([
      "success",
      `Applied in [bbbbbbb](https://example.test/commit/${"b".repeat(40)}) by bob.`,
    ]);
  });

  test("the gate: action_required with two buttons while pending, success when empty, no write when unchanged", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    const store = new CheckRunStore(octokit, pr(), options);
    await store.push(draft("Edit"), { summary: "", diff: "" });
    await store.updateGate();
    const gate = calls.filter((call) => call.method === "checks.create").at(-1)!.params;
    expect([gate.name, gate.status, gate.conclusion, gate.output.title, gate.external_id]).toEqual([
      "resolve-bot",
      "completed",
      "action_required",
      "Pending: Edit",
      "pr:7",
    ]);
    for (const action of gate.actions) {
      expect(action.label.length).toBeLessThanOrEqual(20);
      expect(action.description.length).toBeLessThanOrEqual(40);
      expect(action.identifier.length).toBeLessThanOrEqual(20);
    }
    const writes = calls.length;
    await store.updateGate();
    expect(calls.length).toBe(writes);
    await store.pop({ id: "id-Edit", action: "discard", reason: "r", actor: "a", message: "m" });
    await store.updateGate();
    const empty = calls.at(-1)!.params;
    expect([calls.at(-1)!.method, empty.conclusion, empty.output.title, empty.actions]).toEqual([
      "checks.update",
      "success",
      "No pending edits",
      [],
    ]);
  });

  test("gate_check: false never writes a gate", async () => {
    const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
    await new CheckRunStore(octokit, pr(), { ...options, gateCheck: false }).updateGate();
    expect(calls).toEqual([]);
  });

  describe("finding the stack wherever GitHub left it", () => {
    const HEAD = "a".repeat(40);
    const OLD = "c".repeat(40);
    const run = (id: number, label: string, status: string, conclusion: string | null, title = label) => ({
      id,
      name: `resolve-bot: ${label}`,
      status,
      conclusion,
      external_id: `id-${label}`,
      output: { title, summary: `s\n\n${encodeRecord({ ...draft(label), seq: id })}`, text: `diff of ${label}` },
    });
    const methods = (calls: Array<{ method: string }>) => calls.map((call) => call.method);

    test("a stale run comes back once, under its own name; an action with another run on the head is not resurrected", async () => {
      const runs = [run(3, "Stale", "completed", "stale"), run(2, "Kept", "completed", "stale"), run(1, "Kept", "in_progress", null)];
      const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => runs });
      const store = new CheckRunStore(octokit, pr(), options);
      expect((await store.list()).map((record) => record.label)).toEqual(["Stale", "Kept"]);
      const created = calls.filter((call) => call.method === "checks.create").map((call) => call.params);
      expect(created.map((params) => [params.name, params.status, params.output.text])).toEqual([
        ["resolve-bot: Stale", "in_progress", "diff of Stale"],
        ["resolve-bot", "completed", undefined],
      ]);
      expect(created[0]!.output.summary).toMatch(/^Restored on aaaaaaa:/);
    });

    test("on a closed pull request nothing is restored or written", async () => {
      const runs = [run(1, "Stale", "completed", "stale")];
      const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => runs });
      expect(await new CheckRunStore(octokit, { ...pr(), state: "closed" }, options).list()).toEqual([]);
      expect(methods(calls)).toEqual(["checks.listForRef"]);
    });

    test("closing: every pending run and the gate become neutral with the count; reopening restores them", async () => {
      const runs: any[] = [run(2, "Two", "in_progress", null), run(1, "One", "in_progress", null)];
      const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => runs });
      expect(await new CheckRunStore(octokit, { ...pr(), state: "closed", merged: true }, options).closeStack(true)).toBe(2);
      const updates = calls.filter((call) => call.method === "checks.update").map((call) => call.params);
      expect(updates.map((params) => [params.conclusion, params.output.title, params.output.summary.split("\n")[0]])).toEqual([
        ["neutral", "Not applied: One", "PR merged with 2 pending edits; they were not applied."],
        ["neutral", "Not applied: Two", "PR merged with 2 pending edits; they were not applied."],
      ]);
      const gate = calls.find((call) => call.method === "checks.create")!.params;
      expect([gate.name, gate.conclusion, gate.output.title, gate.actions]).toEqual([
        "resolve-bot",
        "neutral",
        "PR merged with 2 pending edits; they were not applied.",
        [],
      ]);
      // What the close wrote is what a reopened pull request reads back.
      const closed = [run(4, "Two", "completed", "neutral", "Not applied: Two"), run(3, "One", "completed", "neutral", "Not applied: One")];
      const reopened = fakeOctokit({ "checks.listForRef": () => closed });
      expect((await new CheckRunStore(reopened.octokit, pr(), options).list()).map((record) => record.label)).toEqual(["Two", "One"]);
    });

    test("closing a pull request that never had a gate or an edit writes nothing", async () => {
      const { octokit, calls } = fakeOctokit({ "checks.listForRef": () => [] });
      expect(await new CheckRunStore(octokit, { ...pr(), state: "closed" }, options).closeStack(false)).toBe(0);
      expect(methods(calls)).toEqual(["checks.listForRef"]);
    });

    test("a head without our runs takes the stack of the newest earlier commit that has them: applied ones complete, the rest are re-previewed", async () => {
      const commits = [
        { sha: OLD, commit: { message: "start" } },
        { sha: "e".repeat(40), commit: { message: "ours\n\nResolve-Action: id-Top\n" } },
        { sha: HEAD, commit: { message: "someone else's push" } },
      ];
      const byRef: Record<string, unknown[]> = { [OLD]: [run(2, "Top", "in_progress", null), run(1, "Below", "in_progress", null)] };
      const { octokit, calls } = fakeOctokit({
        "checks.listForRef": (params) => byRef[params.ref] ?? [],
        "pulls.listCommits": () => commits,
      });
      const repreviewed: string[] = [];
      const store = new CheckRunStore(octokit, pr(), {
        ...options,
        repreview: async (record, sha) => {
          repreviewed.push(`${record.label}@${sha.slice(0, 1)}`);
          return {
            record: { ...record, headSha: sha },
            preview: { summary: "", diff: "" },
            note: "again",
            line: `- ${record.label}: again.`,
          };
        },
      });
      expect((await store.list()).map((record) => record.label)).toEqual(["Below"]);
      expect(repreviewed).toEqual(["Below@a"]);
      // What the reply says of each recovered action, oldest first.
      expect(store.stack.recovered).toEqual(["- Below: again.", "- Top: applied in eeeeeee."]);
      // The walk read the two commits below the head, newest first, and stopped at the one with our runs.
      expect(calls.filter((call) => call.method === "checks.listForRef").map((call) => call.params.ref)).toEqual([
        HEAD,
        "e".repeat(40),
        OLD,
      ]);
      const updates = calls
        .filter((call) => call.method === "checks.update")
        .map((call) => [call.params.check_run_id, call.params.conclusion]);
      expect(updates).toEqual([
        [1, "neutral"],
        [2, "success"],
      ]);
    });
  });
});
