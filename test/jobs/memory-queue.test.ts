/** The in-memory JobQueue keeps the JobQueue contract (src/jobs/job-queue.ts) within one process. */
import { RetryableJobError, type Job } from "../../src/jobs/job-queue.js";
import { MemoryJobQueue } from "../../src/jobs/memory-queue.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function job(id: string, key: string): Job {
  return { id, key, payload: { id } };
}

test("one key's jobs run one at a time in submit order; other keys run meanwhile", async () => {
  const queue = new MemoryJobQueue();
  const events: string[] = [];
  queue.process(
    async (current) => {
      events.push(`start ${current.id}`);
      await sleep(current.key === "pr#1" ? 30 : 5);
      events.push(`end ${current.id}`);
    },
    { concurrency: 4 },
  );
  for (const [id, key] of [
    ["a", "pr#1"],
    ["b", "pr#1"],
    ["c", "pr#2"],
  ])
    await queue.submit(job(id!, key!));
  await queue.idle();
  expect(events.filter((event) => event.endsWith("a") || event.endsWith("b"))).toEqual(["start a", "end a", "start b", "end b"]);
  // pr#2 did not wait for pr#1.
  expect(events.indexOf("end c")).toBeLessThan(events.indexOf("end a"));
});

test("a delivery id is taken once; jobs submitted before process() run when it is called", async () => {
  const queue = new MemoryJobQueue();
  expect(await queue.submit(job("d1", "k"))).toBe(true);
  expect(await queue.submit(job("d1", "k"))).toBe(false);
  const ran: string[] = [];
  queue.process(async (current) => void ran.push(current.id), { concurrency: 1 });
  await queue.idle();
  expect(ran).toEqual(["d1"]);
});

test("RetryableJobError is retried with backoff; other errors and exhausted retries go to the dead letter once", async () => {
  const queue = new MemoryJobQueue({ maxAttempts: 3, backoffMs: () => 1 });
  const attempts: Record<string, number[]> = {};
  const dead: Array<[string, string, number]> = [];
  queue.process(
    async (current, run) => {
      (attempts[current.id] ??= []).push(run.attempt);
      if (current.id === "flaky" && run.attempt < 2) throw new RetryableJobError("502");
      if (current.id === "down") throw new RetryableJobError("502 again");
      if (current.id === "bug") throw new Error("TypeError somewhere");
    },
    { concurrency: 2, onDeadLetter: (dropped, error, count) => void dead.push([dropped.id, (error as Error).message, count]) },
  );
  for (const id of ["flaky", "down", "bug"]) await queue.submit(job(id, id));
  await queue.idle();
  expect(attempts).toEqual({ flaky: [1, 2], down: [1, 2, 3], bug: [1] });
  expect(dead.sort()).toEqual([
    ["bug", "TypeError somewhere", 1],
    ["down", "502 again", 3],
  ]);
});

test("concurrency bounds how many keys run at once", async () => {
  const queue = new MemoryJobQueue();
  let running = 0;
  let most = 0;
  queue.process(
    async () => {
      most = Math.max(most, ++running);
      await sleep(10);
      running--;
    },
    { concurrency: 2 },
  );
  for (let index = 0; index < 6; index++) await queue.submit(job(`j${index}`, `pr#${index}`));
  await queue.idle();
  expect(most).toBe(2);
});

test("close: no new jobs; running and queued ones finish within the grace period, later ones are dropped and said so", async () => {
  const dropped: string[] = [];
  const queue = new MemoryJobQueue({ onError: (_error, current) => void dropped.push(current.id) });
  const done: string[] = [];
  queue.process(
    async (current, run) => {
      await sleep(current.id === "slow" ? 60 : 5);
      if (!run.signal.aborted) done.push(current.id);
    },
    { concurrency: 1 },
  );
  await queue.submit(job("fast", "k"));
  await queue.submit(job("slow", "k"));
  await queue.submit(job("late", "k"));
  await queue.close(30);
  await expect(queue.submit(job("new", "k"))).rejects.toThrow("closed");
  await queue.idle();
  expect(done).toEqual(["fast"]);
  expect(dropped).toEqual(["late"]);
});
