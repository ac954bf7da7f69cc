import { CheckRunStore, OUTPUT_LIMIT } from "../../src/github/check-runs.js";
import { decodeRecord } from "../../src/github/record-codec.js";
import type { PendingRecord } from "../../src/core/store.js";
import { fakeOctokit } from "../helpers/fake-octokit.js";

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
      "id-AST Edit: 120 replacements in 1 file",
      "AST Edit: 120 replacements in 1 file",
    ]);
    expect(decodeRecord(create.output.summary)).toEqual(record);
    expect(create.output.annotations).toHaveLength(50);
    expect(create.output.summary).toContain("The first 50 of 120 changed hunks are annotated; the full diff is below.");
    // A head with none of our runs yet is read once more: it may be an interrupted apply of ours.
    expect(calls.map((call) => call.method)).toEqual(["checks.listForRef", "git.getCommit", "checks.create"]);
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
});
