/**
 * An Octokit plugin that counts GitHub API calls by route and status, and keeps the rate limit
 * GitHub says is left for the installation the Octokit acts for (ops/observations). It wraps the
 * other plugins (it is added last), so a call the retry plugin repeated counts once, with the
 * status it finally came to.
 */
import type { ProbotOctokit } from "probot";
import { observe } from "../../../ops/observations.js";

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
  logRetries(octokit);
}

/**
 * Each retry of the retry plugin at warn, with its wait: a GitHub that does not answer is otherwise
 * silent for as long as the retries take. The plugin asks `octokit.retry.retryRequest` for every
 * retry it schedules; its wait is `retryAfter` seconds (the plugin's base value is 1 s).
 */
function logRetries(octokit: Octokit): void {
  const retry = (octokit as unknown as { retry?: { retryRequest?: RetryRequest } }).retry;
  const original = retry?.retryRequest;
  if (!retry || !original) return;
  retry.retryRequest = (error, retries, retryAfter) => {
    const failed = error as {
      status?: number;
      response?: unknown;
      request?: { method?: string; url?: string; request?: { retryCount?: number } };
    };
    const done = failed.request?.request?.retryCount ?? 0;
    if (done < retries) {
      const route = routeOf(failed.request?.method ?? "", failed.request?.url ?? "");
      const what = failed.response ? `answered ${failed.status}` : `got no answer (${noAnswerReason(error)})`;
      octokit.log.warn(`GitHub ${route} ${what}: retry ${done + 1} of ${retries} in ${retryAfter} s`);
    }
    return original(error, retries, retryAfter);
  };
}

type RetryRequest = (error: unknown, retries: number, retryAfter: number) => unknown;

/** ENOTFOUND, ECONNREFUSED…: the code of the fetch failure under Octokit's error, or its message. */
export function noAnswerReason(error: unknown): string {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && code !== "") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
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
