/**
 * Every log line about a request names it: its delivery id (`id`, the field Probot's own webhook
 * lines use, so one query finds both), its repository and its pull request. Loggers that can make
 * children (pino: Probot's) get one; a plain logger is used as it is.
 */
import type { Request } from "./request.js";

export interface RequestLogFields {
  id: string;
  repository: string;
  pr: number;
}

export function requestLogFields(request: Pick<Request, "id" | "repository" | "pullRequest">): RequestLogFields {
  return { id: request.id, repository: `${request.repository.owner}/${request.repository.repo}`, pr: request.pullRequest };
}

export function requestLog<L extends object>(log: L, request: Pick<Request, "id" | "repository" | "pullRequest">): L {
  const child = (log as { child?: (bindings: object) => L }).child;
  return typeof child === "function" ? child.call(log, requestLogFields(request)) : log;
}
