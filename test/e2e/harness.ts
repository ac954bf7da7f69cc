/**
 * End-to-end harness: the GitHub emulator plus the real resolve-bot server (dist/src/apps/server/main.js,
 * a separate process) pointed at it through GHE_HOST, receiving signed webhooks over HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GitHubEmulator, type WebhookEvent } from "./emulator/index.js";
import { openJobQueue } from "../../src/jobs/index.js";
import { patient } from "../helpers/patience.js";

/** What the emulator signs webhooks with (probotEnv) and the bot checks them against. */
export const SECRET = "e2e-webhook-secret";
const SERVER = path.resolve("dist/src/apps/server/main.js");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = patient(45_000),
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves when the bot's job queue (its SQLite database, or its Redis) holds no job queued, waiting
 * for a retry or running: whatever it was asked has been carried out, and nothing more will happen.
 * This is what a test waits for before it checks that something (a duplicate) did NOT happen.
 */
export async function settled(bot: Bot, timeoutMs = patient(45_000)): Promise<void> {
  const queue = openJobQueue(bot.env);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.idle(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error("timed out waiting for the bot's jobs to finish")), timeoutMs)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
    await queue.close();
  }
}

export interface Bot {
  gh: GitHubEmulator;
  webhookUrl: string;
  /** The server process (signals, exit code). */
  process: ChildProcess;
  /** The environment the server was started with (for more processes of the same app). */
  env: Record<string, string>;
  output(): string;
  /** Starts the server again (same environment, same emulator) after its process exited or was killed. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

async function spawnServer(
  node: string,
  env: Record<string, string>,
  base: string,
  onOutput: (chunk: string) => void,
): Promise<ChildProcess> {
  let output = "";
  const child: ChildProcess = spawn(node, [SERVER], { env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on("data", (chunk: Buffer) => {
      output += String(chunk);
      onOutput(String(chunk));
    });
  }
  try {
    await waitFor(
      `the bot server at ${base}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the bot server exited: ${output}`);
        return fetch(`${base}/ping`).then(
          (response) => response.ok || undefined,
          () => undefined,
        );
      },
      patient(30_000),
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return child;
}

/** `node`: the Node.js binary that runs the server (default: the one running the tests). */
export async function startBot(extraEnv: Record<string, string> = {}, node = process.execPath): Promise<Bot> {
  const gh = await GitHubEmulator.start();
  const port = await freePort();
  let output = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-e2e-data-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    ...gh.probotEnv(SECRET),
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    NODE_ENV: "test",
    RESOLVE_BOT_THROTTLE: "off",
    // No early "Working on …" status unless a test asks for one: on a loaded machine any command
    // may pass the default threshold, and replies asserted exactly would gain a duration.
    RESOLVE_BOT_STATUS_AFTER_SECONDS: "off",
    // No sweep of the deliveries unless a test asks for one: tests that send refused or unreachable
    // webhooks on purpose (bad signatures, a stopped server) must not see them recovered later.
    RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: "off",
    // Each bot its own job database (a restart() keeps it: that is what makes jobs survive).
    RESOLVE_BOT_DATA_DIR: dataDir,
    ...extraEnv,
  };
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  try {
    child = await spawnServer(node, env, base, (chunk) => (output += chunk));
  } catch (error) {
    // A server that never came up must not leave the emulator listening (jest would never exit).
    await gh.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    gh,
    webhookUrl: `${base}/api/github/webhooks`,
    get process() {
      return child;
    },
    env,
    output: () => output,
    async restart(more = {}) {
      if (child.exitCode === null && child.signalCode === null) throw new Error("restart() needs the server to have exited");
      child = await spawnServer(node, { ...env, ...more }, base, (chunk) => (output += chunk));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      await gh.stop();
      // The job database and the repository cache (hundreds of MB after the big-repository suite).
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AppProcess {
  process: ChildProcess;
  /** The webhook URL of a server process; undefined for a worker. */
  webhookUrl?: string;
  stop(): Promise<void>;
}

/**
 * One more process of the same app against the same emulator: a webhook server on a port of its
 * own, or (RESOLVE_BOT_ROLE=worker) a worker that listens on none.
 */
export async function startAppProcess(bot: Bot, extraEnv: Record<string, string>): Promise<AppProcess> {
  const worker = extraEnv.RESOLVE_BOT_ROLE === "worker";
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...bot.env, PORT: String(port), ...extraEnv };
  const child = worker
    ? spawn(process.execPath, [SERVER], { env, stdio: ["ignore", "inherit", "inherit"] })
    : await spawnServer(process.execPath, env, base, () => undefined);
  return {
    process: child,
    ...(worker ? {} : { webhookUrl: `${base}/api/github/webhooks` }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** Sends a signed webhook to the bot (or to `to`, another server process of it). */
export async function deliver(bot: Bot, event: WebhookEvent, deliveryId?: string, to = bot.webhookUrl): Promise<number> {
  const result = await bot.gh.deliver(to, event, { secret: SECRET, deliveryId });
  return result.status;
}

/** Posts a PR comment as `user` and waits (up to `timeoutMs`) until the bot has finished with it (🚀 or 😕). */
export async function comment(
  bot: Bot,
  repo: string,
  number: number,
  user: string,
  body: string,
  timeoutMs?: number,
): Promise<{ commentId: number; done: string; reply: string }> {
  const event = bot.gh.webhooks.issueComment({ repo, number, body, user });
  const before = bot.gh.comments(repo, number).length;
  expectStatus(await deliver(bot, event));
  const done = await waitFor(
    `the bot to finish with comment ${event.commentId}`,
    () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused")?.content,
    timeoutMs,
  );
  return { commentId: event.commentId, done, reply: latestReply(bot, repo, number, before) };
}

/**
 * Posts a review comment on lines of a PR's diff (or a reply in a thread) as `user` and waits until
 * the bot has finished with it (🚀 or 😕 on the review comment); `reply` is the bot's newest reply
 * in that thread, without its marker.
 */
export async function lineComment(
  bot: Bot,
  opts: { repo: string; number: number; user: string; body: string; path?: string; line?: number; startLine?: number } & {
    side?: "LEFT" | "RIGHT";
    inReplyTo?: number;
    outdated?: boolean;
  },
): Promise<{ commentId: number; done: string; reply: string }> {
  const event = await bot.gh.webhooks.reviewComment(opts);
  expectStatus(await deliver(bot, event));
  const done = await waitFor(
    `the bot to finish with review comment ${event.commentId}`,
    () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused")?.content,
  );
  const thread = opts.inReplyTo ?? event.commentId;
  const replies = bot.gh.lineComments(opts.repo, opts.number).filter((c) => c.inReplyTo === thread && c.user === bot.gh.botLogin);
  return { commentId: event.commentId, done, reply: withoutMarker(replies.at(-1)?.body ?? "") };
}

/** The bot's newest comment on a PR posted after `afterCount` comments existed. */
export function latestReply(bot: Bot, repo: string, number: number, afterCount = 0): string {
  const replies = bot.gh
    .comments(repo, number)
    .slice(afterCount)
    .filter((entry) => entry.user === bot.gh.botLogin);
  return withoutMarker(replies.at(-1)?.body ?? "");
}

/** A reply as people read it: without the hidden markers that name its request and the commands it ran (forges/github/replies/render.ts). */
export function withoutMarker(body: string): string {
  return body.replace(/\n\n<!-- resolve-bot:request:\S+ -->(\n<!-- resolve-bot:ran:\S+ -->)?$/, "");
}

function expectStatus(status: number): void {
  if (status < 200 || status >= 300) throw new Error(`webhook delivery answered ${status}`);
}

/** Check runs of the app on a commit, by name. */
export function runsOn(bot: Bot, repo: string, sha: string) {
  return bot.gh.checkRuns(repo, { headSha: sha });
}

/**
 * One bot and emulator per test file: started before the tests (then `setup` creates repos and
 * permissions), stopped after them; after each test every response the bot got must match
 * GitHub's OpenAPI description.
 */
export function useBot(setup: (bot: Bot) => Promise<void>, env: Record<string, string> = {}): void {
  let bot: Bot | undefined;
  beforeAll(async () => {
    bot = await startBot(env);
    await setup(bot);
  }, patient(60_000));
  afterAll(async () => {
    await bot?.stop();
  });
  afterEach(() => {
    expect(bot!.gh.validateLog()).toEqual([]);
    bot!.gh.clearLog();
  });
}
