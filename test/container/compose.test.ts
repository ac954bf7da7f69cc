/**
 * compose.yaml deploys what the README promises: the image built from this Dockerfile, a second
 * service running `resolve-bot worker` on the same Redis, and a Redis that keeps recorded jobs
 * (append-only file) and never evicts them.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  stop_grace_period?: string;
}

const compose = parse(readFileSync("compose.yaml", "utf8"), { merge: true }) as { services: Record<string, Service> };
const { app, worker, redis } = compose.services;

test("the app and a worker run the image of this Dockerfile on one Redis", () => {
  expect([app?.build, worker?.build]).toEqual([".", "."]);
  expect(app?.command).toEqual(["all"]);
  expect(worker?.command).toEqual(["worker"]);
  for (const service of [app, worker]) expect(service?.environment?.REDIS_URL).toBe("redis://redis:6379/0");
  // The worker's probes and metrics have a port of their own; the image's HEALTHCHECK uses it.
  expect(worker?.environment?.RESOLVE_BOT_WORKER_PORT).toMatch(/^\d+$/);
  // More than the shutdown grace (25 s): running commands finish before the kill.
  expect(app?.stop_grace_period).toBe("30s");
});

test("Redis keeps what was recorded: appendonly yes, noeviction, on a volume", () => {
  const args = redis?.command?.join(" ") ?? "";
  expect(args).toContain("--appendonly yes");
  expect(args).toContain("--maxmemory-policy noeviction");
  expect(redis?.volumes).toEqual(["redis-data:/data"]);
  // A current major (Redis 7 is past its end of support).
  expect(redis?.image).toBe("redis:8");
});
