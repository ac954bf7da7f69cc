/**
 * The MCP tools on a pull request: the preview tools, `pending`, and (only where the repository's
 * `agents.may_resolve` allows it, on `/mcp/<owner>/<repo>`) `resolve` with just those actions.
 * Each takes `owner`, `repo`, `pull_number`; a preview also takes the agent's `rationale`.
 *
 * A call is a Request like a comment's (intent `commands`, origin `mcp` naming the agent and its
 * rationale), checked first with a comment's permission rules (access.ts), then submitted to the
 * durable intake. When this process runs the jobs the call waits (bounded) for the outcome and
 * answers with the reply posted on the pull request; otherwise, or past the wait, it answers that
 * the request is queued and where its answer will be.
 */
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentResolution } from "../../../config/repo-config.js";
import type { ToolRegistry } from "../../../core/registry.js";
import type { AnyToolDefinition } from "../../../core/tool.js";
import type { RepoRef } from "../../../forges/github/types.js";
import type { ExecuteResult } from "../../../pipeline/forge.js";
import { REQUEST_VERSION, type Request } from "../../../pipeline/request.js";
import { agentResolutions, type Access } from "./access.js";
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
}

const TARGET = {
  owner: { type: "string", description: "The repository's owner (user or organisation)." },
  repo: { type: "string", description: "The repository's name." },
  pull_number: { type: "integer", minimum: 1, description: "The pull request's number." },
} as const;

const RATIONALE = {
  type: "string",
  description: "Why you propose this change, for the person who will review it (shown in the check run and the reply).",
};

function toolSchema(tool: AnyToolDefinition): Tool["inputSchema"] {
  // TypeBox's own markers are symbol keys: JSON drops them, leaving standard JSON Schema.
  const params = JSON.parse(JSON.stringify(tool.parameters)) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    type: "object",
    properties: { ...TARGET, ...params.properties, rationale: RATIONALE },
    required: ["owner", "repo", "pull_number", ...(params.required ?? [])],
  };
}

function listTools(registry: ToolRegistry, resolutions: readonly AgentResolution[]): Tool[] {
  const previews: Tool[] = registry.list().map((tool) => ({
    name: tool.name,
    description: `${tool.description} Proposes the change as a pending action on the pull request; a person applies or discards it.`,
    inputSchema: toolSchema(tool),
    annotations: { readOnlyHint: true },
  }));
  const pending: Tool = {
    name: "pending",
    description: "Lists the pull request's pending actions, newest first.",
    inputSchema: { type: "object", properties: { ...TARGET }, required: ["owner", "repo", "pull_number"] },
    annotations: { readOnlyHint: true },
  };
  if (resolutions.length === 0) return [...previews, pending];
  const resolve: Tool = {
    name: "resolve",
    description: `${resolutions.join(" or ")} the newest pending action of the pull request (allowed by the repository's agents.may_resolve).`,
    inputSchema: {
      type: "object",
      properties: {
        ...TARGET,
        action: { type: "string", enum: [...resolutions] },
        reason: { type: "string", minLength: 1, description: "Why; it goes into the commit message or the discard's record." },
      },
      required: ["owner", "repo", "pull_number", "action", "reason"],
    },
    annotations: { destructiveHint: true },
  };
  return [...previews, pending, resolve];
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function pullUrl(webUrl: string, repo: RepoRef, number: number): string {
  return `${webUrl}/${repo.owner}/${repo.repo}/pull/${number}`;
}

/** The posted reply as people read it: without its hidden markers (forges/github/replies/render.ts). */
function readable(body: string): string {
  return body.replace(/(\n\n<!-- resolve-bot:[^\n]*-->)+$/, "").replace(/\n<!-- resolve-bot:[^\n]*-->/g, "");
}

type Target = { repo: RepoRef; number: number };

function targetOf(args: Record<string, unknown>): Target | string {
  const { owner, repo, pull_number: number } = args;
  if (typeof owner !== "string" || owner === "" || typeof repo !== "string" || repo === "")
    return "`owner` and `repo` name the repository, e.g. owner: acme, repo: widgets.";
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1) return "`pull_number` is the pull request's number, e.g. 12.";
  return { repo: { owner, repo }, number };
}

