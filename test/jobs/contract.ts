/**
 * What every JobQueue guarantees (src/jobs/job-queue.ts), proven the same way for each
 * implementation: sqlite-queue.test.ts and redis-queue.test.ts run this suite.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { RetryableJobError, type Job, type JobQueue, type JobRun, type ProcessOptions } from "../../src/jobs/job-queue.js";
import { ChildWorker, assertBuilt } from "./child-worker.js";

export interface QueueHarness {
  /** A queue on this test's storage: every call within a test reaches the same jobs. */
  open(): JobQueue;
  /** How test/jobs/fixtures/worker.mjs opens that storage (its JOBS_QUEUE). */
  childQueue(): Record<string, unknown>;
}

/** Fast retries, so the suite runs in seconds. */
export const quickRetry = { maxAttempts: 3, backoffMs: 100, maxBackoffMs: 2_000 };

export function job(id: string, key = "owner/repo#1", payload: unknown = { id }): Job {
  return { id, key, payload };
}

/** Opens queues through `harness` and closes whatever a test left open. */
export function queueTracker(harness: () => QueueHarness) {
  const open: JobQueue[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.close(0).catch(() => undefined)));
  });
  return {
    open(): JobQueue {
      const queue = harness().open();
      open.push(queue);
      return queue;
    },
  };
}

/** Runs `queue` with a handler that records (id, attempt, re-run) before doing `work`. */
export function recordRuns(
  queue: JobQueue,
  options: Partial<ProcessOptions> = {},
  work: (job: Job, run: JobRun) => Promise<void> = async () => undefined,
) {
  const runs: { id: string; attempt: number; rerun: boolean; at: number }[] = [];
  const dead: { id: string; message: string; attempts: number }[] = [];
  queue.process(
    async (j, run) => {
      runs.push({ id: j.id, attempt: run.attempt, rerun: run.rerun, at: Date.now() });
      await work(j, run);
    },
    {
      concurrency: 4,
      retry: quickRetry,
      onDeadLetter: (j, error, attempts) => {
        dead.push({ id: j.id, message: (error as Error).message, attempts });
      },
      ...options,
    },
  );
  return {
    runs,
    dead,
    ids: () => runs.map((r) => `${r.id}#${r.attempt}`),
    /** The runs told that an earlier run of their job started (and may have done part of it). */
    reruns: () => runs.filter((r) => r.rerun).map((r) => `${r.id}#${r.attempt}`),
  };
}

