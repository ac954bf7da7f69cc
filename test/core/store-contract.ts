/**
 * What every pending-action store guarantees (src/core/store.ts, `PendingActionStore`), proven the
 * same way for each implementation: memory-store.test.ts (core), file-store.test.ts (local CLI) and
 * forges/github/checks/store.test.ts (GitHub check runs, through the emulator over HTTP) run this suite.
 */
import { randomUUID } from "node:crypto";
import { requestStep, type NewPendingRecord, type PendingActionStore, type PendingRecord, type Resolution } from "../../src/core/store.js";

/** A resolution as the backend recorded it, found again by the request step that made it. */
export interface RecordedResolution {
  action: "apply" | "discard";
  /** The action resolved. */
  id?: string;
  commit?: string;
}

export interface StackStoreHarness {
  /**
   * A store on this test's storage. Every call is another instance on the same records (a new
   * request, a restarted process), except where the backend keeps nothing durable.
   */
  open(): Promise<PendingActionStore>;
  /** The commit an apply of `record` made on the head for `step` (on GitHub: a real commit on the branch, with its trailers). */
  commit(record: PendingRecord, step: string): Promise<string>;
  /** The resolutions the storage recorded, by request step. */
  resolutions(): Promise<Map<string, RecordedResolution>>;
}

export interface StackStoreTraits {
  /**
   * Writes from several stores (or several calls at once on one) are serialised by the store
   * itself. False where something else serialises them (GitHub: one job at a time per pull request).
   */
  concurrent: boolean;
}

/** Resolutions as a store kept them (memory, the file's history), by request step. */
export function byStep(resolutions: Resolution[]): Map<string, RecordedResolution> {
  const recorded = new Map<string, RecordedResolution>();
  for (const { requestStep, action, id, commit } of resolutions)
    if (requestStep) recorded.set(requestStep, { action, id, ...(commit ? { commit } : {}) });
  return recorded;
}

/** The request whose steps push and resolve in these cases. */
export const REQUEST = "req-contract";

let drafts = 0;

/** A pending action with every field set, so that a record that loses any of them is seen. */
export function draft(label: string, step = requestStep(REQUEST, drafts)): NewPendingRecord {
  drafts += 1;
  return {
    id: `${label.toLowerCase().replace(/\W+/g, "-")}-${randomUUID()}`,
    tool: "ast-edit",
    params: { pat: "console.log($$$A)", out: "logger.debug($$$A)", paths: ["src/**"], nested: { n: 2, flag: true } },
    callId: `call-${drafts}`,
    index: drafts % 3,
    label,
    sourceToolName: "ast-edit",
    details: { replacements: 2, files: ["src/a.ts"] },
    digest: "d".repeat(64),
    files: { "src/a.ts": "9f2c1e" },
    headSha: "a".repeat(40),
    requestedBy: "alice",
    createdAt: "2026-12-04T05:00:00.000Z",
    requestStep: step,
  };
}

const PREVIEW = {
  summary: "Would replace 1 call in 1 file.",
  diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;\n",
};

function resolution(record: Pick<PendingRecord, "id">, action: "apply" | "discard", step?: string, commit?: string): Resolution {
  return {
    id: record.id,
    action,
    reason: `${action} it`,
    actor: "bob",
    message: `${action === "apply" ? "Applied" : "Discarded"}.`,
    ...(commit ? { commit } : {}),
    ...(step ? { requestStep: step } : {}),
  };
}

const labels = (records: PendingRecord[]) => records.map((record) => record.label);

