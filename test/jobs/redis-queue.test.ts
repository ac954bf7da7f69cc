/**
 * The Redis queue against a real redis-server started for this file: the shared contract, plus
 * what only several processes on one Redis can show (per-key order across processes, lease expiry
 * and fencing, dedupe TTLs).
 */
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { openJobQueue } from "../../src/jobs/index.js";
import { RedisJobQueue, type RedisJobQueueOptions } from "../../src/jobs/redis-queue.js";
import { ChildWorker } from "./child-worker.js";
import { job, jobQueueContract, queueTracker, recordRuns, waitUntil } from "./contract.js";
import { RedisServer, describeWithRedis } from "../helpers/redis-server.js";

const describeRedis = describeWithRedis("the Redis queue tests (test/jobs/redis-queue.test.ts)");

let server: RedisServer | undefined;
let prefix = "";
let tests = 0;
const errors: string[] = [];
beforeEach(() => {
  prefix = `t${++tests}`;
  errors.length = 0;
});

const options = (extra: Partial<RedisJobQueueOptions> = {}): RedisJobQueueOptions => ({
  url: server!.url,
  prefix,
  leaseMs: 1_000,
  sweepMs: 100,
  onError: (message) => void errors.push(message),
  ...extra,
});
const childQueue = (extra: Partial<RedisJobQueueOptions> = {}) => {
  const { onError: _onError, ...rest } = options(extra);
  return { kind: "redis", ...rest };
};
const harness = () => ({ open: () => new RedisJobQueue(options()), childQueue: () => childQueue() });

