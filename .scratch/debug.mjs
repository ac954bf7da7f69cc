import { spawn } from "node:child_process";
import { Redis } from "ioredis";
import { RedisJobQueue } from "/work/wt/jobs/dist/src/jobs/index.js";
const port = 6399;
const srv = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
await new Promise((r) => setTimeout(r, 300));
const url = `redis://127.0.0.1:${port}`;
const opts = { url, prefix: "dbg", leaseMs: 1000, sweepMs: 100, onError: (m, e) => console.log("ERR", m, e) };
const a = new RedisJobQueue(opts);
await a.submit({ id: "c1", key: "k", payload: {} });
await a.close();
const child = spawn(process.execPath, ["/work/wt/jobs/test/jobs/fixtures/worker.mjs"], { env: { ...process.env, JOBS_QUEUE: JSON.stringify({ kind: "redis", ...opts, onError: undefined }), JOBS_MODE: "hang" }, stdio: ["ignore", "pipe", "inherit"] });
await new Promise((r) => child.stdout.on("data", (d) => { console.log("child:", String(d).trim()); if (String(d).includes("started")) r(); }));
child.kill("SIGKILL");
const r = new Redis(url);
const b = new RedisJobQueue(opts);
b.process(async (j, run) => console.log("B ran", j.id, run.attempt), { concurrency: 2 });
for (let i = 0; i < 20; i++) {
  await new Promise((res) => setTimeout(res, 250));
  console.log(i, await r.keys("*"), await r.pttl("dbg:jobs:lock:k"));
}
await b.close(0); r.disconnect(); srv.kill("SIGKILL");
