/**
 * App authentication: the app's RSA key pair, RS256 JWT verification, and installation tokens.
 */
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from "node:crypto";

export interface InstallationToken {
  token: string;
  installationId: number;
  expiresAt: Date;
  /** The app the token acts as; absent: the app under test. A workflow's GITHUB_TOKEN acts as GitHub Actions. */
  appId?: number;
  /** A GITHUB_TOKEN of a pull request from a fork: every write is refused. */
  readOnly?: boolean;
}

/**
 * A person's token: an OAuth user-to-server token of the app (`ghu_…`, from the app's user
 * authorization) or a fine-grained personal access token (`github_pat_…`). It acts as that user.
 */
export interface UserToken {
  token: string;
  login: string;
  kind: "oauth" | "pat";
  expiresAt: Date;
}

export class AuthError extends Error {}

function base64urlJson(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new AuthError("A JSON web token could not be decoded");
}

export class AppAuth {
  readonly privateKeyPem: string | undefined;
  private readonly publicKey: KeyObject;
  private readonly tokens = new Map<string, InstallationToken>();
  private readonly userTokens = new Map<string, UserToken>();
  /** Clock skew GitHub tolerates on `iat`. */
  static readonly LEEWAY_S = 60;

  constructor(
    readonly appId: number,
    keys?: { publicKeyPem: string },
  ) {
    if (keys) {
      this.publicKey = createPublicKey(keys.publicKeyPem);
    } else {
      const pair = generateKeyPairSync("rsa", {
        modulusLength: 2048,
        publicKeyEncoding: { type: "spki", format: "pem" },
        privateKeyEncoding: { type: "pkcs1", format: "pem" },
      });
      this.privateKeyPem = pair.privateKey;
      this.publicKey = createPublicKey(pair.publicKey);
    }
  }

  /** Verify an app JWT as GitHub does: RS256, signed by the app key, iss = app id, valid times. */
  verifyJwt(jwt: string): void {
    const parts = jwt.split(".");
    if (parts.length !== 3) throw new AuthError("A JSON web token could not be decoded");
    const [h, p, s] = parts as [string, string, string];
    const header = base64urlJson(h);
    const payload = base64urlJson(p);
    if (header.alg !== "RS256") throw new AuthError("A JSON web token could not be decoded");
    const ok = verify("RSA-SHA256", Buffer.from(`${h}.${p}`), this.publicKey, Buffer.from(s, "base64url"));
    if (!ok) throw new AuthError("A JSON web token could not be decoded");
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== "number" || payload.exp <= now) {
      throw new AuthError(
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
      );
    }
    if (payload.exp - now > 600 + AppAuth.LEEWAY_S) {
      throw new AuthError("'Expiration time' claim ('exp') is too far in the future");
    }
    if (typeof payload.iat !== "number" || payload.iat > now + AppAuth.LEEWAY_S) {
      throw new AuthError("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued");
    }
    if (String(payload.iss) !== String(this.appId)) {
      throw new AuthError("'Issuer' claim ('iss') must be an Integer");
    }
  }

  issueToken(installationId: number, ttlMs = 60 * 60 * 1000, as: { appId?: number; readOnly?: boolean } = {}): InstallationToken {
    const token: InstallationToken = {
      token: `ghs_${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`,
      installationId,
      expiresAt: new Date(Date.now() + ttlMs),
      ...as,
    };
    this.tokens.set(token.token, token);
    return token;
  }

  /** A token acting as `login` (OAuth user-to-server tokens last 8 hours on GitHub). */
  issueUserToken(login: string, opts: { kind?: UserToken["kind"]; ttlMs?: number } = {}): UserToken {
    const kind = opts.kind ?? "oauth";
    const secret = randomBytes(27).toString("base64url").replace(/[-_]/g, "x");
    const token: UserToken = {
      token: kind === "oauth" ? `ghu_${secret}` : `github_pat_${secret}`,
      login,
      kind,
      expiresAt: new Date(Date.now() + (opts.ttlMs ?? 8 * 60 * 60 * 1000)),
    };
    this.userTokens.set(token.token, token);
    return token;
  }

  /** The user token behind a `token x` / `Bearer x` header, if it was issued here and has not expired. */
  userTokenFor(authorization: string | undefined): UserToken | undefined {
    const m = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization ?? "");
    const t = m ? this.userTokens.get(m[1]!) : undefined;
    return t && t.expiresAt.getTime() > Date.now() ? t : undefined;
  }

  /** The installation token behind a `token x` / `Bearer x` header, if it is valid. */
  tokenFor(authorization: string | undefined): InstallationToken | undefined {
    const m = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization ?? "");
    const t = m ? this.tokens.get(m[1]!) : undefined;
    return t && t.expiresAt.getTime() > Date.now() ? t : undefined;
  }

  /** The JWT of a `Bearer x` header (throws AuthError when absent or invalid). */
  requireJwt(authorization: string | undefined): void {
    const m = /^bearer\s+(\S+)$/i.exec(authorization ?? "");
    if (!m) throw new AuthError("A JSON web token could not be decoded");
    this.verifyJwt(m[1]!);
  }

  revokeAll(): void {
    this.tokens.clear();
  }
}
