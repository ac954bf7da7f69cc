/**
 * Who calls /mcp: a person's GitHub token (an OAuth user-to-server token from the app's user
 * authorization, or a fine-grained personal access token), sent as `Authorization: Bearer …` and
 * verified with GitHub (`GET /user`). What that person may do on a repository is decided later,
 * per tool call, by the collaborator permission a comment is checked against (access.ts).
 *
 * A missing, forged or expired token is answered 401 with the challenge MCP's authorization spec
 * asks for (RFC 6750's `WWW-Authenticate: Bearer`, plus RFC 9728's `resource_metadata`), so a
 * client can find where to get a token: GitHub's OAuth, named in the protected resource metadata.
 */
import { createHash } from "node:crypto";

export interface Person {
  login: string;
  id: number;
}

/** GitHub could not say (5xx, unreachable): the caller is told to try again, not that the token is bad. */
export class VerificationUnavailable extends Error {
  override name = "VerificationUnavailable";
}

interface Cached {
  person: Person;
  until: number;
}

/** Verification is cached this long: a revoked token keeps working at most this much longer. */
export const VERIFIED_FOR_MS = 60_000;
const MAX_CACHED = 1_000;

export class TokenVerifier {
  /** By the token's SHA-256, never the token itself. */
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly apiUrl: string,
    private readonly ttlMs = VERIFIED_FOR_MS,
    private readonly now = () => Date.now(),
  ) {}

  /** The person the token acts as, or undefined when GitHub refuses it (401: unknown, revoked, expired). */
  async verify(token: string): Promise<Person | undefined> {
    const key = createHash("sha256").update(token).digest("hex");
    const cached = this.cache.get(key);
    if (cached && cached.until > this.now()) return cached.person;
    this.cache.delete(key);
    let response: Response;
    try {
      response = await fetch(`${this.apiUrl}/user`, {
        headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
      });
    } catch (error) {
      throw new VerificationUnavailable(`GitHub could not be reached to verify a token: ${(error as Error).message}`);
    }
    if (response.status === 401 || response.status === 403) return undefined;
    if (!response.ok) throw new VerificationUnavailable(`GitHub answered ${response.status} to GET /user`);
    const user = (await response.json()) as { login?: unknown; id?: unknown; type?: unknown };
    // An app's own token is no person's (GET /user refuses it); a bot account is no person either.
    if (typeof user.login !== "string" || typeof user.id !== "number" || user.type !== "User") return undefined;
    const person = { login: user.login, id: user.id };
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { person, until: this.now() + this.ttlMs });
    return person;
  }
}

/** The token of an `Authorization: Bearer …` header (RFC 6750: the scheme is case-insensitive). */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
}

/** Where the protected resource metadata of `resource` is (RFC 9728 §3.1: the well-known path before the resource's path). */
export function resourceMetadataUrl(resource: URL): string {
  const path = resource.pathname === "/" ? "" : resource.pathname;
  return `${resource.origin}/.well-known/oauth-protected-resource${path}`;
}

/** The `WWW-Authenticate` challenge of a 401: with `invalid_token` when a token was sent (RFC 6750 §3.1). */
export function challenge(resource: URL, tokenSent: boolean): string {
  const error = tokenSent ? `error="invalid_token", error_description="The GitHub token is unknown, revoked or expired", ` : "";
  return `Bearer ${error}resource_metadata="${resourceMetadataUrl(resource)}"`;
}

/**
 * The protected resource metadata (RFC 9728): the resource, and GitHub's OAuth as the server that
 * issues its tokens (the app's user authorization; a fine-grained PAT is made on GitHub's settings page).
 */
export function resourceMetadata(resource: URL, githubWebUrl: string): Record<string, unknown> {
  return {
    resource: resource.href,
    authorization_servers: [`${githubWebUrl}/login/oauth`],
    bearer_methods_supported: ["header"],
    resource_name: "resolve-bot",
  };
}