/** One session's MCP server: the tools of the repository it is scoped to, or of every repository. */
export function openPullRequestTools(deps: PullRequestTools, scope: SessionScope): Server {
  const server = new Server({ name: "resolve-bot", version: "1" }, { capabilities: { tools: {} } });
  const person = scope.person;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const repository = scope.repository ? await deps.access.repository(scope.repository) : undefined;
    return { tools: listTools(deps.registry, repository ? agentResolutions(repository.config) : []) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (call): Promise<CallToolResult> => {
    const name = call.params.name;
    const args = call.params.arguments ?? {};
    const tool = deps.registry.command(name);
    if (!tool && name !== "pending" && name !== "resolve") return toolError(`There is no tool \`${name}\`.`);
    const target = targetOf(args);
    if (typeof target === "string") return toolError(target);
    const { repo, number } = target;
    if (
      scope.repository &&
      `${scope.repository.owner}/${scope.repository.repo}`.toLowerCase() !== `${repo.owner}/${repo.repo}`.toLowerCase()
    )
      return toolError(`This endpoint serves ${scope.repository.owner}/${scope.repository.repo} only; use /mcp for other repositories.`);
    const repository = await deps.access.repository(repo);
    if (!repository) return toolError(`resolve-bot is not installed on ${repo.owner}/${repo.repo}.`);

    let command: Request["intent"] & { kind: "commands" };
    if (name === "resolve") {
      const allowed = agentResolutions(repository.config);
      const action = args.action;
      if (typeof action !== "string" || !allowed.includes(action as AgentResolution)) {
        const how = "a person resolves it with `/resolve apply <reason>` or `/resolve discard <reason>` in the pull request";
        return toolError(
          allowed.length === 0
            ? `Agents may not resolve pending actions on ${repo.owner}/${repo.repo}: ${how}.`
            : `Agents may only ${allowed.join(" or ")} on ${repo.owner}/${repo.repo}; ${how}.`,
        );
      }
      const reason = typeof args.reason === "string" ? args.reason.trim() : "";
      if (reason === "") return toolError("`reason` is required: why the action is resolved so.");
      command = { kind: "commands", commands: [{ name: "resolve", typed: "resolve", args: `${action} ${reason}`, line: 1 }] };
    } else if (name === "pending") {
      command = { kind: "commands", commands: [{ name: "pending", typed: "pending", args: "", line: 1 }] };
    } else {
      const { owner: _owner, repo: _repo, pull_number: _number, rationale: _rationale, ...params } = args;
      const typed = tool!.name.replace(/_/g, "-");
      command = {
        kind: "commands",
        commands: [{ name: tool!.name, typed, args: "", block: { language: "json", text: JSON.stringify(params) }, line: 1 }],
      };
    }
    const commandName = command.commands[0]!.name;
    const refusal = await deps.access.refusal(repository, repo, person.login, commandName);
    if (refusal) return toolError(refusal);

    const agent = scope.agent();
    const rationale = typeof args.rationale === "string" && args.rationale.trim() !== "" ? args.rationale.trim() : undefined;
    const request: Request = {
      version: REQUEST_VERSION,
      forge: { id: "github", installationId: repository.installationId },
      repository: repo,
      pullRequest: number,
      actor: { login: person.login, id: person.id },
      id: `mcp-${randomUUID()}`,
      intent: command,
      origin: { kind: "mcp", ...(agent ? { agent } : {}), ...(rationale ? { rationale } : {}) },
    };
    const outcome = deps.outcomes?.expect(request.id, deps.waitMs);
    await deps.submit(request);
    const url = pullUrl(deps.githubWebUrl, repo, number);
    const waited = outcome ? await outcome : { done: false as const };
    if (!waited.done)
      return {
        content: [
          {
            type: "text",
            text: `Queued: resolve-bot will answer on the pull request, ${url} (its conversation and the resolve-bot check runs).`,
          },
        ],
      };
    return answer(waited.result, url);
  });
  return server;
}

/** The reply posted on the pull request, and where a person resolves what is pending. */
function answer(result: ExecuteResult | undefined, url: string): CallToolResult {
  if (!result) return toolError(`resolve-bot stopped this request; it says why on the pull request, ${url}.`);
  const reply = result.replied.at(-1);
  const how =
    (result.pending ?? 0) > 0
      ? " A person resolves the newest pending action there with `/resolve apply <reason>` or `/resolve discard <reason>` in a comment, or with the check run's buttons."
      : "";
  const where = `On the pull request: ${url}.${how}`;
  const text = reply === undefined ? where : `${readable(reply)}\n\n${where}`;
  return { content: [{ type: "text", text }], ...(result.status === "ok" ? {} : { isError: true }) };
}
