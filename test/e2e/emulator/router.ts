/**
 * Routing primitives: OpenAPI-style route templates, test-facing path patterns, and the
 * request/response types the handlers work with.
 *
 * Route templates are GitHub's OpenAPI paths (`/repos/{owner}/{repo}/pulls/{pull_number}`); a
 * parameter written `{ref+}` may span slashes (branch names, file paths). The template with the
 * `+` removed is the key into the OpenAPI description, so every logged response knows its
 * operation.
 */

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Who may call a route: the app itself (JWT), an installation token, a user's token, or anyone. */
export type AuthKind = "jwt" | "installation" | "user" | "none";

export interface ApiRequest {
  method: string;
  /** Decoded path without the `/api/v3` prefix, e.g. `/repos/o/r/git/ref/heads/main`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  params: Record<string, string>;
  /** Installation id of the token that authenticated the request (installation routes only). */
  installationId?: number;
  /** The app the token acts as (installation routes only; absent: the app under test). */
  appId?: number;
  /** The login a user token acts as (user routes only). */
  userLogin?: string;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  /** Raw payloads (tarballs, raw file content) bypass JSON encoding. */
  raw?: Buffer | string;
  headers?: Record<string, string>;
}

export type Handler = (req: ApiRequest) => Promise<ApiResponse> | ApiResponse;

export interface Route {
  method: Method;
  /** OpenAPI path template as registered (may contain `{x+}`). */
  template: string;
  /** The OpenAPI path key (template without `+`). */
  openapiPath: string;
  auth: AuthKind;
  handler: Handler;
  regex: RegExp;
  names: string[];
}

/** An error a handler throws to answer with GitHub's error JSON. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const DOCS_URL = "https://docs.github.com/rest";

export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { message, documentation_url: DOCS_URL, status: String(status), ...extra };
}

export const notFound = (): HttpError => new HttpError(404, "Not Found");
export const unprocessable = (message: string, extra: Record<string, unknown> = {}): HttpError => new HttpError(422, message, extra);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compileTemplate(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  let source = "";
  const re = /\{(\w+)(\+?)\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    source += escapeRegex(template.slice(last, m.index));
    names.push(m[1]!);
    source += m[2] ? "(.+?)" : "([^/]+)";
    last = m.index + m[0].length;
  }
  source += escapeRegex(template.slice(last));
  return { regex: new RegExp(`^${source}$`), names };
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: Method, template: string, auth: AuthKind, handler: Handler): void {
    const { regex, names } = compileTemplate(template);
    this.routes.push({ method, template, openapiPath: template.replace(/\+\}/g, "}"), auth, handler, regex, names });
  }

  /** First registered route that matches; register specific routes before greedy ones. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = m[i + 1]!));
      return { route, params };
    }
    return undefined;
  }
}

/**
 * A test-facing request pattern: `"PATCH /repos/:o/:r/git/refs/*"`, `"* /repos/:o/:r/check-runs"`,
 * or an OpenAPI template (`"POST /repos/{owner}/{repo}/check-runs"`). `:name`/`{name}` match one
 * segment, `*` matches the rest (slashes included). A RegExp tests `"METHOD /path"`.
 */
export type RequestPattern = string | RegExp;

export function compilePattern(pattern: RequestPattern): (method: string, path: string) => boolean {
  if (pattern instanceof RegExp) return (method, path) => pattern.test(`${method} ${path}`);
  const trimmed = pattern.trim();
  const space = trimmed.indexOf(" ");
  const methodPart = space > 0 ? trimmed.slice(0, space).toUpperCase() : "*";
  const pathPart = space > 0 ? trimmed.slice(space + 1).trim() : trimmed;
  const source = pathPart
    .split("/")
    .map((seg) => {
      if (seg === "*") return ".*";
      if (/^:\w+$/.test(seg) || /^\{\w+\}$/.test(seg)) return "[^/]+";
      if (/^\{\w+\+\}$/.test(seg)) return ".+";
      return escapeRegex(seg).replace(/\\\*/g, ".*");
    })
    .join("/");
  const regex = new RegExp(`^${source}/?$`);
  return (method, path) => (methodPart === "*" || methodPart === method.toUpperCase()) && regex.test(path);
}
