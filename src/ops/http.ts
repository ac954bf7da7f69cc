/**
 * The operator's endpoints, on the webhook server (a Probot handler) and, for `resolve-bot worker`,
 * on a port of their own (RESOLVE_BOT_WORKER_PORT):
 * - GET /healthz — liveness: the process serves HTTP. 200 `ok`.
 * - GET /readyz — readiness: the job queue (SQLite or Redis) answers and, where this process runs
 *   jobs, the worker pool has threads. 200 `ready`, or 503 with each reason on a line.
 * - GET / (webhook server only) — one line saying what this is, linking the endpoints,
 *   so whoever opens the App's URL in a browser sees a running resolve-bot, not an empty 404.
 * - GET /metrics — Prometheus text (ops/metrics.ts). With RESOLVE_BOT_METRICS_TOKEN set, only with
 *   `Authorization: Bearer <token>` (401 otherwise); open by default, like most exporters.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { Metrics } from "./metrics.js";

export interface OpsEndpoints {
  /** Why this process is not ready; empty when it is. */
  unready(): Promise<string[]>;
  metrics: Metrics;
  /** RESOLVE_BOT_METRICS_TOKEN: /metrics asks for it as a bearer token. */
  metricsToken?: string | undefined;
  /** GET / answers with the front page (the webhook server; a worker's port has no such page). */
  frontPage?: boolean;
}

export const FRONT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>resolve-bot</title>' +
  "<p>resolve-bot is running: a GitHub App that edits pull requests by comment (preview, then <code>/resolve apply</code>). " +
  `Webhooks: <code>POST /api/github/webhooks</code> · <a href="/healthz">/healthz</a> · <a href="/readyz">/readyz</a> · <a href="/metrics">/metrics</a>. Documentation: the <code>docs/</code> folder of resolve-bot's source.</p>\n`;

/** A request handler in Probot's style: true when it answered, false to let the next one try. */
export type OpsHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export function opsHandler(endpoints: OpsEndpoints): OpsHandler {
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const path = req.url?.split("?")[0];
    if (path === "/" && endpoints.frontPage) {
      answer(res, 200, FRONT_PAGE, "text/html; charset=utf-8");
      return true;
    }
    if (path === "/healthz") {
      answer(res, 200, "ok\n");
      return true;
    }
    if (path === "/readyz") {
      const reasons = await endpoints.unready();
      answer(
        res,
        reasons.length === 0 ? 200 : 503,
        reasons.length === 0 ? "ready\n" : `not ready:\n${reasons.map((reason) => `- ${reason}\n`).join("")}`,
      );
      return true;
    }
    if (path === "/metrics") {
      if (endpoints.metricsToken && !bearerMatches(req.headers.authorization, endpoints.metricsToken)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
        answer(res, 401, "/metrics needs Authorization: Bearer <RESOLVE_BOT_METRICS_TOKEN>\n");
        return true;
      }
      const registry = endpoints.metrics.registry;
      answer(res, 200, await registry.metrics(), registry.contentType);
      return true;
    }
    return false;
  };
}

function answer(res: ServerResponse, status: number, body: string, contentType = "text/plain; charset=utf-8"): void {
  res.writeHead(status, { "Content-Type": contentType, "Cache-Control": "no-store" });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The worker role's small server: the same endpoints, 404 for anything else. */
export async function listenOps(handler: OpsHandler, port: number, host: string | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    handler(req, res).then(
      (answered) => {
        if (!answered) answer(res, 404, "not found\n");
      },
      () => answer(res, 500, "error\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** RESOLVE_BOT_WORKER_PORT: where `resolve-bot worker` serves /healthz, /readyz and /metrics (none when unset). */
export function workerOpsPort(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.RESOLVE_BOT_WORKER_PORT?.trim();
  if (!text) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`RESOLVE_BOT_WORKER_PORT must be a port number (got "${text}").`);
  return port;
}
