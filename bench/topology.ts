/**
 * The processes a load test runs against the GitHub emulator: `embedded` is `npm start` as it
 * ships (one process, SQLite jobs); `redis` is the scale-out shape (a Redis server of its own on
 * loopback, one webhook server and two worker processes sharing it).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startBot, waitFor, type Bot } from "../test/e2e/harness.js";

export interface Topology {
  name: string;
  bot: Bot;
  stop(): Promise<void>;
}

function hasRedis(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-redis-"));
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdio: "ignore",
  });
  const url = `redis://127.0.0.1:${port}`;
  await waitFor("redis-server", async () => {
    const { createConnection } = await import("node:net");
    return new Promise<boolean | undefined>((resolve) => {
      const socket = createConnection(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(undefined));
    });
  });
  return {
    url,
    async stop() {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startTopology(requested?: string): Promise<Topology> {
  const name = requested ?? (hasRedis() ? "redis" : "embedded");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-load-"));
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  if (name === "embedded") {
    const bot = await startBot({ RESOLVE_BOT_DATA_DIR: dataDir });
    return {
      name: "embedded (1 process)",
      bot,
      async stop() {
        await bot.stop();
        cleanup();
      },
    };
  }
  if (name !== "redis") throw new Error(`unknown topology ${name}: embedded or redis`);
  const redis = await startRedis();
  const bot = await startBot({ REDIS_URL: redis.url, RESOLVE_BOT_ROLE: "server", RESOLVE_BOT_DATA_DIR: dataDir });
  const workers = [1, 2].map(() =>
    spawn(process.execPath, [path.resolve("dist/src/server.js")], {
      env: { ...bot.env, REDIS_URL: redis.url, RESOLVE_BOT_ROLE: "worker", RESOLVE_BOT_DATA_DIR: dataDir },
      stdio: ["ignore", "inherit", "inherit"],
    }),
  );
  return {
    name: "redis (1 server + 2 workers)",
    bot,
    async stop() {
      await Promise.all(workers.map(stopProcess));
      await bot.stop();
      await redis.stop();
      cleanup();
    },
  };
}