describeRedis("RedisJobQueue", () => {
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("the JobQueue contract", () => {
    jobQueueContract(harness);
    afterEach(() => expect(errors).toEqual([]));
  });

  describe("several processes on one Redis", () => {
    const queues = queueTracker(harness);
    const longLease = queueTracker(() => ({ ...harness(), open: () => new RedisJobQueue(options({ leaseMs: 3_000 })) }));
    const children: ChildWorker[] = [];
    let redis: Redis;
    beforeEach(() => {
      redis = new Redis(server!.url);
    });
    afterEach(async () => {
      await Promise.all(children.splice(0).map((child) => child.kill("SIGKILL")));
      redis.disconnect();
    });

    test("two worker processes: per key never two jobs at once, always in submit order", async () => {
      const logKey = `${prefix}:log`;
      for (const name of ["a", "b"]) {
        children.push(new ChildWorker(childQueue(), "log", { WORKER_NAME: name, LOG_KEY: logKey }));
      }
      await Promise.all(children.map((child) => child.waitFor(/^ready$/)));
      // Both BullMQ workers connected before the first job, so that both can take part.
      const probe = new Queue(prefix, { connection: redis });
      await waitUntil(async () => (await probe.getWorkersCount()) === 2);
      await probe.close();

      const server = queues.open();
      const keys = ["o/r#1", "o/r#2", "o/r#3", "o/r#4", "o/r#5", "o/r#6"];
      for (let n = 0; n < 6; n++) {
        for (const key of keys) await server.submit(job(`${key}-${n}`, key, { ms: 5 + ((n * 7 + key.length) % 20) }));
      }
      await server.idle();

      const log = await redis.lrange(logKey, 0, -1);
      expect(log).toHaveLength(keys.length * 6 * 2);
      for (const key of keys) {
        const events = log.filter((line) => line.split(" ")[1] === key).map((line) => line.split(" "));
        // start X, end X, start Y, end Y…: one at a time, and X, Y… in submit order.
        const expected = [0, 1, 2, 3, 4, 5].flatMap((n) => [`start ${key}-${n}`, `end ${key}-${n}`]);
        expect(events.map(([event, , id]) => `${event} ${id}`)).toEqual(expected);
      }
      const workers = new Set(log.map((line) => line.split(" ")[3]));
      expect([...workers].sort()).toEqual(["a", "b"]);
      expect(errors).toEqual([]);
    });

    test("a holder that stalls past its lease loses the key: its signal is aborted and its finish is refused", async () => {
      const stalled = new ChildWorker(childQueue({ leaseMs: 500 }), "stall", { STALL_MS: "2500" });
      children.push(stalled);
      await stalled.waitFor(/^ready$/);
      // The taker's own lease is longer: on a loaded machine a late renewal must not make it lose j-2 too.
      const queue = longLease.open();
      for (const id of ["j-1", "j-2", "j-3"]) await queue.submit(job(id, "o/r#8"));
      await stalled.waitFor(/^started j-1 1$/);

      // This process takes over once the stalled holder's lease expires. It keeps j-2 running
      // until the stalled holder has woken up and tried to finish j-1.
      const { runs, ids } = recordRuns(queue, {}, async (j) => {
        if (j.id === "j-2") {
          await stalled.waitFor(/^error Job j-1 lost its lease/);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      });
      await waitUntil(() => runs.length > 0);
      expect(stalled.lines).not.toContain("aborted j-1"); // took over while the holder still stalled
      await queue.idle();

      expect(await stalled.waitFor(/^aborted j-1$/)).toBe("aborted j-1");
      expect(await stalled.waitFor(/^error /)).toMatch(
        /^error Job j-1 lost its lease on o\/r#8 \(fence \d+\); its finish was not recorded and the worker now holding the key runs it\.$/,
      );
      // Had the stale finish popped the key's head (j-2 by then), j-3 would never have run.
      expect(ids()).toEqual(["j-1#2", "j-2#1", "j-3#1"]);
      expect(stalled.lines.filter((line) => line.startsWith("started"))).toHaveLength(1);
    });
  });

  describe("recovery from workers that died", () => {
    const queues = queueTracker(harness);

    test("a job whose worker died on every attempt, or during its dead-letter callback, is given up once", async () => {
      const redis = new Redis(server!.url);
      const queue = queues.open();
      await queue.submit(job("poison", "o/r#1"));
      await queue.submit(job("half-dead", "o/r#2"));
      // As the hashes are left when the worker holding the key dies (its lock then expires).
      await redis.hset(`${prefix}:jobs:job:poison`, "attempt", 3);
      await redis.hset(`${prefix}:jobs:job:half-dead`, "attempt", "2", "state", "dead", "lastError", "GitHub answered 502");
      const { ids, dead } = recordRuns(queue);
      await queue.idle();
      expect(ids()).toEqual([]);
      expect(dead.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: "half-dead", message: "GitHub answered 502", attempts: 2 },
        { id: "poison", message: "The process running this job stopped before it finished, 3 time(s).", attempts: 3 },
      ]);
      expect(await redis.zrange(`${prefix}:jobs:dead`, "0", "-1")).toEqual(expect.arrayContaining(["poison", "half-dead"]));
      redis.disconnect();
    });
  });

  describe("dedupe keys and openJobQueue", () => {
    const queues = queueTracker(harness);

    test("a delivery id is kept with a TTL (SET NX PX), then forgotten", async () => {
      const redis = new Redis(server!.url);
      const queue = queues.open();
      expect(await queue.submit(job("ttl-1"))).toBe(true);
      const ttl = await redis.pttl(`${prefix}:jobs:dedupe:ttl-1`);
      expect(ttl).toBeGreaterThan(7 * 86_400_000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(7 * 86_400_000);

      const short = new RedisJobQueue(options({ dedupeTtlMs: 200 }));
      const { ids } = recordRuns(short);
      expect(await short.submit(job("ttl-2"))).toBe(true);
      expect(await short.submit(job("ttl-2"))).toBe(false);
      await short.idle();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await short.submit(job("ttl-2"))).toBe(true);
      await short.idle();
      await short.close();
      redis.disconnect();
      expect(ids()).toEqual(["ttl-1#1", "ttl-2#1", "ttl-2#1"]);
    });

    test("openJobQueue uses Redis when REDIS_URL is set", async () => {
      const queue = openJobQueue({ REDIS_URL: server!.url, RESOLVE_BOT_DATA_DIR: "/nonexistent" });
      expect(queue).toBeInstanceOf(RedisJobQueue);
      expect(await queue.submit(job(`open-${prefix}`))).toBe(true);
      const redis = new Redis(server!.url);
      expect(await redis.exists(`resolve-bot:jobs:job:open-${prefix}`)).toBe(1);
      redis.disconnect();
      await queue.close();
    });
  });
});
