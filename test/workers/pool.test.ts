import type { WorkerPool } from "../../src/workers/pool.js";
import type { WorkerOutcome } from "../../src/workers/outcome.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fixture, startPool } from "./built.js";

const tasks = fixture("tasks.mjs");
let pool: WorkerPool;

const workerErrors: Error[] = [];
beforeAll(async () => {
  pool = await startPool({}, workerErrors);
});
afterAll(async () => {
  await pool.destroy();
});

/**
 * The pool's limit is 1 s, so that the time-limit tests end fast; a task that is not about the limit
 * gets `AMPLE_MS`, so a loaded machine cannot stop it for being slow.
 */
const AMPLE_MS = 60_000;

const run = <O = any>(name: string, input: unknown = {}, label = `\`/${name}\``, signal?: AbortSignal, timeLimitMs?: number) =>
  pool.run<unknown, O>({ module: tasks, export: name, input }, { label, signal, timeLimitMs });

/** The pool still serves: a plain task succeeds after whatever the test did. */
async function expectPoolServes(): Promise<void> {
  await expect(run("echo", { after: "stop" }, "`/echo`", undefined, AMPLE_MS)).resolves.toMatchObject({
    ok: true,
    value: { input: { after: "stop" } },
  });
}

/** Waits for a condition (never for a time): a loaded machine only makes it come later. */
async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("the condition never held");
    await sleep(20);
  }
}

async function timed<T>(work: Promise<T>): Promise<{ outcome: T; ms: number }> {
  const start = performance.now();
  const outcome = await work;
  return { outcome, ms: performance.now() - start };
}

test("a task's value comes back from a worker thread", async () => {
  const outcome = await run("echo", { n: 1 }, "`/echo`", undefined, AMPLE_MS);
  expect(outcome).toEqual({ ok: true, value: { input: { n: 1 }, threadId: expect.any(Number) } });
  expect((outcome as { value: { threadId: number } }).value.threadId).toBeGreaterThan(0);
});

test("a synchronous endless loop is stopped at the time limit and the pool goes on", async () => {
  const { outcome, ms } = await timed(run("spin"));
  expect(outcome).toEqual({
    ok: false,
    reason: "time-limit",
    message: "`/spin` did not finish within 1 s and was stopped; nothing was changed.",
    detail: expect.any(String),
  });
  // Not stopped early; a spin that was never stopped would end the test at jest's timeout instead.
  expect(ms).toBeGreaterThanOrEqual(1000);
  await expectPoolServes();
});

test("the worker is terminated stopGraceMs after the limit; the reply names the limit", async () => {
  const graceful = await startPool({ workers: 1, stopGraceMs: 1000 });
  const { outcome, ms } = await timed(graceful.run({ module: tasks, export: "spin", input: {} }, { label: "`/spin`" }));
  await graceful.destroy();
  expect(outcome).toMatchObject({
    reason: "time-limit",
    message: "`/spin` did not finish within 1 s and was stopped; nothing was changed.",
  });
  expect(ms).toBeGreaterThanOrEqual(2000);
});

test("each reported command gets the full time limit, and the reply names the one that hung", async () => {
  // /first takes most of the 3 s limit (a loaded machine stretches its 2 s sleep, not by a second).
  const { outcome, ms } = await timed(run("commands", { firstMs: 2000 }, "This comment's commands", undefined, 3000));
  expect(outcome).toMatchObject({
    reason: "time-limit",
    message: "`/second` did not finish within 3 s and was stopped; nothing was changed.",
  });
  // 2 s of /first, then the full 3 s for /second.
  expect(ms).toBeGreaterThanOrEqual(5000);
});

test("stopped while committing: the reply does not claim nothing changed", async () => {
  const outcome = await run("spinWhileWriting", {}, "This comment's commands");
  expect(outcome).toMatchObject({
    reason: "time-limit",
    message:
      "`/move` did not finish within 1 s and was stopped; it was stopped while committing, so its commit may have landed: the next command on this pull request finds out and says which.",
  });
});

test("a task that needs more memory than a worker has is stopped and the pool goes on", async () => {
  const outcome = await run("hog", {}, "`/hog`", undefined, AMPLE_MS);
  expect(outcome).toMatchObject({
    ok: false,
    reason: "memory-limit",
    message: "`/hog` needed more than 64 MB of memory and was stopped; nothing was changed.",
  });
  await expectPoolServes();
});

