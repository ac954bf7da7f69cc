/**
 * The HTTP front: parses requests, runs hooks and faults, authenticates, dispatches to the
 * router, writes GitHub-style responses and records everything in the request log.
 *
 * REST lives under `/api/v3` (GitHub Enterprise layout, what Probot uses with GHE_HOST);
 * emulator-only endpoints (archive downloads, raw files) live under `/_emulator/`; git's smart
 * HTTP protocol at `/<owner>/<repo>.git/...` (git-http.ts), logged with `git` set.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthError, type AppAuth } from "./auth.js";
import { gitPathOf, type GitHttp } from "./git-http.js";
import { errorBody, HttpError, type ApiRequest, type ApiResponse, type Router } from "./router.js";
import { SECONDARY_RATE_LIMIT_MESSAGE, type FaultSpec, type Traffic } from "./traffic.js";

export const API_PREFIX = "/api/v3";
const RATE_LIMIT_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits";

export class EmulatorServer {
  private server: Server | undefined;
  private port = 0;
  private requestCounter = 0;

  constructor(
    private readonly router: Router,
    private readonly traffic: Traffic,
    private readonly auth: AppAuth,
    private readonly git?: GitHttp,
  ) {}

  get origin(): string {
    if (!this.server) throw new Error("emulator not started");
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://emulator");
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      path = url.pathname;
    }
    if (path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX) path = path.slice(API_PREFIX.length) || "/";
    const query = Object.fromEntries(url.searchParams);
    const rawBody = await readBody(req);
    if (this.git && gitPathOf(path)) {
      await this.handleGit(this.git, { method, path, query, search: url.search.slice(1), rawBody, started }, req, res);
      return;
    }

    let body: unknown;
    let response: ApiResponse | undefined;
    let operation: string | undefined;
    let fault = false;
    try {
      body = rawBody.length ? JSON.parse(rawBody.toString("utf8")) : undefined;
    } catch {
      body = rawBody.toString("utf8");
      response = jsonError(new HttpError(400, "Problems parsing JSON"));
    }

    const matched = this.router.match(method, path);
    if (matched) operation = matched.route.template.startsWith("/_") ? undefined : `${method} ${matched.route.openapiPath}`;

    if (!response) {
      try {
        await this.traffic.runHooks({ method, path, query, body });
        const faultSpec = this.traffic.takeFault(method, path);
        if (faultSpec?.delayMs) await new Promise((r) => setTimeout(r, faultSpec.delayMs));
        const failing = faultSpec && (faultSpec.status !== undefined || faultSpec.secondaryRateLimit) ? faultSpec : undefined;
        if (failing && failing.when !== "after") {
          response = faultResponse(failing);
          fault = true;
        } else if (!matched) {
          response = jsonError(new HttpError(404, "Not Found"));
        } else {
          const apiReq: ApiRequest = { method, path, query, headers: req.headers, body, params: matched.params };
          response = await this.dispatch(matched.route.auth, matched.route.handler, apiReq);
          // The request was carried out; its answer is lost and the caller sees the fault.
          if (failing) {
            response = faultResponse(failing);
            fault = true;
          }
        }
      } catch (err) {
        // A failing test hook: answer 500 so the failure is visible in the log and to the caller.
        response = { status: 500, body: errorBody(500, `Emulator hook failed: ${err instanceof Error ? err.message : String(err)}`) };
      }
    }

    const headers: Record<string, string> = {
      "x-github-request-id": `EMU:${++this.requestCounter}`,
      "x-github-api-version-selected": "2022-11-28",
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": "4999",
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      "x-ratelimit-used": "1",
      "x-ratelimit-resource": "core",
      ...response.headers,
    };
    let payload: Buffer | string = "";
    if (response.raw !== undefined) {
      payload = response.raw;
    } else if (response.body !== undefined) {
      payload = JSON.stringify(response.body);
      headers["content-type"] ??= "application/json; charset=utf-8";
    }
    res.writeHead(response.status, headers);
    res.end(method === "HEAD" ? undefined : payload);

    this.traffic.record({
      method,
      path,
      query,
      status: response.status,
      requestBody: body,
      responseBody: response.raw === undefined ? response.body : undefined,
      responseContentType: headers["content-type"],
      operation,
      fault,
      timestamp: new Date(started),
      durationMs: Date.now() - started,
    });
  }

  /** A git request: hooks and faults apply as to any other; the answer comes from git http-backend. */
  private async handleGit(
    git: GitHttp,
    request: { method: string; path: string; query: Record<string, string>; search: string; rawBody: Buffer; started: number },
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const { method, path, query, started } = request;
    await this.traffic.runHooks({ method, path, query, body: undefined });
    const faultSpec = this.traffic.takeFault(method, path);
    if (faultSpec?.delayMs) await new Promise((r) => setTimeout(r, faultSpec.delayMs));
    let result: { status: number; service: string | undefined; responseBytes: number };
    const fault = faultSpec !== undefined && (faultSpec.status !== undefined || faultSpec.secondaryRateLimit !== undefined);
    if (fault) {
      const response = faultResponse(faultSpec);
      const payload = JSON.stringify(response.body);
      res.writeHead(response.status, { "content-type": "application/json; charset=utf-8", ...response.headers });
      res.end(payload);
      result = { status: response.status, service: undefined, responseBytes: Buffer.byteLength(payload) };
    } else {
      result = await git.serve({ method, path, search: request.search, headers: req.headers, body: request.rawBody }, res);
    }
    this.traffic.record({
      method,
      path,
      query,
      status: result.status,
      requestBody: undefined,
      responseBody: undefined,
      responseContentType: undefined,
      operation: undefined,
      fault,
      timestamp: new Date(started),
      durationMs: Date.now() - started,
      git: { service: result.service, responseBytes: result.responseBytes },
    });
  }

  private async dispatch(
    auth: string,
    handler: (r: ApiRequest) => Promise<ApiResponse> | ApiResponse,
    req: ApiRequest,
  ): Promise<ApiResponse> {
    const authorization = headerValue(req.headers.authorization);
    try {
      if (auth === "jwt") {
        this.auth.requireJwt(authorization);
      } else if (auth === "installation") {
        const token = this.auth.tokenFor(authorization);
        if (!token) throw new HttpError(401, "Bad credentials");
        req.installationId = token.installationId;
        if (token.appId !== undefined) req.appId = token.appId;
        // GitHub's answer to any write with a read-only GITHUB_TOKEN (a pull request from a fork).
        if (token.readOnly && req.method !== "GET" && req.method !== "HEAD") {
          throw new HttpError(403, "Resource not accessible by integration");
        }
      } else if (auth === "user") {
        const token = this.auth.userTokenFor(authorization);
        if (!token) throw new HttpError(401, "Bad credentials");
        req.userLogin = token.login;
      }
      return await handler(req);
    } catch (err) {
      if (err instanceof AuthError) return jsonError(new HttpError(401, err.message));
      if (err instanceof HttpError) return jsonError(err);
      const message = err instanceof Error ? err.message : String(err);
      return { status: 500, body: errorBody(500, `Emulator error: ${message}`) };
    }
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function jsonError(err: HttpError): ApiResponse {
  return { status: err.status, body: errorBody(err.status, err.message, err.extra), headers: err.headers };
}

function faultResponse(spec: FaultSpec): ApiResponse {
  if (spec.secondaryRateLimit) {
    return {
      status: spec.status ?? 403,
      body: spec.body ?? { message: SECONDARY_RATE_LIMIT_MESSAGE, documentation_url: RATE_LIMIT_DOCS },
      headers: { "retry-after": String(spec.secondaryRateLimit.retryAfter), ...spec.headers },
    };
  }
  const status = spec.status!;
  return {
    status,
    body: spec.body ?? errorBody(status, STATUS_CODES[status] ?? "Error"),
    headers: { ...spec.headers },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
