/**
 * Git's smart HTTP protocol, served by git's own CGI program `git http-backend` (a real git
 * server, not a hand-written protocol): `GET /<owner>/<repo>.git/info/refs?service=git-upload-pack`
 * and `POST /<owner>/<repo>.git/git-upload-pack`, as GitHub serves them at
 * `https://<host>/<owner>/<repo>.git`. Authentication is GitHub's for apps: Basic
 * `x-access-token:<installation token>`, checked against the tokens the emulator issued.
 *
 * Like GitHub, any commit of the repository may be fetched by its SHA (`git fetch origin <sha>`):
 * upload-pack runs with uploadpack.allowAnySHA1InWant. Only fetching is served; pushes go through
 * the REST API (resolve-bot never pushes over git).
 */
import { spawn } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { AppAuth } from "./auth.js";

export interface GitHttpRequest {
  method: string;
  /** `/<owner>/<repo>.git/<rest>`, decoded. */
  path: string;
  /** The raw query string, without `?`. */
  search: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export interface GitHttpResult {
  status: number;
  /** The git service asked for (`git-upload-pack`), when the request named one. */
  service: string | undefined;
  /** Bytes of the response body (a pack's size, for a fetch). */
  responseBytes: number;
}

/** `/<owner>/<repo>.git/<rest>`; undefined for any other path. */
export function gitPathOf(pathname: string): { owner: string; name: string; rest: string } | undefined {
  const match = /^\/([^/]+)\/([^/]+)\.git(\/.*)$/.exec(pathname);
  return match ? { owner: match[1]!, name: match[2]!, rest: match[3]! } : undefined;
}

/** What the served paths may be: the smart protocol's two upload-pack endpoints. */
function serviceOf(method: string, rest: string, search: string): string | undefined {
  if (method === "GET" && rest === "/info/refs") return new URLSearchParams(search).get("service") ?? undefined;
  if (method === "POST" && rest === "/git-upload-pack") return "git-upload-pack";
  return undefined;
}

export class GitHttp {
  constructor(
    private readonly auth: AppAuth,
    /** The bare repository of `<owner>/<name>`, when there is one. */
    private readonly gitDirOf: (owner: string, name: string) => string | undefined,
  ) {}

  /** Answers a request whose path gitPathOf accepted. */
  async serve(req: GitHttpRequest, res: ServerResponse): Promise<GitHttpResult> {
    const target = gitPathOf(req.path)!;
    const service = serviceOf(req.method, target.rest, req.search);
    const plain = (status: number, text: string, headers: Record<string, string> = {}): GitHttpResult => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
      res.end(text);
      return { status, service, responseBytes: Buffer.byteLength(text) };
    };
    if (!this.authorised(req.headers.authorization)) {
      return plain(401, "Invalid username or token. Password authentication is not supported for Git operations.\n", {
        "www-authenticate": 'Basic realm="GitHub"',
      });
    }
    const gitDir = this.gitDirOf(target.owner, target.name);
    if (gitDir === undefined) return plain(404, "Repository not found.\n");
    if (service !== "git-upload-pack") return plain(403, "Only fetching is served here.\n");
    return this.runBackend(req, res, gitDir, `${target.rest}`, service);
  }

  private authorised(authorization: string | undefined): boolean {
    const match = /^basic\s+(\S+)$/i.exec(authorization ?? "");
    if (!match) return false;
    const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0 || decoded.slice(0, colon) !== "x-access-token") return false;
    return this.auth.tokenFor(`token ${decoded.slice(colon + 1)}`) !== undefined;
  }

  /** The CGI: request body in, `Status:` and headers then the body out, streamed to the client. */
  private runBackend(req: GitHttpRequest, res: ServerResponse, gitDir: string, rest: string, service: string): Promise<GitHttpResult> {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : (value ?? "");
    };
    const child = spawn("git", ["http-backend"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: path.dirname(gitDir),
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_PROJECT_ROOT: path.dirname(gitDir),
        GIT_HTTP_EXPORT_ALL: "1",
        // GitHub lets a client fetch any commit by its SHA; so does this server.
        GIT_CONFIG_COUNT: "2",
        GIT_CONFIG_KEY_0: "uploadpack.allowAnySHA1InWant",
        GIT_CONFIG_VALUE_0: "true",
        GIT_CONFIG_KEY_1: "uploadpack.allowFilter",
        GIT_CONFIG_VALUE_1: "true",
        REQUEST_METHOD: req.method,
        PATH_INFO: `/${path.basename(gitDir)}${rest}`,
        QUERY_STRING: req.search,
        CONTENT_TYPE: header("content-type"),
        CONTENT_LENGTH: String(req.body.byteLength),
        HTTP_CONTENT_ENCODING: header("content-encoding"),
        GIT_PROTOCOL: header("git-protocol"),
        REMOTE_USER: "x-access-token",
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(req.body);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    return new Promise((resolve, reject) => {
      let head = Buffer.alloc(0);
      let status = 200;
      let bytes = 0;
      let started = false;
      child.stdout.on("data", (chunk: Buffer) => {
        if (started) {
          bytes += chunk.byteLength;
          res.write(chunk);
          return;
        }
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        const headers: Record<string, string> = {};
        for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
          const colon = line.indexOf(":");
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim();
          if (name === "status") status = Number.parseInt(value, 10);
          else headers[name] = value;
        }
        res.writeHead(status, headers);
        started = true;
        const body = head.subarray(end + 4);
        bytes += body.byteLength;
        res.write(body);
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (!started) {
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
          res.end(`git http-backend failed (${code}): ${stderr}`);
          resolve({ status: 500, service, responseBytes: 0 });
          return;
        }
        res.end();
        resolve({ status, service, responseBytes: bytes });
      });
    });
  }
}
