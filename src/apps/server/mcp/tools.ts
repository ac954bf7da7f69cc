/**
 * The MCP tools on a pull request: the shared MCP server (runner/mcp) with a backend that runs each
 * call as a Request on the server's durable intake. Every tool takes `owner`, `repo`,
 * `pull_number` (and a preview the agent's `rationale`); `resolve` is listed only on
 * `/mcp/<owner>/<repo>` where the repository's `agents.may_resolve` allows it, with just those actions.
 *
 * A call is checked first with a comment's permission rules (access.ts; a refusal is a tool error
 * and nothing is posted), then submitted (intent `commands`, origin `mcp` naming the agent and its
 * rationale). When this process runs the jobs the call waits, bounded, for the outcome and answers
 * with the reply and where a person resolves it; otherwise, or past the wait, it answers at once
 * that the request is queued and where its answer will be.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentResolution } from "../../../config/repo-config.js";
import type { ToolRegistry } from "../../../core/registry.js";
import type { RepoRef } from "../../../forges/github/types.js";
import type { ExecuteResult } from "../../../pipeline/forge.js";
import { REQUEST_VERSION, type Request } from "../../../pipeline/request.js";
import { refusedCall, toolResult } from "../../../runner/mcp/results.js";
import { createResolveBotMcp, type McpCall } from "../../../runner/mcp/server.js";
import { RESOLVE_TOOL, type ExtraArguments } from "../../../runner/mcp/tools.js";
import { agentResolutions, type Access, type Repository } from "./access.js";
import type { SessionScope } from "./http.js";
import type { Outcomes } from "./outcomes.js";

export interface PullRequestTools {
  registry: ToolRegistry;
  access: Access;
  /** Records the request on the job queue (the server's intake). */
  submit(request: Request): Promise<unknown>;
  /** Set when this process carries the jobs out: calls wait for their outcome. */
  outcomes?: Outcomes;
  waitMs: number;
  githubWebUrl: string;
  version: string;
}

/** What every tool takes besides its own parameters: the pull request, and why (for the reviewer). */
export const PULL_REQUEST_ARGUMENTS: ExtraArguments = {
  properties: {
    owner: { type: "string", minLength: 1, description: "The repository's owner (user or organisation)." },
    repo: { type: "string", minLength: 1, description: "The repository's name." },
    pull_number: { type: "integer", minimum: 1, description: "The pull request's number." },
    rationale: {
      type: "string",
      description: "Why you propose this, for the person who reviews it (shown in the check run and the reply).",
    },
  },
  required: ["owner", "repo", "pull_number"],
};

type Target = { repo: RepoRef; number: number; rationale?: string };

function targetOf(args: Record<string, unknown>): Target | string {
  const { owner, repo, pull_number: number, rationale } = args;
  if (typeof owner !== "string" || owner === "" || typeof repo !== "string" || repo === "")
    return "`owner` and `repo` name the repository, e.g. owner: acme, repo: widgets.";
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1) return "`pull_number` is the pull request's number, e.g. 12.";
  const said = typeof rationale === "string" ? rationale.trim() : "";
  return { repo: { owner, repo }, number, ...(said !== "" ? { rationale: said } : {}) };
}

const sameRepo = (a: RepoRef, b: RepoRef) => `${a.owner}/${a.repo}`.toLowerCase() === `${b.owner}/${b.repo}`.toLowerCase();

/** One session's MCP server: the tools of the repository it is scoped to, or of every repository. */
export function openPullRequestTools(deps: PullRequestTools, scope: SessionScope): Server {
  const person = scope.person;
  const { server } = createResolveBotMcp(
    {
      registry: deps.registry,
      extra: PULL_REQUEST_ARGUMENTS,
      async listing() {
        const repository = scope.repository ? await deps.access.repository(scope.repository) : undefined;
        const config = repository?.config.ok ? repository.config.config : undefined;
        const enabled = config?.tools ? new Set(config.tools) : undefined;
        return {
          enabled: (name) => !enabled || enabled.has(name),
          // The stack is one pull request's, and the list is no pull request's: steering answers per call.
          narrowed: false,
          resolveActions: repository ? agentResolutions(repository.config) : [],
        };
      },
      run: async (call) => ({ result: await carryOut(deps, scope, person, call) }),
    },
    { name: "resolve-bot", version: deps.version },
  );
  return server;
}

