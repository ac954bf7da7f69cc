/**
 * The pull request's MCP tools driven by the SDK's client in memory, with the repository's access
 * and the intake stood in: what a call submits, the queued answer when no worker runs here (or the
 * wait passes), and the answer from an outcome this process settles.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { parseRepoConfig } from "../../../../src/config/repo-config.js";
import type { Access, Repository } from "../../../../src/apps/server/mcp/access.js";
import { Outcomes } from "../../../../src/apps/server/mcp/outcomes.js";
import { openPullRequestTools } from "../../../../src/apps/server/mcp/tools.js";
import type { Request } from "../../../../src/pipeline/request.js";
import { createRegistry } from "../../../../src/tools/index.js";

const parsed = parseRepoConfig({ agents: { may_resolve: ["discard"] } });
if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
const repository = { installationId: 42, octokit: {}, config: { ok: true, config: parsed.config } } as unknown as Repository;
const access = { repository: async () => repository, refusal: async () => undefined } as unknown as Access;
const TARGET = { owner: "acme", repo: "widgets", pull_number: 7 };

async function open(outcomes: Outcomes | undefined, waitMs: number, onSubmit: (request: Request) => void = () => undefined) {
  const submitted: Request[] = [];
  const server = openPullRequestTools(
    {
      registry: await createRegistry(),
      access,
      submit: async (request) => {
        submitted.push(request);
        onSubmit(request);
      },
      ...(outcomes ? { outcomes } : {}),
      waitMs,
      githubWebUrl: "https://github.com",
      version: "9.9.9",
    },
    { person: { login: "alice", id: 5 }, repository: { owner: "acme", repo: "widgets" } },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "unit-agent", version: "2.0" });
  await client.connect(clientSide);
  return { client, submitted };
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as Array<{ text: string }>).map((part) => part.text).join("\n");
}

test("a preview is submitted as the person's request with an mcp origin; with no worker here it answers that it is queued", async () => {
  const { client, submitted } = await open(undefined, 60_000);
  const result = await client.callTool({
    name: "ast_edit",
    arguments: { ...TARGET, pat: "a", out: "b", rationale: "  tidy  " },
  });
  expect(textOf(result)).toBe(
    "Queued: resolve-bot will answer on the pull request, https://github.com/acme/widgets/pull/7 (its conversation and check runs).",
  );
  expect(submitted).toHaveLength(1);
  const { id, ...request } = submitted[0]!;
  expect(id).toMatch(/^mcp-[0-9a-f-]{36}$/);
  expect(request).toEqual({
    version: 2,
    forge: { id: "github", installationId: 42 },
    repository: { owner: "acme", repo: "widgets" },
    pullRequest: 7,
    actor: { login: "alice", id: 5 },
    intent: {
      kind: "commands",
      commands: [{ name: "ast_edit", typed: "ast-edit", args: "", block: { language: "json", text: '{"pat":"a","out":"b"}' }, line: 1 }],
    },
    origin: { kind: "mcp", agent: { name: "unit-agent", version: "2.0" }, rationale: "tidy" },
  });
  await client.close();
});

test("a wait that passes answers queued too; an outcome settled in time is the answer", async () => {
  const outcomes = new Outcomes();
  const slow = await open(outcomes, 0);
  expect(textOf(await slow.client.callTool({ name: "pending", arguments: TARGET }))).toMatch(/^Queued: /);
  await slow.client.close();

  const quick = await open(outcomes, 60_000, (request) =>
    outcomes.settle(request.id, {
      ok: true,
      status: "ok",
      replied: ["Nothing is pending."],
      reply: { status: "ok", outcomes: [], skipped: [], notice: "Nothing is pending.", stack: [] },
    }),
  );
  const answer = await quick.client.callTool({ name: "pending", arguments: TARGET });
  expect(textOf(answer)).toBe("Nothing is pending.\nOn the pull request: https://github.com/acme/widgets/pull/7.");
  expect(answer.structuredContent).toEqual({ status: "ok", pushed: [], stackDepth: 0 });
  await quick.client.close();
});

test("bad arguments and resolve's disallowed action are tool errors; nothing is submitted", async () => {
  const { client, submitted } = await open(undefined, 0);
  const noPull = await client.callTool({ name: "pending", arguments: { owner: "acme", repo: "widgets" } });
  expect([noPull.isError, textOf(noPull)]).toEqual([true, "`pull_number` is the pull request's number, e.g. 12."]);
  const apply = await client.callTool({ name: "resolve", arguments: { ...TARGET, action: "apply", reason: "ok" } });
  expect([apply.isError, textOf(apply)]).toEqual([
    true,
    "Agents may only discard on acme/widgets; a person resolves it with `/resolve apply <reason>` or `/resolve discard <reason>` in the pull request.",
  ]);
  expect(submitted).toEqual([]);
  await client.close();
});
