/** The embedded queue: the shared contract, plus what only SQLite has (one processor, WAL, pruning). */
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { jobConcurrency, openJobQueue } from "../../src/jobs/index.js";
import { SqliteJobQueue, type SqliteJobQueueOptions } from "../../src/jobs/sqlite-queue.js";
import { job, jobQueueContract, queueTracker, recordRuns } from "./contract.js";

const root = mkdtempSync(path.join(tmpdir(), "resolve-bot-jobs-"));
let dataDir: string;
let tests = 0;
const errors: string[] = [];
beforeEach(() => {
  dataDir = path.join(root, `data-${++tests}`);
  errors.length = 0;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = (extra: Partial<SqliteJobQueueOptions> = {}): SqliteJobQueueOptions => ({
  dataDir,
  pollMs: 50,
  onError: (message) => void errors.push(message),
  ...extra,
});
const harness = () => ({ open: () => new SqliteJobQueue(options()), childQueue: () => ({ kind: "sqlite", ...options() }) });

describe("SqliteJobQueue: the JobQueue contract", () => {
  jobQueueContract(harness);
  afterEach(() => expect(errors).toEqual([]));
});

describe("SqliteJobQueue", () => {
  const queues = queueTracker(harness);

  /** A job recorded, then left in the database as a process that died would leave it. */
  async function leftByDeadProcess(id: string, update: string): Promise<void> {
    const queue = queues.open();
    await queue.submit(job(id));
    await queue.close();
    const db = new Database(path.join(dataDir, "jobs.sqlite"));
    db.prepare(update).run();
    db.close();
  }

  test("a second processor on the same data directory is refused, pointing at REDIS_URL", async () => {
    const first = queues.open();
    const { ids } = recordRuns(first);
    const second = queues.open();
    expect(() => second.process(async () => undefined, { concurrency: 1 })).toThrow(
      `Another process is already carrying out the jobs in ${dataDir}. The embedded queue has one worker process; set REDIS_URL to run several.`,
    );
    // It may still submit (a `resolve-bot server` does), and the processor picks the job up.
    await second.submit(job("from-server"));
    await first.idle();
    expect(ids()).toEqual(["from-server#1"]);
  });

  test("the database is in WAL mode in the data directory", async () => {
    const queue = queues.open();
    await queue.submit(job("w-1"));
    const db = new Database(path.join(dataDir, "jobs.sqlite"), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT id, key, state FROM jobs").all()).toEqual([{ id: "w-1", key: "owner/repo#1", state: "queued" }]);
    db.close();
  });

  test("delivery ids are forgotten after the dedupe window (pruned on open)", async () => {
    const queue = new SqliteJobQueue(options({ dedupeTtlMs: 50 }));
    const { ids } = recordRuns(queue);
    await queue.submit(job("old"));
    await queue.idle();
    await queue.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reopened = new SqliteJobQueue(options({ dedupeTtlMs: 50 }));
    expect(await reopened.submit(job("old"))).toBe(true);
    await reopened.close(0);
    expect(ids()).toEqual(["old#1"]);
  });

  test("a job that kills its process on every attempt ends in the dead letter instead of looping", async () => {
    // Three runs that never finished (the process died each time).
    await leftByDeadProcess("poison", "UPDATE jobs SET state = 'running', attempt = 3");
    const restarted = queues.open();
    const { ids, dead } = recordRuns(restarted);
    await restarted.idle();
    expect(ids()).toEqual([]);
    expect(dead).toEqual([{ id: "poison", message: "The process running this job stopped before it finished, 3 time(s).", attempts: 3 }]);
  });

  test("a dead letter whose callback the last process did not see through is announced on restart, once", async () => {
    const dying = "UPDATE jobs SET state = 'dead', attempt = 2, last_error = 'GitHub answered 502', notified = 0";
    await leftByDeadProcess("half-dead", dying);
    for (const expected of [[{ id: "half-dead", message: "GitHub answered 502", attempts: 2 }], []]) {
      const restarted = queues.open();
      const { ids, dead } = recordRuns(restarted);
      await restarted.idle(); // the announcement runs as one of the queue's runs
      await restarted.close();
      expect(ids()).toEqual([]);
      expect(dead).toEqual(expected);
    }
  });

  test("openJobQueue uses SQLite in RESOLVE_BOT_DATA_DIR when REDIS_URL is not set", async () => {
    const queue = openJobQueue({ REDIS_URL: " ", RESOLVE_BOT_DATA_DIR: dataDir });
    expect(queue).toBeInstanceOf(SqliteJobQueue);
    expect(await queue.submit(job("open-1"))).toBe(true);
    await queue.close();
    expect(existsSync(path.join(dataDir, "jobs.sqlite"))).toBe(true);
  });

  test("RESOLVE_BOT_JOB_CONCURRENCY: default 4, and a clear error for a value that is not a count", () => {
    expect(jobConcurrency({})).toBe(4);
    expect(jobConcurrency({ RESOLVE_BOT_JOB_CONCURRENCY: " 8 " })).toBe(8);
    expect(() => jobConcurrency({ RESOLVE_BOT_JOB_CONCURRENCY: "lots" })).toThrow(
      'RESOLVE_BOT_JOB_CONCURRENCY must be a whole number of at least 1 (got "lots").',
    );
  });
});