async function carryOut(
  deps: PullRequestTools,
  scope: SessionScope,
  person: SessionScope["person"],
  call: McpCall,
): Promise<CallToolResult> {
  const target = targetOf(call.target);
  if (typeof target === "string") return refusedCall(target);
  const { repo, number, rationale } = target;
  if (scope.repository && !sameRepo(scope.repository, repo))
    return refusedCall(`This endpoint serves ${scope.repository.owner}/${scope.repository.repo} only; use /mcp for other repositories.`);
  const repository = await deps.access.repository(repo);
  if (!repository) return refusedCall(`resolve-bot is not installed on ${repo.owner}/${repo.repo}.`);
  const refused =
    resolveRefusal(call, repository, repo, scope.repository !== undefined) ??
    (await deps.access.refusal(repository, repo, person.login, call.command.name));
  if (refused) return refusedCall(refused);

  const request: Request = {
    version: REQUEST_VERSION,
    forge: { id: "github", installationId: repository.installationId },
    repository: repo,
    pullRequest: number,
    actor: { login: person.login, id: person.id },
    id: `mcp-${randomUUID()}`,
    intent: { kind: "commands", commands: [call.command] },
    origin: { kind: "mcp", ...(call.agent ? { agent: call.agent } : {}), ...(rationale ? { rationale } : {}) },
  };
  // Waiting starts before the submit, so a job carried out at once is not missed.
  const outcome = deps.outcomes?.expect(request.id, deps.waitMs);
  await deps.submit(request);
  const url = `${deps.githubWebUrl}/${repo.owner}/${repo.repo}/pull/${number}`;
  const waited = outcome ? await outcome : { done: false as const };
  if (!waited.done) {
    return {
      content: [{ type: "text", text: `Queued: resolve-bot will answer on the pull request, ${url} (its conversation and check runs).` }],
    };
  }
  return answer(waited.result, url);
}

/** `resolve` only as the repository's `agents.may_resolve` allows (never by default): a person resolves otherwise. */
function resolveRefusal(call: McpCall, repository: Repository, repo: RepoRef, scoped: boolean): string | undefined {
  if (call.command.name !== RESOLVE_TOOL) return undefined;
  const allowed = agentResolutions(repository.config);
  // As listed: /mcp lists no `resolve` (its list is no repository's), so it resolves nothing either.
  if (!scoped && allowed.length > 0)
    return `\`resolve\` is offered on /mcp/${repo.owner}/${repo.repo}, where the repository's agents.may_resolve allows ${allowed.join(" and ")}.`;
  const action = call.command.args.split(" ")[0] as AgentResolution;
  if (allowed.includes(action)) return undefined;
  const how = "a person resolves it with `/resolve apply <reason>` or `/resolve discard <reason>` in the pull request";
  return allowed.length === 0
    ? `Agents may not resolve pending actions on ${repo.owner}/${repo.repo}: ${how}.`
    : `Agents may only ${allowed.join(" or ")} on ${repo.owner}/${repo.repo}; ${how}.`;
}

/** The check run of the newest preview, as the posted reply links it (forges/github/replies/render.ts). */
function checkRunLink(posted: string | undefined): string | undefined {
  return posted === undefined ? undefined : [...posted.matchAll(/· \[check run\]\((\S+?)\)/g)].at(-1)?.[1];
}

/** The reply as the shared core words it for agents, then where a person sees and resolves it. */
function answer(result: ExecuteResult | undefined, url: string): CallToolResult {
  if (!result) return refusedCall(`resolve-bot stopped this request; it says why on the pull request, ${url}.`);
  const where = [`On the pull request: ${url}.`];
  const run = checkRunLink(result.replied.at(-1));
  if (run) where.push(`Check run: ${run}.`);
  if ((result.reply?.stack.length ?? 0) > 0)
    where.push(
      "A person resolves the newest pending action there with `/resolve apply <reason>` or `/resolve discard <reason>` in a comment, or with the check run's buttons.",
    );
  if (!result.reply) return { content: [{ type: "text", text: where.join(" ") }], ...(result.ok ? {} : { isError: true }) };
  const said = toolResult(result.reply);
  return { ...said, content: [...said.content, { type: "text", text: where.join(" ") }] };
}
