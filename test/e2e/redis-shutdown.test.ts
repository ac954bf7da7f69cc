/**
 * SIGTERM when the Redis the app scales out on is already gone (a failed-over or stopped Redis):
 * the process still exits within the grace period plus a bounded close, instead of hanging on a
 * queue that can no longer close. Nothing is lost: what it held is in Redis, and its leases expire.
 */
import { startBot, type Bot } from "./harness.js";
import { RedisServer, describeWithRedis } from "../helpers/redis-server.js";
import { patient } from "../helpers/patience.js";

describeWithRedis("test/e2e/redis-shutdown.test.ts")("SIGTERM with Redis gone", () => {
  let redis: RedisServer;
  let bot: Bot;

  beforeAll(async () => {
    redis = await RedisServer.start();
    bot = await startBot({ REDIS_URL: redis.url, RESOLVE_BOT_SHUTDOWN_GRACE_MS: "1000" });
  }, patient(90_000));

  afterAll(async () => {
    if (bot?.process.exitCode === null) bot.process.kill("SIGKILL");
    await bot?.gh.stop();
  });

  test(
    "the server still exits, with code 1, and says why",
    async () => {
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exited = new Promise<number | null>((resolve) => bot.process.once("exit", (code) => resolve(code)));
      bot.process.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<"hung">((resolve) => (timer = setTimeout(resolve, patient(15_000), "hung")));
      const code = await Promise.race([exited, hung]);
      clearTimeout(timer); // a pending timer would keep jest's worker alive after the suite
      expect(code).toBe(1);
      expect(bot.output()).toContain("could not close the job queue");
    },
    patient(60_000),
  );
});
