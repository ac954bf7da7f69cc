/** A person's token verified with GitHub's GET /user (a loopback stand-in), cached briefly by its hash; the 401 challenge. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  bearerToken,
  challenge,
  resourceMetadataUrl,
  TokenVerifier,
  VerificationUnavailable,
} from "../../../../src/apps/server/mcp/auth.js";

let server: Server;
let api: string;
const seen: string[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { login: "alice", id: 7, type: "User" } };

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: { login: "alice", id: 7, type: "User" } };
});

test("a token GitHub knows is its person; asked once per minute, then again", async () => {
  let now = 1_000_000;
  const verifier = new TokenVerifier(api, 60_000, () => now);
  expect(await verifier.verify("ghu_a")).toEqual({ login: "alice", id: 7 });
  expect(await verifier.verify("ghu_a")).toEqual({ login: "alice", id: 7 });
  expect(seen).toEqual(["GET /api/v3/user Bearer ghu_a"]);
  now += 60_001;
  answer = { status: 401, body: { message: "Bad credentials" } };
  expect(await verifier.verify("ghu_a")).toBeUndefined();
  expect(seen).toHaveLength(2);
});

test("GitHub's 401, an app's token (403) and a bot account are no person; a 5xx says GitHub could not tell", async () => {
  const verifier = new TokenVerifier(api);
  answer = { status: 401, body: { message: "Bad credentials" } };
  expect(await verifier.verify("forged")).toBeUndefined();
  answer = { status: 403, body: { message: "Resource not accessible by integration" } };
  expect(await verifier.verify("ghs_app")).toBeUndefined();
  answer = { status: 200, body: { login: "ci[bot]", id: 9, type: "Bot" } };
  expect(await verifier.verify("bot")).toBeUndefined();
  answer = { status: 502, body: { message: "Bad gateway" } };
  await expect(verifier.verify("ghu_b")).rejects.toThrow(new VerificationUnavailable("GitHub answered 502 to GET /user"));
});

test("the Bearer header, the challenge and where the resource metadata is (RFC 9728's path insertion)", () => {
  expect(bearerToken("Bearer ghu_x")).toBe("ghu_x");
  expect(bearerToken("bearer  ghu_x ")).toBe("ghu_x");
  expect([bearerToken("token ghu_x"), bearerToken("Bearer"), bearerToken(undefined)]).toEqual([undefined, undefined, undefined]);
  const resource = new URL("https://bot.example.com/mcp/acme/widgets");
  expect(resourceMetadataUrl(resource)).toBe("https://bot.example.com/.well-known/oauth-protected-resource/mcp/acme/widgets");
  expect(challenge(resource, false)).toBe(
    'Bearer resource_metadata="https://bot.example.com/.well-known/oauth-protected-resource/mcp/acme/widgets"',
  );
  expect(challenge(new URL("https://bot.example.com/mcp"), true)).toBe(
    'Bearer error="invalid_token", error_description="The GitHub token is unknown, revoked or expired", resource_metadata="https://bot.example.com/.well-known/oauth-protected-resource/mcp"',
  );
});
