/**
 * A throwaway redis-server on a free loopback port, for tests. Where the binary is missing, tests
 * outside CI are skipped with one line saying why; in CI (CI=true) they fail instead (./machine.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { checkNeeds, debianCommand, missingLine, missingNeeds } from "./machine.js";

const redisServer = debianCommand("redis-server");

/** Why the Redis queue cannot run here (for `npm run bench`), or undefined. */
export const redisServerMissing = missingNeeds([redisServer]).length > 0 ? missingLine([redisServer]) : undefined;

/** `describe` when Redis tests can run, else (outside CI) `describe.skip` after saying so once. */
export function describeWithRedis(what: string): jest.Describe {
  return checkNeeds(what, [redisServer]).length === 0 ? describe : describe.skip;
}

export class RedisServer {
  private constructor(
    readonly url: string,
    private readonly port: number,
    private child: ChildProcess,
  ) {}

  static async start(): Promise<RedisServer> {
    const port = await freePort();
    return new RedisServer(`redis://127.0.0.1:${port}`, port, await launch(port));
  }

  /** Starts it again on the same port after stop() (empty: the tests' Redis persists nothing). */
  async restart(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) throw new Error("restart() needs the Redis server to be stopped");
    this.child = await launch(this.port);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.on("exit", resolve));
    this.child.kill("SIGKILL");
    await exited;
  }
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused until redis-server listens: connect() rejects then, and without a listener ioredis
    // would also print "[ioredis] Unhandled error event" (once per `npm run loadtest -- --redis`).
    probe.on("error", () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return child;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill("SIGKILL");
        throw new Error(`redis-server did not start on port ${port}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