test.each([
  ["exit", "worker exited with code: 3"],
  ["throwOutside", "internal detail: uncaught in a timer"],
  ["rejects", "internal detail: a bug in the task"],
])("%s: reported as crashed, the internal error only in the detail", async (name, detail) => {
  const outcome = await run(name, {}, `\`/${name}\``, undefined, AMPLE_MS);
  expect(outcome).toMatchObject({
    ok: false,
    reason: "crashed",
    message: `\`/${name}\` failed inside resolve-bot (the error is in the app's log); nothing was changed.`,
  });
  expect((outcome as { detail: string }).detail).toContain(detail);
  expect((outcome as { message: string }).message).not.toContain("internal detail");
  await expectPoolServes();
});

test("a cancelled task is stopped at once, running or not yet started", async () => {
  const controller = new AbortController();
  // Only the cancel can stop it: its time limit is far away (it would say "time-limit").
  const running = run("spin", {}, "`/spin`", controller.signal, AMPLE_MS);
  setTimeout(() => controller.abort(), 200);
  expect(await running).toMatchObject({ reason: "aborted", message: "`/spin` was cancelled before it finished; nothing was changed." });
  expect(await run("echo", {}, "`/echo`", AbortSignal.abort())).toMatchObject({ ok: false, reason: "aborted" });
  await expectPoolServes();
});

test("tasks run in parallel on different workers", async () => {
  // Each waits for the other to be running: only possible when both run at once.
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-meet-"));
  const meet = (me: string, other: string) => run("meet", { dir, me, other, maxMs: 30_000 }, "`/meet`", undefined, AMPLE_MS);
  const [a, b] = (await Promise.all([meet("a", "b"), meet("b", "a")])) as WorkerOutcome<{ threadId: number }>[];
  rmSync(dir, { recursive: true, force: true });
  expect([a!.ok, b!.ok]).toEqual([true, true]);
  if (!a!.ok || !b!.ok) return;
  expect(a!.value.threadId).not.toBe(b!.value.threadId);
});

test("a worker that dies does not disturb the task running on another", async () => {
  // The nap lasts until the other worker has died: it was running the whole time.
  let died!: () => void;
  const dead = new Promise<void>((resolve) => (died = resolve));
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-die-"));
  const napping = run("busyUntil", { file: path.join(dir, "released"), maxMs: 30_000 }, "`/nap`", undefined, AMPLE_MS);
  const dying = run("exit", {}, "`/exit`", undefined, AMPLE_MS).finally(() => died());
  await dead;
  writeFileSync(path.join(dir, "released"), "");
  expect(await dying).toMatchObject({ reason: "crashed" });
  expect(await napping).toMatchObject({ ok: true, value: { released: true } });
  rmSync(dir, { recursive: true, force: true });
});

test("a spinning task holds one worker; another task finishes meanwhile", async () => {
  const controller = new AbortController();
  let spinEnded = false;
  const spinning = run("spin", {}, "`/spin`", controller.signal, AMPLE_MS).finally(() => (spinEnded = true));
  const outcome = await run("echo", { other: "PR" }, "`/echo`", undefined, AMPLE_MS);
  expect(outcome).toMatchObject({ ok: true, value: { input: { other: "PR" } } });
  expect(spinEnded).toBe(false);
  controller.abort();
  await expect(spinning).resolves.toMatchObject({ reason: "aborted" });
});

test("an error in an idle worker (thrown by a finished task's timer) is logged, not fatal; the worker is replaced", async () => {
  const signal = path.join(mkdtempSync(path.join(os.tmpdir(), "resolve-bot-idle-")), "throw");
  const outcome = await run("throwAfterReturning", { signal }, "`/throwAfterReturning`", undefined, AMPLE_MS);
  expect(outcome).toMatchObject({ ok: true });
  writeFileSync(signal, "");
  await waitUntil(() => workerErrors.length > 0);
  expect(workerErrors).toEqual([expect.objectContaining({ message: expect.stringContaining("left behind by a finished task") })]);
  await expectPoolServes();
  rmSync(path.dirname(signal), { recursive: true, force: true });
});

test("closing the pool cancels what is running", async () => {
  const closing = await startPool({ workers: 1 });
  const running = closing.run({ module: tasks, export: "spin", input: {} }, { label: "`/spin`" });
  await new Promise((resolve) => setTimeout(resolve, 200));
  await closing.destroy();
  await expect(running).resolves.toMatchObject({
    ok: false,
    reason: "aborted",
    message: "`/spin` was cancelled before it finished; nothing was changed.",
  });
});
