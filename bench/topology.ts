/**
 * The processes a load test runs against the GitHub emulator: `embedded` is `npm start` as it
 * ships (one process, SQLite jobs); `redis` is the scale-out shape (a Redis server of its own on
 * loopback, one webhook server and two worker processes sharing it).
 */
import { startAppProcess, startBot, type Bot } from "../test/e2e/harness.js";
import { RedisServer, redisServerMissing } from "../test/helpers/redis-server.js";

export interface Topology {
  name: string;
  bot: Bot;
  stop(): Promise<void>;
}

export async function startTopology(requested?: string): Promise<Topology> {
  const name = requested ?? (redisServerMissing ? "embedded" : "redis");
  if (name === "embedded") {
    const bot = await startBot();
    return { name: "embedded (1 process)", bot, stop: () => bot.stop() };
  }
  if (name !== "redis") throw new Error(`unknown topology ${name}: embedded or redis`);
  if (redisServerMissing) throw new Error(redisServerMissing);
  const redis = await RedisServer.start();
  const bot = await startBot({ REDIS_URL: redis.url, RESOLVE_BOT_ROLE: "server" });
  const workers = [await startAppProcess(bot, { RESOLVE_BOT_ROLE: "worker" }), await startAppProcess(bot, { RESOLVE_BOT_ROLE: "worker" })];
  return {
    name: "redis (1 server + 2 workers)",
    bot,
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await bot.stop();
      await redis.stop();
    },
  };
}
