/**
 * The shared MCP core (src/runner/mcp) as a front end uses it, over the SDK's in-memory transport:
 * what a pull request's front end adds (its own arguments on every tool) comes back apart from
 * the tool's, the call reaches the backend as the slash command a comment would hold, with the
 * client's name; steering's narrowing is told with `tools/list_changed`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { PendingRecord } from "../../../src/core/store.js";
import type { Reply } from "../../../src/pipeline/reply.js";
import { createResolveBotMcp, type McpCall } from "../../../src/runner/mcp/server.js";
import { createRegistry } from "../../../src/tools/index.js";

const PR_ARGUMENTS = {
  properties: {
    owner: { type: "string" },
    repo: { type: "string" },
    pull_number: { type: "integer", minimum: 1 },
    rationale: { type: "string" },
  },
  required: ["owner", "repo", "pull_number"],
};

const RECORD = { seq: 3, label: "AST Edit: 1 replacement in 1 file", files: { "src/a.ts": "abc" } } as unknown as PendingRecord;

async function connected(narrowed: { value: boolean }) {
  const calls: McpCall[] = [];
  const mcp = createResolveBotMcp(
    {
      registry: await createRegistry(),
      extra: PR_ARGUMENTS,
      listing: async () => ({ enabled: (name) => name !== "ast_fix", narrowed: narrowed.value }),
      async run(call) {
        calls.push(call);
        const reply: Reply = {
          status: "ok",
          outcomes: [
            {
              command: "/ast-edit",
              kind: "preview",
              ok: true,
              message: "AST Edit: 1 replacement in 1 file",
              pushed: [{ record: RECORD, diff: "-a\n+b\n" }],
            },
          ],
          skipped: [],
          stack: [RECORD],
          steering: "Pending: AST Edit: 1 replacement in 1 file. Resolve it with a `resolve` call.",
        };
        return { reply };
      },
    },
    { name: "resolve-bot", version: "0.0.0" },
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  const client = new Client({ name: "agent-x", version: "2.0" });
  const changes: string[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changes.push("list_changed"));
  await client.connect(clientSide);
  return { mcp, client, calls, changes };
}

test("a front end's own arguments are on every tool and come back apart; the call is the comment's command, with the client's name", async () => {
  const { client, calls } = await connected({ value: false });
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["ast_edit", "move", "rename_symbol", "pending", "resolve"]);
  for (const tool of tools)
    expect([tool.name, tool.inputSchema.required?.slice(0, 3)]).toEqual([tool.name, ["owner", "repo", "pull_number"]]);
  expect(tools.find((tool) => tool.name === "resolve")!.inputSchema.required).toEqual(["owner", "repo", "pull_number", "action", "reason"]);

  const target = { owner: "acme", repo: "web", pull_number: 7, rationale: "loggers everywhere" };
  const result = await client.callTool({ name: "ast_edit", arguments: { ...target, ops: [{ pat: "a", out: "b" }] } });
  expect(calls).toEqual([
    {
      command: {
        name: "ast_edit",
        typed: "ast-edit",
        args: "",
        block: { language: "json", text: '{"ops":[{"pat":"a","out":"b"}]}' },
        line: 1,
      },
      target,
      agent: { name: "agent-x", version: "2.0" },
    },
  ]);
  expect(result).toEqual({
    content: [
      {
        type: "text",
        text: "Pending: AST Edit: 1 replacement in 1 file\n\n```diff\n-a\n+b\n```\n\nPending: AST Edit: 1 replacement in 1 file. Resolve it with a `resolve` call.",
      },
    ],
    structuredContent: {
      status: "ok",
      pushed: [{ seq: 3, label: "AST Edit: 1 replacement in 1 file", files: ["src/a.ts"] }],
      stackDepth: 1,
    },
  });

  await client.callTool({ name: "resolve", arguments: { ...target, action: "discard", reason: "two\nlines" } });
  expect(calls[1]!.command).toEqual({ name: "resolve", typed: "resolve", args: "discard -- two lines", line: 1 });
  // A tool the settings leave out is unknown, never run.
  expect(await client.callTool({ name: "ast_fix", arguments: target })).toEqual({
    content: [{ type: "text", text: "Unknown tool `ast_fix`. Tools: `ast_edit`, `move`, `rename_symbol`, `pending`, `resolve`." }],
    isError: true,
  });
  expect(calls).toHaveLength(2);
});

test("steering's narrowing: tools/list_changed only once the client has listed, and only when the list changes", async () => {
  const narrowed = { value: false };
  const { mcp, client, changes } = await connected(narrowed);
  narrowed.value = true;
  await mcp.checkTools();
  expect(changes).toEqual([]);
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["pending", "resolve"]);
  await mcp.checkTools();
  narrowed.value = false;
  await Promise.all([mcp.checkTools(), mcp.checkTools()]);
  // The notification is sent before checkTools resolves; the client reads it from the same channel, in order.
  await client.ping();
  expect(changes).toEqual(["list_changed"]);
});
