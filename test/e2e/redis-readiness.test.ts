/**
 * Readiness follows Redis, with real processes: a webhook server (GET /readyz on its own port) and
 * a `resolve-bot worker` (on RESOLVE_BOT_WORKER_PORT) answer 503 naming Redis while it is stopped,
 * stay live (/healthz 200) meanwhile, and are ready again once it is back — and then carry out a
 * command as before.
 */
import { comment, freePort, startAppProcess, startBot, waitFor, type AppProcess, type Bot } from "./harness.js";
import { parseSamples, sampleValue } from "../helpers/prometheus-text.js";
import { RedisServer, describeWithRedis } from "../helpers/redis-server.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/probed";

async function get(url: string): Promise<{ status: number; body: string } | undefined> {
  try {
    const response = await fetch(url);
    return { status: response.status, body: await response.text() };
  } catch {
    return undefined;
  }
}

describeWithRedis("test/e2e/redis-readiness.test.ts")("/readyz while Redis goes away and comes back", () => {
  let redis: RedisServer;
  let bot: Bot;
  let worker: AppProcess;
  let bases: string[];

  beforeAll(async () => {
    redis = await RedisServer.start();
    bot = await startBot({ REDIS_URL: redis.url, RESOLVE_BOT_ROLE: "server" });
    const workerPort = await freePort();
    // Quiet: while Redis is stopped its log is one connection error after another, as it should be.
    worker = await startAppProcess(bot, { RESOLVE_BOT_ROLE: "worker", RESOLVE_BOT_WORKER_PORT: String(workerPort), LOG_LEVEL: "silent" });
    bases = [bot.webhookUrl.replace(/\/api\/github\/webhooks$/, ""), `http://127.0.0.1:${workerPort}`];
    await waitFor("the worker's health port", async () => (await get(`${bases[1]}/healthz`))?.status === 200 || undefined);
    await bot.gh.createRepo("acme", "probed", { "src/a.ts": 'console.log("a");\n' });
    bot.gh.setPermission(REPO, "alice", "write");
  }, patient(90_000));

  afterAll(async () => {
    await worker?.stop();
    await bot?.stop();
    await redis?.stop();
  });

  const readiness = async () => Promise.all(bases.map(async (base) => (await get(`${base}/readyz`))?.status));

  test(
    "503 naming Redis while it is stopped, 200 again once it is back",
    async () => {
      expect(await readiness()).toEqual([200, 200]);

      await redis.stop();
      await waitFor("both processes to say they are not ready", async () =>
        (await readiness()).every((status) => status === 503) ? true : undefined,
      );
      for (const base of bases) {
        const ready = await get(`${base}/readyz`);
        expect(ready?.status).toBe(503);
        expect(ready?.body).toMatch(/^not ready:\n- Redis is not reachable \(connection \w+\)\n/);
        // Liveness is the process, not its dependencies: an orchestrator must not restart it for Redis.
        expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: "ok\n" });
      }

      await redis.restart();
      await waitFor("both processes to be ready again", async () =>
        (await readiness()).every((status) => status === 200) ? true : undefined,
      );

      // Ready means it: a command sent now is carried out by the worker.
      const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.txt": "n\n" } }] });
      const preview = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
      expect(preview.done).toBe("rocket");
      expect(preview.reply).toContain("AST Edit: 1 replacement in 1 file");
    },
    patient(120_000),
  );

  test("the worker's port serves its own metrics, labelled role=worker", async () => {
    const response = await fetch(`${bases[1]}/metrics`);
    expect(response.status).toBe(200);
    const samples = parseSamples(await response.text());
    expect(
      sampleValue(samples, "resolve_bot_command_duration_seconds_count", { tool: "ast_edit", outcome: "previewed", role: "worker" }),
    ).toBe(1);
    expect(sampleValue(samples, "resolve_bot_worker_threads", { role: "worker" })).toBeGreaterThanOrEqual(1);
    // Every GitHub route is a template (a paginated list's next page too): no repository name in a label.
    const routes = samples.filter((sample) => sample.name === "resolve_bot_github_requests_total").map((sample) => sample.labels.route);
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((route) => route!.includes("probed"))).toEqual([]);
    expect(await get(`${bases[1]}/nothing-here`)).toEqual({ status: 404, body: "not found\n" });
  });
});
