/**
 * Agents on a pull request: the official MCP SDK's client over Streamable HTTP against the real
 * server's /mcp and the GitHub emulator. A person's token (OAuth user-to-server, or a fine-grained
 * PAT) previews like that person's comment would, labelled as the agent's proposal; a person
 * resolves it with a comment; agents never resolve unless the repository's settings say so.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { comment, latestReply, runsOn, settled, useBot, type Bot } from "./harness.js";

const REPO = "acme/widgets";
const BASE_FILES = {
  "README.md": "# widgets\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
};
const AGENT = "test-agent";

let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "widgets", BASE_FILES);
    await bot.gh.createRepo("acme", "gadgets", { ...BASE_FILES, ".github/resolve-bot.yml": "agents:\n  may_resolve: [discard]\n" });
    bot.gh.setPermission("acme/gadgets", "alice", "write");
    await bot.gh.createRepo("acme", "strict", { ...BASE_FILES, ".github/resolve-bot.yml": "steering: strict\n" });
    bot.gh.setPermission("acme/strict", "alice", "write");
    bot.gh.setPermission(REPO, "alice", "write");
    bot.gh.setPermission(REPO, "rita", "read");
  },
  { RESOLVE_BOT_MCP_HTTP: "on" },
);

function mcpUrl(path = "/mcp"): URL {
  return new URL(path, bot.webhookUrl);
}

async function connect(token: string, path?: string): Promise<Client> {
  const client = new Client({ name: AGENT, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(mcpUrl(path), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join("\n");
}

async function openPr(head: string, repo = REPO) {
  return bot.gh.createPullRequest({ repo, head, user: "alice", commits: [{ files: { "docs/x.md": `${head}\n` } }] });
}

const EDIT = { pat: "console.log($$$A)", out: "logger.debug($$$A)", paths: ["src"] };
const LABEL = "AST Edit: 1 replacement in 1 file";

test("an agent with alice's token previews: a pending run naming the agent and alice, the gate, a reply; alice's /resolve apply commits it", async () => {
  const pr = await openPr("feature-agent");
  const client = await connect(bot.gh.userToken("alice"));
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toContain("ast_edit");
  expect(names).toContain("pending");
  expect(names).not.toContain("resolve");

  const before = bot.gh.comments(REPO, pr.number).length;
  const result = await client.callTool({
    name: "ast_edit",
    arguments: { owner: "acme", repo: "widgets", pull_number: pr.number, ...EDIT, rationale: "use the structured logger" },
  });
  const action = runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "));
  expect(action.map((run) => [run.name, run.status])).toEqual([[`resolve-bot: ${LABEL}`, "in_progress"]]);
  const run = action[0]!;
  const reply = latestReply(bot, REPO, pr.number, before);
  const diff = [
    "diff --git a/src/log.ts b/src/log.ts",
    "--- a/src/log.ts",
    "+++ b/src/log.ts",
    "@@ -1,4 +1,4 @@",
    " export function run(x: number) {",
    '-  console.log("run", x);',
    '+  logger.debug("run", x);',
    "   return x;",
    " }",
    "",
  ].join("\n");
  expect(reply).toBe(
    [
      `**${LABEL}** — proposed by an agent (${AGENT}) for @\u2060alice, pending, nothing written yet · [check run](${run.htmlUrl})`,
      "The agent's rationale: use the structured logger",
      "- src/log.ts: 1 replacement",
      `\`\`\`diff\n${diff}\`\`\``,
      "---\nNext: `/resolve apply <reason>` or `/resolve discard <reason>`.",
    ].join("\n\n"),
  );
  expect(result.isError).toBeFalsy();
  expect(textOf(result)).toBe(
    [
      "- src/log.ts: 1 replacement",
      `Pending: ${LABEL}`,
      `\`\`\`diff\n${diff}\`\`\``,
      `Pending: ${LABEL}. Resolve it with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`,
    ].join("\n\n") +
      `\nOn the pull request: ${bot.gh.url}/acme/widgets/pull/${pr.number}. Check run: ${run.htmlUrl}. A person resolves the newest pending action there with \`/resolve apply <reason>\` or \`/resolve discard <reason>\` in a comment, or with the check run's buttons.`,
  );
  expect(result.structuredContent).toEqual({ status: "ok", pushed: [{ seq: 1, label: LABEL, files: ["src/log.ts"] }], stackDepth: 1 });
  expect((run.output.summary ?? "").replace(/\n\n<!-- resolve-bot:record:\S+ -->$/, "")).toBe(
    [
      `**${LABEL}** — proposed by an agent (${AGENT}) for @\u2060alice, previewed on ${pr.headSha.slice(0, 7)} (action #1 of this pull request).`,
      "The agent's rationale: use the structured logger",
      "- src/log.ts: 1 replacement",
      "Resolve the newest pending action with `/resolve apply <reason>` or `/resolve discard <reason>` in a pull request comment.",
    ].join("\n\n"),
  );
  const gate = runsOn(bot, REPO, pr.headSha).find((candidate) => candidate.name === "resolve-bot")!;
  expect([gate.status, gate.conclusion, gate.output.title]).toEqual(["completed", "action_required", `Pending: ${LABEL}`]);
  // The preview wrote nothing.
  expect(await bot.gh.branchSha(REPO, "feature-agent")).toBe(pr.headSha);

  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply use the structured logger");
  expect(applied.done).toBe("rocket");
  const head = (await bot.gh.branchSha(REPO, "feature-agent"))!;
  expect((await bot.gh.commit(REPO, head)).parents).toEqual([pr.headSha]);
  expect(await bot.gh.filesAt(REPO, head)).toEqual({
    ...BASE_FILES,
    "docs/x.md": "feature-agent\n",
    "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x);\n  return x;\n}\n',
  });
  await client.close();
});

test("on /mcp/<owner>/<repo>, agents.may_resolve: [discard] lists resolve with discard only: an agent discards, and may not apply", async () => {
  const pr = await openPr("feature-discard", "acme/gadgets");
  const client = await connect(bot.gh.userToken("alice"), "/mcp/acme/gadgets");
  const resolve = (await client.listTools()).tools.find((tool) => tool.name === "resolve");
  expect(resolve?.inputSchema.properties?.action).toEqual({
    type: "string",
    enum: ["discard"],
    description: "Only discard is offered here.",
  });
  expect(resolve?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  const target = { owner: "acme", repo: "gadgets", pull_number: pr.number };
  expect((await client.callTool({ name: "ast_edit", arguments: { ...target, ...EDIT } })).isError).toBeFalsy();

  const apply = await client.callTool({ name: "resolve", arguments: { ...target, action: "apply", reason: "ship it" } });
  expect([apply.isError, textOf(apply)]).toEqual([
    true,
    "Agents may only discard on acme/gadgets; a person resolves it with `/resolve apply <reason>` or `/resolve discard <reason>` in the pull request.",
  ]);
  const before = bot.gh.comments("acme/gadgets", pr.number).length;
  const discard = await client.callTool({ name: "resolve", arguments: { ...target, action: "discard", reason: "not now" } });
  const reply = latestReply(bot, "acme/gadgets", pr.number, before);
  expect(reply).toBe("Discarded: AST Edit: 1 replacement in 1 file. Reason: not now");
  expect(textOf(discard)).toBe(`${reply}\nOn the pull request: ${bot.gh.url}/acme/gadgets/pull/${pr.number}.`);
  expect(discard.structuredContent).toEqual({ status: "ok", pushed: [], resolved: { action: "discard", label: LABEL }, stackDepth: 0 });
  const run = runsOn(bot, "acme/gadgets", pr.headSha).find((candidate) => candidate.name === `resolve-bot: ${LABEL}`)!;
  expect([run.status, run.conclusion]).toEqual(["completed", "cancelled"]);
  expect(await bot.gh.branchSha("acme/gadgets", "feature-discard")).toBe(pr.headSha);

  // Another repository through this endpoint is refused; on /mcp, resolve is not listed.
  const elsewhere = await client.callTool({ name: "pending", arguments: { owner: "acme", repo: "widgets", pull_number: pr.number } });
  expect(textOf(elsewhere)).toBe("This endpoint serves acme/gadgets only; use /mcp for other repositories.");
  await client.close();
  const unscoped = await connect(bot.gh.userToken("alice"));
  expect((await unscoped.listTools()).tools.map((tool) => tool.name)).not.toContain("resolve");
  const unlisted = await unscoped.callTool({ name: "resolve", arguments: { ...target, action: "discard", reason: "again" } });
  expect([unlisted.isError, textOf(unlisted)]).toEqual([
    true,
    "`resolve` is offered on /mcp/acme/gadgets, where the repository's agents.may_resolve allows discard.",
  ]);
  await unscoped.close();
});

test("steering: strict refuses an agent's second preview while one is pending, in the usual sentence, and says so on the pull request", async () => {
  const pr = await openPr("feature-strict", "acme/strict");
  const client = await connect(bot.gh.userToken("alice"));
  const target = { owner: "acme", repo: "strict", pull_number: pr.number };
  expect((await client.callTool({ name: "ast_edit", arguments: { ...target, ...EDIT } })).isError).toBeFalsy();
  const before = bot.gh.comments("acme/strict", pr.number).length;
  const second = await client.callTool({ name: "rename_symbol", arguments: { ...target, from: "run", to: "execute" } });
  const reply = latestReply(bot, "acme/strict", pr.number, before);
  const refusal = `This repository uses \`steering: strict\`: resolve the pending action first (${LABEL}) with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`;
  const steering = `Pending: ${LABEL}. Resolve it with \`/resolve apply <reason>\` or \`/resolve discard <reason>\`.`;
  expect(reply).toBe(`${refusal}\n\n---\n${steering}`);
  expect([second.isError, textOf(second)]).toEqual([
    true,
    `${refusal}\n\n${steering}\nOn the pull request: ${bot.gh.url}/acme/strict/pull/${pr.number}. A person resolves the newest pending action there with \`/resolve apply <reason>\` or \`/resolve discard <reason>\` in a comment, or with the check run's buttons.`,
  ]);
  await client.close();
});

test("a read-only person's token (a fine-grained PAT) is refused with a comment's sentence, and nothing is posted or queued", async () => {
  const pr = await openPr("feature-read-only");
  const client = await connect(bot.gh.userToken("rita", { kind: "pat" }));
  const before = bot.gh.comments(REPO, pr.number).length;
  const result = await client.callTool({
    name: "ast_edit",
    arguments: { owner: "acme", repo: "widgets", pull_number: pr.number, ...EDIT },
  });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toBe("Sorry, `/ast-edit` needs write permission on this repository, and rita has read. Nothing was changed.");
  await settled(bot);
  expect(bot.gh.comments(REPO, pr.number).length).toBe(before);
  expect(runsOn(bot, REPO, pr.headSha)).toEqual([]);
  await client.close();
});

test("a forged or expired token gets 401 with the Bearer challenge naming the resource metadata (RFC 9728), which names GitHub's OAuth", async () => {
  const metadata = `${mcpUrl("/.well-known/oauth-protected-resource/mcp").href}`;
  for (const token of ["ghu_forged", bot.gh.userToken("alice", { ttlMs: -1 })]) {
    const answer = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="The GitHub token is unknown, revoked or expired", resource_metadata="${metadata}"`,
    );
    await expect(connect(token)).rejects.toThrow();
  }
  const anonymous = await fetch(mcpUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect([anonymous.status, anonymous.headers.get("www-authenticate")]).toEqual([401, `Bearer resource_metadata="${metadata}"`]);
  const document = await fetch(metadata);
  expect(await document.json()).toEqual({
    resource: mcpUrl().href,
    authorization_servers: [`${bot.gh.url}/login/oauth`],
    bearer_methods_supported: ["header"],
    resource_name: "resolve-bot",
  });
});
