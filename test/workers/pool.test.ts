import type { WorkerPool } from "../../src/workers/pool.js";
import type { WorkerOutcome } from "../../src/workers/outcome.js";
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

const run = <O = any>(name: string, input: unknown = {}, label = `\`/${name}\``, signal?: AbortSignal, timeLimitMs?: number) =>
  pool.run<unknown, O>({ module: tasks, export: name, input }, { label, signal, timeLimitMs });

/** The pool still serves: a plain task succeeds after whatever the test did. */
async function expectPoolServes(): Promise<void> {
  await expect(run("echo", { after: "stop" })).resolves.toMatchObject({ ok: true, value: { input: { after: "stop" } } });
}

async function timed<T>(work: Promise<T>): Promise<{ outcome: T; ms: number }> {
  const start = performance.now();
  const outcome = await work;
  return { outcome, ms: performance.now() - start };
}

test("a task's value comes back from a worker thread", async () => {
  const outcome = await run("echo", { n: 1 });
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
  expect(ms).toBeGreaterThanOrEqual(1000);
  expect(ms).toBeLessThan(3000);
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
  const { outcome, ms } = await timed(run("commands", { firstMs: 700 }, "This comment's commands"));
  expect(outcome).toMatchObject({
    reason: "time-limit",
    message: "`/second` did not finish within 1 s and was stopped; nothing was changed.",
  });
  // 700 ms of /first, then a full second for /second.
  expect(ms).toBeGreaterThanOrEqual(1700);
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
  const { outcome, ms } = await timed(run("hog", {}, "`/hog`", undefined, 10_000));
  expect(outcome).toMatchObject({
    ok: false,
    reason: "memory-limit",
    message: "`/hog` needed more than 64 MB of memory and was stopped; nothing was changed.",
  });
  expect(ms).toBeLessThan(10_000);
  await expectPoolServes();
});

test.each([
  ["exit", "worker exited with code: 3"],
  ["throwOutside", "internal detail: uncaught in a timer"],
  ["rejects", "internal detail: a bug in the task"],
])("%s: reported as crashed, the internal error only in the detail", async (name, detail) => {
  const outcome = await run(name);
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
  const running = timed(run("spin", {}, "`/spin`", controller.signal));
  setTimeout(() => controller.abort(), 200);
  const { outcome, ms } = await running;
  expect(outcome).toMatchObject({ reason: "aborted", message: "`/spin` was cancelled before it finished; nothing was changed." });
  expect(ms).toBeLessThan(800);
  expect(await run("echo", {}, "`/echo`", AbortSignal.abort())).toMatchObject({ ok: false, reason: "aborted" });
  await expectPoolServes();
});

test("tasks run in parallel on different workers", async () => {
  const [a, b] = (await Promise.all([run("nap", { ms: 600 }), run("nap", { ms: 600 })])) as WorkerOutcome<{
    start: number;
    end: number;
    threadId: number;
  }>[];
  if (!a!.ok || !b!.ok) throw new Error("naps failed");
  expect(a!.value.threadId).not.toBe(b!.value.threadId);
  expect(a!.value.start).toBeLessThan(b!.value.end);
  expect(b!.value.start).toBeLessThan(a!.value.end);
});

test("a worker that dies does not disturb the task running on another", async () => {
  const [napping, dying] = await Promise.all([
    run("nap", { ms: 800 }),
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return run("exit");
    })(),
  ]);
  expect(dying).toMatchObject({ reason: "crashed" });
  expect(napping).toMatchObject({ ok: true, value: { start: expect.any(Number) } });
});

test("a spinning task holds one worker; another task finishes meanwhile", async () => {
  const spinning = run("spin");
  const { outcome, ms } = await timed(run("echo", { other: "PR" }));
  expect(outcome).toMatchObject({ ok: true, value: { input: { other: "PR" } } });
  expect(ms).toBeLessThan(500);
  await expect(spinning).resolves.toMatchObject({ reason: "time-limit" });
});

test("an error in an idle worker (thrown by a finished task's timer) is logged, not fatal; the worker is replaced", async () => {
  const outcome = await run("throwAfterReturning");
  expect(outcome).toMatchObject({ ok: true });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(workerErrors).toEqual([expect.objectContaining({ message: expect.stringContaining("left behind by a finished task") })]);
  await expectPoolServes();
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
