/**
 * The embedded job queue, what `npm start` uses: one SQLite database (better-sqlite3, WAL,
 * synchronous=FULL) in the data directory, no server to run.
 *
 * - `jobs` holds every job not yet finished, in submit order (`seq`). A job runs only when it is
 *   its key's oldest unfinished job (per-key FIFO); a job waiting for its retry blocks its key.
 * - `seen` remembers submitted ids for the dedupe window, pruned on open and hourly.
 * - One process carries the jobs out: `process()` holds an exclusive SQLite lock on
 *   `processor.lock`, which the OS releases when the process dies however it dies, so a restart
 *   finds it free and puts the jobs that were `running` back in the queue (at-least-once). A
 *   second processor on the same directory is refused with a message pointing at REDIS_URL.
 *   Other processes (a `resolve-bot server`) may submit: the processor polls for their jobs.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Job, JobHandler, JobQueue, JobRun, ProcessOptions, QueueNotes, RetryPolicy } from "./job-queue.js";
import { ActiveRuns, until, type ActiveRun } from "./active-runs.js";
import { attempt, errorMessage, lostRunsError, retryPolicy, type Outcome } from "./outcome.js";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface SqliteJobQueueOptions {
  /** RESOLVE_BOT_DATA_DIR; created if missing. */
  dataDir: string;
  /** How long a submitted id is refused again. Default 7 days. */
  dedupeTtlMs?: number;
  /** How often the processor looks for jobs submitted by another process. Default 1 s. */
  pollMs?: number;
  /** Where failures that have no caller go (a dead-letter callback that threw, a lost write). */
  onError?: (message: string, error: unknown) => void;
  /** Default close() grace. Default 10 s. */
  graceMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  key TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'dead')),
  attempt INTEGER NOT NULL DEFAULT 0,
  run_after INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  dead_at INTEGER,
  notified INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_by_key ON jobs (key, seq);
CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, run_after);
CREATE TABLE IF NOT EXISTS seen (id TEXT PRIMARY KEY, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS seen_by_time ON seen (at);
CREATE TABLE IF NOT EXISTS notes (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** The oldest unfinished job of each key, when it is queued and due. */
const KEY_HEADS = `
FROM jobs j WHERE j.state = 'queued' AND NOT EXISTS (
  SELECT 1 FROM jobs e WHERE e.key = j.key AND e.seq < j.seq AND e.state IN ('queued', 'running'))`;

interface JobRow {
  seq: number;
  id: string;
  key: string;
  payload: string;
  attempt: number;
  last_error: string | null;
}

class SqliteRun implements ActiveRun {
  readonly controller = new AbortController();
  handedBack = false;
  constructor(
    readonly key: string,
    readonly seq: number,
  ) {}
}

interface Processing {
  handler: JobHandler;
  options: ProcessOptions;
  policy: RetryPolicy;
  lock: Database.Database;
  poll: NodeJS.Timeout;
  prune: NodeJS.Timeout;
  wake?: NodeJS.Timeout;
}

export class SqliteJobQueue implements JobQueue {
  private readonly db: Database.Database;
  private readonly sql;
  private readonly runs = new ActiveRuns<SqliteRun>(() => this.pump());
  private processing: Processing | undefined;
  private closing = false;
  private closed = false;

  constructor(private readonly options: SqliteJobQueueOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.db = new Database(path.join(options.dataDir, "jobs.sqlite"), { timeout: 5_000 });
    this.db.pragma("journal_mode = WAL");
    // FULL: a job is on disk when submit() resolves, even if the machine (not just the process) dies.
    this.db.pragma("synchronous = FULL");
    this.db.exec(SCHEMA);
    this.sql = {
      remember: this.db.prepare<[string, number]>("INSERT OR IGNORE INTO seen (id, at) VALUES (?, ?)"),
      insert: this.db.prepare<[string, string, string]>("INSERT OR IGNORE INTO jobs (id, key, payload) VALUES (?, ?, ?)"),
      heads: this.db.prepare<[number, number], JobRow>(
        `SELECT seq, id, key, payload, attempt, last_error ${KEY_HEADS} AND j.run_after <= ? ORDER BY seq LIMIT ?`,
      ),
      nextDue: this.db.prepare<[number], { at: number | null }>(`SELECT MIN(run_after) AS at ${KEY_HEADS} AND j.run_after > ?`),
      take: this.db.prepare<[number]>("UPDATE jobs SET state = 'running', attempt = attempt + 1 WHERE seq = ?"),
      finish: this.db.prepare<[number]>("DELETE FROM jobs WHERE seq = ?"),
      retry: this.db.prepare<[number, string, number]>("UPDATE jobs SET state = 'queued', run_after = ?, last_error = ? WHERE seq = ?"),
      bury: this.db.prepare<[string, number, number]>(
        "UPDATE jobs SET state = 'dead', last_error = ?, dead_at = ?, notified = 0 WHERE seq = ?",
      ),
      notified: this.db.prepare<[number]>("UPDATE jobs SET notified = 1 WHERE seq = ?"),
      unnotified: this.db.prepare<[], JobRow>(
        "SELECT seq, id, key, payload, attempt, last_error FROM jobs WHERE state = 'dead' AND notified = 0 ORDER BY seq",
      ),
      // A hand-back is not counted as an attempt; last_error still says a run started (a re-run next).
      handBack: this.db.prepare<[number]>(
        "UPDATE jobs SET state = 'queued', attempt = attempt - 1, last_error = COALESCE(last_error, 'handed back') WHERE seq = ? AND state = 'running'",
      ),
      requeueRunning: this.db.prepare("UPDATE jobs SET state = 'queued' WHERE state = 'running'"),
      unfinished: this.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'running')"),
      // The readiness probe: a read that goes through SQLite's locks (WAL), not a constant.
      probe: this.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM seen"),
      pruneSeen: this.db.prepare<[number]>("DELETE FROM seen WHERE at < ?"),
      pruneDead: this.db.prepare<[number]>("DELETE FROM jobs WHERE state = 'dead' AND notified = 1 AND dead_at < ?"),
      note: this.db.prepare<[string], { value: string }>("SELECT value FROM notes WHERE name = ?"),
      setNote: this.db.prepare<[string, string]>(
        "INSERT INTO notes (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      ),
    };
    this.prune();
  }

  readonly notes: QueueNotes = {
    get: async (name) => {
      this.assertOpen();
      return this.sql.note.get(name)?.value;
    },
    set: async (name, value) => {
      this.assertOpen();
      this.sql.setNote.run(name, value);
    },
  };

  async submit(job: Job): Promise<boolean> {
    this.assertOpen();
    const payload = JSON.stringify(job.payload) ?? "null";
    const accepted = this.db.transaction(() => {
      if (this.sql.remember.run(job.id, Date.now()).changes === 0) return false;
      // The id may outlive its dedupe window while still queued: the UNIQUE id refuses it then.
      return this.sql.insert.run(job.id, job.key, payload).changes > 0;
    })();
    if (accepted) this.pump();
    return accepted;
  }

  process(handler: JobHandler, options: ProcessOptions): void {
    this.assertOpen();
    if (this.processing) throw new Error("This job queue is already processing jobs.");
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new Error(`concurrency must be a whole number of at least 1 (got ${options.concurrency}).`);
    }
    const policy = retryPolicy(options.retry);
    const lock = lockProcessing(this.options.dataDir);
    // Whatever was running when the last processor died runs again (at-least-once).
    this.sql.requeueRunning.run();
    this.processing = {
      handler,
      options,
      policy,
      lock,
      poll: setInterval(() => this.pump(), this.options.pollMs ?? 1_000),
      prune: setInterval(() => this.prune(), HOUR_MS).unref(),
    };
    // Dead letters whose callback the last processor did not see through.
    for (const row of this.sql.unnotified.all()) {
      const run = new SqliteRun(row.key, row.seq);
      const error = new Error(row.last_error ?? "unknown error");
      this.runs.track(run, this.notifyDeadLetter(run, jobOf(row), error, row.attempt));
    }
    this.pump();
  }

  async idle(): Promise<void> {
    await until(() => this.closed || (this.runs.size === 0 && this.sql.unfinished.get()!.n === 0));
  }

  async unreadyReason(): Promise<string | undefined> {
    if (this.closing) return "the job queue is closed";
    try {
      this.sql.probe.get();
      return undefined;
    } catch (error) {
      return `the job database (SQLite in ${this.options.dataDir}) does not answer: ${errorMessage(error)}`;
    }
  }

  async close(graceMs = this.options.graceMs ?? 10_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const processing = this.processing;
    if (processing) {
      clearInterval(processing.poll);
      clearInterval(processing.prune);
      clearTimeout(processing.wake);
    }
    for (const run of await this.runs.drain(graceMs)) {
      run.handedBack = true;
      run.controller.abort(new Error("The job queue is closing: this job was handed back."));
      // A handed-back run does not count as an attempt.
      this.sql.handBack.run(run.seq);
    }
    this.closed = true;
    processing?.lock.close();
    this.db.close();
  }

  /** Starts every due key head that fits in the free slots. */
  private pump(): void {
    const processing = this.processing;
    if (!processing || this.closing) return;
    clearTimeout(processing.wake);
    const busy = this.runs.busyKeys();
    let free = processing.options.concurrency - this.runs.size;
    if (free <= 0) return;
    const now = Date.now();
    for (const row of this.sql.heads.all(now, free + busy.size)) {
      if (busy.has(row.key)) continue;
      busy.add(row.key);
      this.start(row, processing);
      if (--free === 0) return;
    }
    const due = this.sql.nextDue.get(now)?.at;
    if (due != null) processing.wake = setTimeout(() => this.pump(), due - now);
  }

  private start(row: JobRow, processing: Processing): void {
    const run = new SqliteRun(row.key, row.seq);
    const job = jobOf(row);
    if (row.attempt >= processing.policy.maxAttempts) {
      // Its last attempt died with the process: give it up rather than crash-loop.
      this.sql.bury.run(errorMessage(lostRunsError(row.attempt)), Date.now(), row.seq);
      this.runs.track(run, this.notifyDeadLetter(run, job, lostRunsError(row.attempt), row.attempt));
      return;
    }
    this.sql.take.run(row.seq);
    const jobRun: JobRun = {
      attempt: row.attempt + 1,
      rerun: row.attempt > 0 || row.last_error !== null,
      signal: run.controller.signal,
    };
    this.runs.track(run, this.carryOut(run, job, jobRun, processing));
  }

  private async carryOut(run: SqliteRun, job: Job, jobRun: JobRun, processing: Processing): Promise<void> {
    const outcome = await attempt(processing.handler, job, jobRun, processing.policy);
    if (run.handedBack) return;
    try {
      await this.record(run, job, outcome, jobRun.attempt);
    } catch (recordError) {
      this.reportError(`Could not record the outcome of job ${job.id}; it runs again on restart.`, recordError);
    }
  }

  private async record(run: SqliteRun, job: Job, outcome: Outcome, attempt: number): Promise<void> {
    switch (outcome.kind) {
      case "done":
        this.sql.finish.run(run.seq);
        return;
      case "retry":
        this.sql.retry.run(Date.now() + outcome.delayMs, errorMessage(outcome.error), run.seq);
        this.processing?.options.onRetry?.(job, outcome.error, attempt, outcome.delayMs);
        return;
      case "dead":
        this.sql.bury.run(errorMessage(outcome.error), Date.now(), run.seq);
        await this.notifyDeadLetter(run, job, outcome.error, attempt);
    }
  }

  /** Runs in the key's slot, so the key's next job waits for the dead-letter reply. */
  private async notifyDeadLetter(run: SqliteRun, job: Job, error: unknown, attempts: number): Promise<void> {
    try {
      await this.processing?.options.onDeadLetter?.(job, error, attempts);
    } catch (callbackError) {
      this.reportError(`The dead-letter callback failed for job ${job.id}.`, callbackError);
    }
    if (!run.handedBack) this.sql.notified.run(run.seq);
  }

  private prune(): void {
    if (this.closed) return;
    const cutoff = Date.now() - (this.options.dedupeTtlMs ?? 7 * DAY_MS);
    this.sql.pruneSeen.run(cutoff);
    this.sql.pruneDead.run(cutoff);
  }

  private assertOpen(): void {
    if (this.closing) throw new Error("The job queue is closed.");
  }

  private reportError(message: string, error: unknown): void {
    (this.options.onError ?? defaultOnError)(message, error);
  }
}

function jobOf(row: JobRow): Job {
  return { id: row.id, key: row.key, payload: JSON.parse(row.payload) as unknown };
}

function defaultOnError(message: string, error: unknown): void {
  console.error(message, error);
}

/** The data directory's jobs are another live process's: a start-up refusal, said in one line. */
export class DataDirHeld extends Error {
  override name = "DataDirHeld";
}

/**
 * An exclusive lock held by an open SQLite transaction: the OS drops it with the process, so a
 * crash never leaves a stale lock behind (unlike a lock file).
 */
function lockProcessing(dataDir: string): Database.Database {
  const lock = new Database(path.join(dataDir, "processor.lock"), { timeout: 0 });
  try {
    lock.exec("BEGIN EXCLUSIVE");
    return lock;
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
    throw new DataDirHeld(
      `Another process is already carrying out the jobs in ${dataDir}. The embedded queue has one ` +
        "worker process; set REDIS_URL to run several.",
      { cause: error },
    );
  }
}
