/**
 * The one intake every front end uses (server, Action, and any new one): a request is recorded on
 * the job queue (deduplicated by its id: a redelivery is a no-op), acknowledged through its
 * origin's channel once recorded, and carried out by the queue's worker from what was stored; one
 * the queue gives up on is answered where someone waits for an answer. Front ends differ only in
 * the queue they open (SQLite, Redis, in memory), how a request is executed (a worker pool or this
 * process) and their channels (GitHub's 👀 and replies, a terminal…).
 */
import { RetryableJobError, type Job, type JobQueue, type JobRun, type RetryPolicy } from "../jobs/job-queue.js";
import { retryPolicy } from "../jobs/outcome.js";
import { acknowledgedAtIntake, awaitsReply, requestKey, type Request } from "../pipeline/request.js";
import { requestLog } from "../pipeline/request-log.js";
import { Acknowledgements } from "./acknowledgements.js";
import { readStoredRequest } from "./stored-request.js";

/** What the intake counts (the server's metrics; another front end may count nothing). */
export interface IntakeObserver {
  queued?(): void;
  running?(delta: 1 | -1): void;
  retried?(): void;
  deadLettered?(): void;
}

/** The front end's log (pino's on the server, the workflow log in the Action). */
export interface IntakeLog {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface IntakeOptions {
  queue: JobQueue;
  log: IntakeLog;
  /** Says `message` where the request's answer goes, when the queue gives up on it. */
  giveUp: { message: string; reply(request: Request, message: string): Promise<void> };
  observe?: IntakeObserver;
}

export interface ProcessRequests {
  /** Carries out one recorded request; throws RetryableJobError to be tried again. */
  execute(request: Request, run: JobRun): Promise<unknown>;
  concurrency: number;
  retry?: Partial<RetryPolicy>;
}

/** A stored job this build cannot read: given up at once (no attempt would read it better). */
class UnreadableJob extends Error {
  override name = "UnreadableJob";
}

function storedRequest(job: Job): Request {
  const read = readStoredRequest(job.payload);
  if (!read.ok) throw new UnreadableJob(`job ${job.id} (${job.key}) cannot be carried out: ${read.problem}`);
  return read.request;
}

export class Intake {
  private readonly acknowledgements = new Acknowledgements();

  constructor(private readonly options: IntakeOptions) {}

  /**
   * Records the request; when it was new, runs `acknowledge` (the origin's channel: 👀 on GitHub)
   * for origins acknowledged at intake. Resolves once recorded (false: already recorded), before the
   * acknowledgement, which is a courtesy: its failure is only logged and the command still runs.
   */
  submit(request: Request, acknowledge: () => Promise<void>): Promise<boolean> {
    const { queue, observe, log } = this.options;
    return this.acknowledgements.intake(
      request.id,
      async () => {
        const recorded = await queue.submit({ id: request.id, key: requestKey(request), payload: request });
        if (recorded) observe?.queued?.();
        return recorded;
      },
      async () => {
        if (!acknowledgedAtIntake(request.origin)) return;
        await acknowledge().catch((error: unknown) => requestLog(log, request).warn({ err: error }, "👀 reaction failed"));
      },
    );
  }

  /** Starts the queue's worker in this process (a server-only process never calls it). */
  process(requests: ProcessRequests): void {
    const { concurrency, retry } = requests;
    const { queue, observe, log, giveUp } = this.options;
    const { maxAttempts } = retryPolicy(retry);
    queue.process(
      async (job, run) => {
        // A job the queue starts at once waits for its acknowledgement, so 👀 comes before the answer.
        await this.acknowledgements.acknowledged(job.id);
        observe?.running?.(1);
        try {
          // A later attempt may follow one cut short mid-way: it looks up what that one did.
          await requests.execute(storedRequest(job), run);
        } catch (error) {
          if (error instanceof RetryableJobError && run.attempt < maxAttempts) observe?.retried?.();
          throw error;
        } finally {
          observe?.running?.(-1);
        }
      },
      {
        concurrency,
        ...(retry ? { retry } : {}),
        // Said at warn, with the wait: a GitHub that does not answer is otherwise silent for minutes.
        onRetry: (job: Job, error: unknown, attempt: number, delayMs: number) => {
          const read = readStoredRequest(job.payload);
          const reason = error instanceof Error ? error.message : String(error);
          (read.ok ? requestLog(log, read.request) : log).warn(
            { key: job.key, attempt, delayMs },
            `resolve-bot will try the job again in ${seconds(delayMs)} (attempt ${attempt} of ${maxAttempts} failed: ${reason})`,
          );
        },
        onDeadLetter: async (job: Job, error: unknown, attempts: number) => {
          observe?.deadLettered?.();
          if (error instanceof UnreadableJob) {
            log.error({ key: job.key }, `resolve-bot dead-lettered a stored job: ${error.message}`);
            return;
          }
          const read = readStoredRequest(job.payload);
          (read.ok ? requestLog(log, read.request) : log).error({ err: error, key: job.key, attempts }, "resolve-bot gave up on a job");
          if (read.ok && awaitsReply(read.request.origin)) await giveUp.reply(read.request, giveUp.message);
        },
      },
    );
  }
}

/** A wait as people say it: "2 s", "1.5 s", "3 min". */
export function seconds(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 100) / 10} s`;
}
