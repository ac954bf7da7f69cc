/**
 * An Octokit plugin that counts GitHub API calls by route and status, and keeps the rate limit
 * GitHub says is left for the installation the Octokit acts for (ops/observations). It wraps the
 * other plugins (it is added last), so a call the retry plugin repeated counts once, with the
 * status it finally came to.
 */
import type { ProbotOctokit } from "probot";
import { observe } from "../../../ops/observations.js";
import { noAnswerReason } from "./http-errors.js";

type OctokitPlugin = Parameters<typeof ProbotOctokit.plugin>[0];
type Octokit = Parameters<OctokitPlugin>[0];

interface Answer {
  status?: number;
  headers?: Record<string, string | number | undefined>;
}

export function githubCallMetrics(octokit: Octokit, options: { auth?: unknown }): void {
  // Probot's installation Octokits carry their installation id in `auth` (getAuthenticatedOctokit).
  const installationId = (options.auth as { installationId?: unknown } | undefined)?.installationId;
  const installation = typeof installationId === "number" || typeof installationId === "string" ? String(installationId) : "app";
  octokit.hook.wrap("request", async (request, requestOptions) => {
    const route = routeOf(requestOptions.method, requestOptions.url);
    try {
      const response = await request(requestOptions);
      count(route, installation, response);
      return response;
    } catch (error) {
      const failed = error as { status?: unknown; response?: Answer };
      // No response: GitHub never answered (Octokit still says 500 for a failed fetch): `error`.
      if (!failed.response) count(route, installation, {}, noAnswerReason(error));
      else count(route, installation, { ...failed.response, ...(typeof failed.status === "number" ? { status: failed.status } : {}) });
      throw error;
    }
  });
}

function count(route: string, installation: string, answer: Answer, failure?: string): void {
  observe({
    kind: "github-call",
    route,
    status: answer.status === undefined ? "error" : String(answer.status),
    ...(failure === undefined ? {} : { failure }),
  });
  const remaining = Number(answer.headers?.["x-ratelimit-remaining"]);
  if (answer.headers?.["x-ratelimit-remaining"] !== undefined && Number.isFinite(remaining))
    observe({ kind: "rate-limit", installation, remaining });
}

/**
 * `GET /repos/{owner}/{repo}/pulls/{pull_number}` as Octokit's endpoint methods give it. A full URL
 * (the next page of a paginated list, which has no template) becomes its path with the repository,
 * commit SHAs and numbers as placeholders and no query, so the label's values stay few.
 */
export function routeOf(method: string, url: string): string {
  if (!url.includes("://")) return `${method} ${url.split("?")[0]}`;
  const path = new URL(url).pathname
    .replace(/^\/api\/v3(?=\/)/, "")
    .replace(/^\/repos\/[^/]+\/[^/]+/, "/repos/{owner}/{repo}")
    .replace(/\/[0-9a-f]{40}(?=\/|$)/g, "/{sha}")
    .replace(/\/\d+(?=\/|$)/g, "/{id}");
  return `${method} ${path}`;
}
