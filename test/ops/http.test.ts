/** The operator's endpoints as a handler and as the worker role's own small server. */
import type { Server } from "node:http";
import { listenOps, opsHandler, workerOpsPort, type OpsEndpoints } from "../../src/ops/http.js";
import { Metrics } from "../../src/ops/metrics.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(endpoints: Partial<OpsEndpoints>): Promise<string> {
  const handler = opsHandler({ metrics: new Metrics("worker"), unready: async () => [], ...endpoints });
  server = await listenOps(handler, 0, "127.0.0.1");
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function get(url: string, init?: RequestInit): Promise<[number, string]> {
  const response = await fetch(url, init);
  return [response.status, await response.text()];
}

test("/readyz is 503 with every reason on its own line, 200 when there is none", async () => {
  let reasons = ["Redis is not reachable (connection reconnecting)", "no worker thread is running"];
  const base = await serve({ unready: async () => reasons });
  expect(await get(`${base}/readyz`)).toEqual([
    503,
    "not ready:\n- Redis is not reachable (connection reconnecting)\n- no worker thread is running\n",
  ]);
  reasons = [];
  expect(await get(`${base}/readyz`)).toEqual([200, "ready\n"]);
  // Liveness never asks the dependencies.
  reasons = ["down"];
  expect(await get(`${base}/healthz`)).toEqual([200, "ok\n"]);
});

test("HEAD answers the status without a body; other paths and methods are not the handler's", async () => {
  const base = await serve({ unready: async () => ["down"] });
  const head = await fetch(`${base}/readyz`, { method: "HEAD" });
  expect([head.status, await head.text()]).toEqual([503, ""]);
  expect(await get(`${base}/healthz`, { method: "POST" })).toEqual([404, "not found\n"]);
  expect(await get(`${base}/healthz/more`)).toEqual([404, "not found\n"]);
});

test("/metrics is Prometheus text labelled with the role; with a token, only for its bearer", async () => {
  const open = await serve({});
  const [status, text] = await get(`${open}/metrics`);
  expect(status).toBe(200);
  expect(text).toContain('resolve_bot_jobs_running{role="worker"} 0');
  await new Promise((resolve) => server!.close(resolve));

  const guarded = await serve({ metricsToken: "s3cret" });
  expect((await get(`${guarded}/metrics`))[0]).toBe(401);
  expect((await get(`${guarded}/metrics`, { headers: { authorization: "Bearer s3cre" } }))[0]).toBe(401);
  expect((await get(`${guarded}/metrics`, { headers: { authorization: "Bearer s3cret" } }))[0]).toBe(200);
  // The probes stay open: an orchestrator's probe carries no token.
  expect((await get(`${guarded}/readyz`))[0]).toBe(200);
});

test("RESOLVE_BOT_WORKER_PORT: unset is no server; a bad value stops the start with a clear message", () => {
  expect(workerOpsPort({})).toBeUndefined();
  expect(workerOpsPort({ RESOLVE_BOT_WORKER_PORT: " 9102 " })).toBe(9102);
  expect(() => workerOpsPort({ RESOLVE_BOT_WORKER_PORT: "http" })).toThrow('RESOLVE_BOT_WORKER_PORT must be a port number (got "http").');
});
