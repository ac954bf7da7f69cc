/**
 * Issue 8's measurement: webhooks for another PR are acknowledged in < 100 ms p99 while a heavy
 * tool runs — because the tool runs in a pool worker, not on the server's event loop.
 */
import type { WorkerPool } from "../../src/workers/pool.js";
import { measureAcks } from "./ack-latency.js";
import { fixture, startPool } from "./built.js";

let pool: WorkerPool;
beforeAll(async () => {
  pool = await startPool({ workers: 1, timeLimitMs: 30_000 });
});
afterAll(async () => {
  await pool.destroy();
});

test("while a tool does 5 s of synchronous work, 100 webhook deliveries are acknowledged in < 100 ms p99", async () => {
  let heavy: unknown;
  const figures = await measureAcks(async () => {
    heavy = await pool.run({ module: fixture("tasks.mjs"), export: "busy", input: { ms: 5000 } }, { label: "`/move`" });
  });
  console.log(`webhook acknowledgements during 5 s of tool work in a worker: ${JSON.stringify(figures)} (ms)`);
  expect(heavy).toMatchObject({ ok: true, value: { spins: expect.any(Number) } });
  expect(figures.heavyOutlastedDeliveries).toBe(true);
  expect(figures.count).toBe(100);
  expect(figures.p99).toBeLessThan(100);
});