export function jobQueueContract(harness: () => QueueHarness): void {
  const queues = queueTracker(harness);

  beforeAll(() => assertBuilt());

  /** What a restarted worker carries out (and gives up) once it has had time to. */
  async function runsAfterReopen() {
    const reopened = queues.open();
    const { ids, reruns, dead } = recordRuns(reopened);
    await reopened.idle();
    await sleep(300);
    await reopened.close();
    return { ids: ids(), reruns: reruns(), dead };
  }

  test("readiness: ready while open, also while processing; not ready once closed, saying so", async () => {
    const queue = queues.open();
    expect(await queue.unreadyReason()).toBeUndefined();
    recordRuns(queue);
    expect(await queue.unreadyReason()).toBeUndefined();
    await queue.close();
    expect(await queue.unreadyReason()).toBe("the job queue is closed");
  });

  test("a delivery id is taken once, also after a restart; the job runs once with its payload", async () => {
    const first = queues.open();
    expect(await first.submit(job("d-1", "o/r#1", { comment: "/resolve apply" }))).toBe(true);
    expect(await first.submit(job("d-1", "o/r#1", { comment: "again" }))).toBe(false);
    await first.close();

    const second = queues.open();
    expect(await second.submit(job("d-1", "o/r#2", { comment: "after restart" }))).toBe(false);
    const seen: Job[] = [];
    second.process(async (j) => void seen.push(j), { concurrency: 2 });
    await second.idle();
    expect(seen).toEqual([{ id: "d-1", key: "o/r#1", payload: { comment: "/resolve apply" } }]);
  });

  test("recorded jobs survive close and reopen, and run in submit order", async () => {
    const server = queues.open();
    for (const id of ["s-1", "s-2", "s-3"]) expect(await server.submit(job(id, "o/r#7", { id, n: [1, 2] }))).toBe(true);
    await server.close();

    const worker = queues.open();
    const payloads: unknown[] = [];
    worker.process(async (j) => void payloads.push(j.payload), { concurrency: 4 });
    await worker.idle();
    expect(payloads).toEqual(["s-1", "s-2", "s-3"].map((id) => ({ id, n: [1, 2] })));
  });

  test("a note (the deliveries sweep's cursor) survives close and reopen; setting it again replaces it", async () => {
    const first = queues.open();
    expect(await first.notes.get("deliveries-cursor")).toBeUndefined();
    await first.notes.set("deliveries-cursor", '{"through":1}');
    await first.notes.set("deliveries-cursor", '{"through":2}');
    await first.close();

    const second = queues.open();
    expect(await second.notes.get("deliveries-cursor")).toBe('{"through":2}');
    expect(await second.notes.get("another")).toBeUndefined();
  });
  test("per key: one at a time, in submit order; across keys: in parallel up to the concurrency", async () => {
    const queue = queues.open();
    const keys = ["o/r#1", "o/r#2", "o/r#3", "o/r#4"];
    const running = new Map<string, number>();
    let now = 0;
    let most = 0;
    const failures: unknown[] = [];
    const order = new Map<string, string[]>(keys.map((k) => [k, []]));
    // All queued first, so that every key is ready when processing starts.
    for (let n = 0; n < 6; n++) for (const key of keys) await queue.submit(job(`${key}-${n}`, key));
    queue.process(
      async (j) => {
        const overlapping = (running.get(j.key) ?? 0) + 1;
        running.set(j.key, overlapping);
        if (overlapping > 1) throw new Error(`two jobs of ${j.key} at once`);
        most = Math.max(most, ++now);
        order.get(j.key)!.push(j.id);
        // Uneven durations, so that keys overtake each other.
        await sleep(5 + ((Number(j.id.split("-")[1]) * 7 + j.key.charCodeAt(4)) % 15));
        now--;
        running.set(j.key, overlapping - 1);
      },
      { concurrency: 3, onDeadLetter: (_j, error) => void failures.push(error) },
    );
    await queue.idle();
    expect(failures).toEqual([]);
    for (const key of keys) expect(order.get(key)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `${key}-${n}`));
    expect(most).toBe(3);
  });

  test("different keys really run at the same time", async () => {
    const queue = queues.open();
    let started = 0;
    let allThere!: () => void;
    const barrier = new Promise<void>((resolve) => (allThere = resolve));
    const { ids, dead } = recordRuns(queue, { concurrency: 3 }, async () => {
      if (++started === 3) allThere();
      // Each job waits for the other two: only possible if all three run at once.
      await Promise.race([barrier, sleep(5_000).then(() => Promise.reject(new Error("ran one after another")))]);
    });
    for (const key of ["a#1", "b#2", "c#3"]) await queue.submit(job(`p-${key}`, key));
    await queue.idle();
    expect(dead).toEqual([]);
    expect(ids().sort()).toEqual(["p-a#1#1", "p-b#2#1", "p-c#3#1"]);
  });

  test("a job whose process was SIGKILLed mid-run runs again on restart, and completes exactly once", async () => {
    const server = queues.open();
    await server.submit(job("crash-1", "o/r#9"));
    await server.submit(job("crash-2", "o/r#9"));
    await server.close();

    const child = new ChildWorker(harness().childQueue(), "hang");
    await child.waitFor(/^started crash-1 1$/);
    await child.kill("SIGKILL");

    const restarted = queues.open();
    const { ids, reruns, dead } = recordRuns(restarted);
    await restarted.idle();
    expect(ids()).toEqual(["crash-1#2", "crash-2#1"]);
    expect(reruns()).toEqual(["crash-1#2"]);
    expect(dead).toEqual([]);
    await restarted.close();
    expect(await runsAfterReopen()).toEqual({ ids: [], reruns: [], dead: [] });
  });

  test("a retryable failure is retried with backoff, never before its retry-after; the key waits", async () => {
    const queue = queues.open();
    const { runs, ids, reruns, dead } = recordRuns(queue, {}, async (j, run) => {
      if (j.id !== "r-1") return;
      if (run.attempt === 1) throw new RetryableJobError("GitHub answered 502");
      if (run.attempt === 2) throw new RetryableJobError("secondary rate limit", 700);
    });
    await queue.submit(job("r-1", "o/r#3"));
    await queue.submit(job("r-2", "o/r#3"));
    await queue.idle();
    expect(ids()).toEqual(["r-1#1", "r-1#2", "r-1#3", "r-2#1"]);
    expect(reruns()).toEqual(["r-1#2", "r-1#3"]);
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(quickRetry.backoffMs);
    // 700 ms asked for, more than the 200 ms backoff of the second retry.
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(700);
    expect(dead).toEqual([]);
  });

  test("dead letter once: after the last attempt, or at once for any other error; the key moves on", async () => {
    const queue = queues.open();
    const { ids, dead } = recordRuns(queue, {}, async (j) => {
      if (j.id === "x-1") throw new RetryableJobError("GitHub keeps answering 502");
      if (j.id === "x-2") throw new TypeError("Cannot read properties of undefined");
    });
    for (const id of ["x-1", "x-2", "x-3"]) await queue.submit(job(id, "o/r#4"));
    await queue.idle();
    expect(ids()).toEqual(["x-1#1", "x-1#2", "x-1#3", "x-2#1", "x-3#1"]);
    expect(dead).toEqual([
      { id: "x-1", message: "GitHub keeps answering 502", attempts: 3 },
      { id: "x-2", message: "Cannot read properties of undefined", attempts: 1 },
    ]);
    await queue.close();
    expect(await runsAfterReopen()).toEqual({ ids: [], reruns: [], dead: [] });
    expect(await queues.open().submit(job("x-1", "o/r#4"))).toBe(false);
  });

  test("close() lets a running job finish within the grace", async () => {
    const queue = queues.open();
    let finished = false;
    const { runs } = recordRuns(queue, {}, async () => {
      await sleep(300);
      finished = true;
    });
    await queue.submit(job("g-1"));
    await waitUntil(() => runs.length === 1);
    await queue.close(5_000);
    expect(finished).toBe(true);
    expect(await runsAfterReopen()).toEqual({ ids: [], reruns: [], dead: [] });
  });

  test("close() hands back a job that outlives the grace: signal aborted, it runs again", async () => {
    const queue = queues.open();
    const seen: { before?: boolean; aborted?: boolean } = {};
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    recordRuns(queue, {}, async (j, run) => {
      if (j.id !== "h-1") return;
      seen.before = run.signal.aborted;
      started();
      await new Promise((resolve) => run.signal.addEventListener("abort", resolve));
      seen.aborted = run.signal.aborted;
    });
    await queue.submit(job("h-1", "o/r#5"));
    await queue.submit(job("h-2", "o/r#5"));
    await running;
    const t0 = Date.now();
    await queue.close(400);
    expect(Date.now() - t0).toBeLessThan(3_000);
    await waitUntil(() => seen.aborted !== undefined);
    expect(seen).toEqual({ before: false, aborted: true });

    // Handed back, not failed: the rerun is attempt 1 again, and the key's order holds; it is
    // still told that a run started (the handler looks for what that run did).
    expect(await runsAfterReopen()).toEqual({ ids: ["h-1#1", "h-2#1"], reruns: ["h-1#1"], dead: [] });
  });
}

export async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(10);
  }
}