export function stackStoreContract(setup: () => Promise<StackStoreHarness>, traits: StackStoreTraits): void {
  let harness: StackStoreHarness;
  beforeEach(async () => {
    harness = await setup();
  });

  /** Pushes each label in order on one store; returns the records as pushed. */
  async function pushAll(store: PendingActionStore, ...names: string[]): Promise<PendingRecord[]> {
    const pushed: PendingRecord[] = [];
    for (const name of names) pushed.push(await store.push(draft(name), PREVIEW));
    return pushed;
  }

  test("an empty stack: nothing to peek, list or pop", async () => {
    const store = await harness.open();
    expect(await store.peek()).toBeNull();
    expect(await store.list()).toEqual([]);
    expect(await store.hasPending()).toBe(false);
    expect(await store.pop(resolution({ id: "nothing" }, "discard"))).toBeNull();
  });

  test("push returns the record with its seq, and the record comes back whole", async () => {
    const store = await harness.open();
    const first = draft("Rename a");
    const pushed = await store.push(first, PREVIEW);
    expect(pushed).toEqual({ ...first, seq: pushed.seq });
    expect(pushed.seq).toBeGreaterThan(0);
    expect(await store.peek()).toEqual(pushed);
    expect(await store.list()).toEqual([pushed]);
    expect(await store.hasPending()).toBe(true);
    expect(await (await harness.open()).peek()).toEqual(pushed);
  });

  test("a stack: list is newest first, peek is the newest, pops go last in first out", async () => {
    const store = await harness.open();
    const [one, two, three] = await pushAll(store, "One", "Two", "Three");
    expect(labels(await store.list())).toEqual(["Three", "Two", "One"]);
    expect(await store.peek()).toEqual(three);
    expect(await store.pop(resolution(three!, "discard"))).toEqual(three);
    expect(await store.peek()).toEqual(two);
    expect(labels(await store.list())).toEqual(["Two", "One"]);
    expect(await store.pop(resolution(two!, "discard"))).toEqual(two);
    expect(await store.pop(resolution(one!, "discard"))).toEqual(one);
    expect(await store.list()).toEqual([]);
    expect(await store.hasPending()).toBe(false);
  });

  test("seq increases with every push and is never reused after a pop, nor by another store", async () => {
    const store = await harness.open();
    const [one, two] = await pushAll(store, "One", "Two");
    expect(two!.seq).toBeGreaterThan(one!.seq);
    await store.pop(resolution(two!, "discard"));
    const [three] = await pushAll(store, "Three");
    expect(three!.seq).toBeGreaterThan(two!.seq);
    const later = await harness.open();
    await later.pop(resolution(three!, "discard", requestStep(REQUEST, 90)));
    await later.pop(resolution(one!, "discard", requestStep(REQUEST, 91)));
    const [four] = await pushAll(await harness.open(), "Four");
    expect(four!.seq).toBeGreaterThan(three!.seq);
  });

  test("a pop names the action it resolves: anything but the top is refused and changes nothing", async () => {
    const store = await harness.open();
    const [one, two] = await pushAll(store, "One", "Two");
    const before = await store.list();
    expect(await store.pop(resolution(one!, "apply", requestStep(REQUEST, 80), "c".repeat(40)))).toBeNull();
    expect(await store.pop(resolution({ id: `${two!.id}-gone` }, "discard", requestStep(REQUEST, 81)))).toBeNull();
    expect(await store.list()).toEqual(before);
    expect(await (await harness.open()).list()).toEqual(before);
    expect([...(await harness.resolutions()).keys()]).toEqual([]);
  });

  test("records and pops survive a reopen: a new store sees what the last one left", async () => {
    const [one, two, three] = await pushAll(await harness.open(), "One", "Two", "Three");
    const second = await harness.open();
    expect(await second.list()).toEqual([three, two, one]);
    expect(await second.pop(resolution(three!, "discard", requestStep(REQUEST, 70)))).toEqual(three);
    const third = await harness.open();
    expect(await third.list()).toEqual([two, one]);
    expect(await third.hasPending()).toBe(true);
    const [four] = await pushAll(third, "Four");
    expect(labels(await (await harness.open()).list())).toEqual(["Four", "Two", "One"]);
    expect(four!.seq).toBeGreaterThan(three!.seq);
  });

  test("a resolution is recorded with its request step: a discard, and an apply with its commit", async () => {
    const store = await harness.open();
    const [kept, applied, discarded] = await pushAll(store, "Kept", "Applied", "Discarded");
    const discardStep = requestStep(REQUEST, 10);
    const applyStep = requestStep(REQUEST, 11);
    expect(await store.pop(resolution(discarded!, "discard", discardStep))).toEqual(discarded);
    const commit = await harness.commit(applied!, applyStep);
    expect(await store.pop(resolution(applied!, "apply", applyStep, commit))).toEqual(applied);
    const recorded = await harness.resolutions();
    expect(recorded.get(discardStep)).toEqual({ action: "discard", id: discarded!.id });
    expect(recorded.get(applyStep)).toEqual({ action: "apply", id: applied!.id, commit });
    expect(recorded.size).toBe(2);
    // The apply's commit moved nothing else: what was under it is still pending, for every store.
    expect(await store.list()).toEqual([kept]);
    expect(await (await harness.open()).list()).toEqual([kept]);
  });

  test("an apply that committed nothing is recorded without a commit", async () => {
    const store = await harness.open();
    const [noop] = await pushAll(store, "No-op");
    const step = requestStep(REQUEST, 20);
    expect(await store.pop(resolution(noop!, "apply", step))).toEqual(noop);
    expect((await harness.resolutions()).get(step)).toEqual({ action: "apply", id: noop!.id });
    expect(await (await harness.open()).list()).toEqual([]);
  });

  if (!traits.concurrent) {
    test("two stores one after another: the second sees the first's push and continues its seq", async () => {
      const one = await (await harness.open()).push(draft("From a"), PREVIEW);
      const two = await (await harness.open()).push(draft("From b"), PREVIEW);
      expect(two.seq).toBeGreaterThan(one.seq);
      expect(await (await harness.open()).list()).toEqual([two, one]);
    });
    return;
  }

  test("concurrent pushes and pops from two stores: every push kept with its own seq, each top popped once", async () => {
    const [a, b] = [await harness.open(), await harness.open()];
    const names = Array.from({ length: 8 }, (_, i) => `Concurrent ${i}`);
    const pushed = await Promise.all(names.map((name, i) => (i % 2 === 0 ? a : b).push(draft(name), PREVIEW)));
    const seqs = pushed.map((record) => record.seq);
    expect(new Set(seqs).size).toBe(names.length);
    const listed = await (await harness.open()).list();
    expect(listed.map((record) => record.seq)).toEqual([...seqs].sort((x, y) => y - x));
    expect(new Set(labels(listed))).toEqual(new Set(names));
    // Both stores try to pop the same top at once: exactly one gets it, and the next is the new top.
    const top = listed[0]!;
    const results = await Promise.all([a.pop(resolution(top, "discard")), b.pop(resolution(top, "discard"))]);
    expect(results.filter((result) => result !== null)).toEqual([top]);
    expect(await a.peek()).toEqual(listed[1]);
    expect(await b.list()).toEqual(listed.slice(1));
  });
}
