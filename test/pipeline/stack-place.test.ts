/**
 * "Pending" in a reply says where the action stands on the stack afterwards, numbered as /pending
 * numbers it (newest first), never the record's seq (which counts every push on the pull request).
 */
import type { PendingRecord } from "../../src/core/store.js";
import { stackPlace } from "../../src/pipeline/reply.js";

const record = (id: string, seq: number) => ({ id, seq, label: id }) as unknown as PendingRecord;

test("alone on the stack: no number, whatever its seq", () => {
  expect(stackPlace(record("a", 23), [record("a", 23)])).toBe("");
});

test("among others: its place newest first, of how many", () => {
  const stack = [record("c", 25), record("b", 24), record("a", 23)];
  expect([stack[0]!, stack[1]!, stack[2]!].map((entry) => stackPlace(entry, stack))).toEqual([
    " (1 of 3, newest first)",
    " (2 of 3, newest first)",
    " (3 of 3, newest first)",
  ]);
});

test("no longer pending (resolved by a later command of the same comment): no number", () => {
  expect(stackPlace(record("a", 1), [record("b", 2), record("c", 3)])).toBe("");
});
