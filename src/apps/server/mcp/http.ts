/**
 * MCP's Streamable HTTP transport on the server, as a Probot handler: `/mcp` (every repository the
 * app is installed on) and `/mcp/<owner>/<repo>` (one repository: its `agents.may_resolve` decides
 * whether `resolve` is listed, since `tools/list` has no arguments to name a repository by), plus
 * the protected resource metadata of each (RFC 9728) under `/.well-known/oauth-protected-resource`.
 *
 * Every MCP request carries a person's GitHub token (auth.ts). Sessions are the SDK's (stateful:
 * the agent's name comes from its `initialize`), held in memory, bound to the person who opened
 * them, and dropped after an idle while; a client whose session is gone gets 404 and initializes
 * again, as the transport spec says.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RepoRef } from "../../../forges/github/types.js";
import { bearerToken, challenge, resourceMetadata, VerificationUnavailable, type Person, type TokenVerifier } from "./auth.js";

/** What a session serves: the person (the token's user) and, on `/mcp/<owner>/<repo>`, the repository (the agent names itself at initialize). */
export interface SessionScope {
  person: Person;
  repository?: RepoRef;
}

export interface McpHttpOptions {
  verifier: TokenVerifier;
  /** GitHub's web address (the OAuth authorization server is `<webUrl>/login/oauth`). */
  githubWebUrl: string;
  /** A fresh MCP server for one session. */
  open(scope: SessionScope): Server;
  /** A session unused this long is closed. */
  idleMs?: number;
  log: { warn(details: Record<string, unknown>, message: string): void };
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  login: string;
  resource: string;
  lastUsed: number;
}

const PATH = /^\/mcp(?:\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+))?\/?$/;
const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** The address the client used (behind a proxy: its Host and X-Forwarded-Proto). */
function resourceOf(req: IncomingMessage, path: string): URL {
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]!
    .trim();
  const protocol = forwarded === "https" || forwarded === "http" ? forwarded : "encrypted" in req.socket ? "https" : "http";
  return new URL(path, `${protocol}://${req.headers.host ?? "localhost"}`);
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
  return true;
}

/** A JSON-RPC error outside any request (the transport spec's answers carry one). */
function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): true {
  return json(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null }, headers);
}

export function mcpHttpHandler(options: McpHttpOptions) {
  const sessions = new Map<string, Session>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) if (now - session.lastUsed > idleMs) void close(id, session);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  async function close(id: string, session: Session): Promise<void> {
    sessions.delete(id);
    await session.transport.close().catch(() => undefined);
  }

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && (path === METADATA_PREFIX + "/mcp" || path.startsWith(METADATA_PREFIX + "/mcp/"))) {
      const resourcePath = path.slice(METADATA_PREFIX.length);
      if (!PATH.test(resourcePath)) return false;
      return json(res, 200, resourceMetadata(resourceOf(req, resourcePath), options.githubWebUrl));
    }
    const match = PATH.exec(path);
    if (!match) return false;
    const resource = resourceOf(req, path.replace(/\/$/, ""));
    const token = bearerToken(req.headers.authorization);
    let person: Person | undefined;
    try {
      person = token === undefined ? undefined : await options.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof VerificationUnavailable)) throw error;
      options.log.warn({ err: error }, "resolve-bot could not verify an MCP client's token");
      return rpcError(res, 503, "GitHub could not verify the token just now; try again shortly.", { "retry-after": "5" });
    }
    if (!person) {
      return rpcError(res, 401, "A GitHub token is needed: Authorization: Bearer <token>.", {
        "www-authenticate": challenge(resource, token !== undefined),
      });
    }

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      // Another person's session is answered as no session at all.
      if (!session || session.login !== person.login || session.resource !== resource.href) {
        return rpcError(res, 404, "Session not found: initialize a new one.");
      }
      session.lastUsed = Date.now();
      await session.transport.handleRequest(req, res);
      return true;
    }
    if (req.method !== "POST") return rpcError(res, 400, "No session: a client starts with an initialize request (POST).");

    const repository = match[1] && match[2] ? { owner: match[1], repo: match[2] } : undefined;
    const server = options.open({ person, ...(repository ? { repository } : {}) });
    const login = person.login;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, login, resource: resource.href, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Not an initialize after all (the transport answered 400): nothing to keep.
    if (transport.sessionId === undefined) await server.close();
    return true;
  };
  return Object.assign(handler, {
    /** Closes every session (shutdown). */
    async closeAll(): Promise<void> {
      clearInterval(sweep);
      await Promise.all([...sessions].map(([id, session]) => close(id, session)));
    },
  });
}
