/**
 * When the server sweeps its webhook deliveries: the setting, the start-up sweep, and a failing
 * sweep that never stops the server (warn, counted, the next one runs).
 */
import { jest } from "@jest/globals";
import { DeliverySweeper, sweepIntervalMs } from "../../../src/apps/server/delivery-sweeper.js";
import type { SweepResult } from "../../../src/forges/github/deliveries.js";

const EMPTY: SweepResult = { pages: 1, listed: 0, lost: 0, recovered: [], skipped: 0 };

test("RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: 5 minutes by default, seconds when given, off; anything else stops the server at start", () => {
  expect(sweepIntervalMs({})).toBe(300_000);
  expect(sweepIntervalMs({ RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: " 60 " })).toBe(60_000);
  expect(sweepIntervalMs({ RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: "off" })).toBeUndefined();
  for (const bad of ["0", "1.5", "five", "-3"])
    expect(() => sweepIntervalMs({ RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: bad })).toThrow(
      `RESOLVE_BOT_DELIVERY_SWEEP_SECONDS must be a whole number of seconds (at least 1) or off (got "${bad}").`,
    );
});

test("sweeps at once, then after each interval; a failure is said at warn and counted, and the next sweep runs", async () => {
  const outcomes: Array<() => Promise<SweepResult>> = [
    async () => ({ ...EMPTY, recovered: [{ guid: "g-1", event: "issue_comment.created" }] }),
    async () => {
      throw new Error("Bad credentials");
    },
    async () => EMPTY,
  ];
  jest.useFakeTimers();
  let calls = 0;
  const lines: string[] = [];
  const counted = { swept: 0, failed: 0 };
  const sweeper = new DeliverySweeper(
    20,
    () => (outcomes[calls++] ?? (async () => EMPTY))(),
    { info: (_, message) => void lines.push(`info: ${message}`), warn: (_, message) => void lines.push(`warn: ${message}`) },
    { swept: () => void counted.swept++, failed: () => void counted.failed++ },
  );
  sweeper.start();
  expect(calls).toBe(1); // the start-up sweep starts at once
  // Each interval starts the next sweep once the previous one has ended.
  await jest.advanceTimersByTimeAsync(20);
  await jest.advanceTimersByTimeAsync(20);
  expect(calls).toBe(3);
  await sweeper.stop();
  const after = calls;
  expect(jest.getTimerCount()).toBe(0); // nothing left scheduled: none after stop()
  jest.useRealTimers();
  expect(lines.slice(0, 2)).toEqual([
    "info: resolve-bot recovered 1 webhook delivery GitHub could not deliver",
    "warn: resolve-bot could not sweep the app's webhook deliveries; it tries again in 0 s: Bad credentials",
  ]);
  expect(counted.failed).toBe(1);
  expect(counted.swept).toBe(after - 1);
});
