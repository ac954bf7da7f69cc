/**
 * Check runs: create, update (annotations append), get, list per ref with GitHub's filters,
 * and GitHub's size limits on output, annotations and actions.
 */
import { HttpError, notFound, type Router } from "../router.js";
import { isoNow, type Annotation, type CheckAction, type CheckRun, type Repo } from "../state.js";
import { intParam, objectBody, paginate, type RouteContext } from "./context.js";

export const CHECK_LIMITS = {
  outputChars: 65535,
  annotationsPerRequest: 50,
  annotationTitle: 255,
  actions: 3,
  actionLabel: 20,
  actionDescription: 40,
  actionIdentifier: 20,
} as const;

const STATUSES = ["queued", "in_progress", "completed"] as const;
const CONCLUSIONS = ["action_required", "cancelled", "failure", "neutral", "success", "skipped", "timed_out"] as const;
const LEVELS = ["notice", "warning", "failure"] as const;

function invalid(detail: string): HttpError {
  return new HttpError(422, `Invalid request.\n\n${detail}`);
}

function optString(body: Record<string, unknown>, key: string): string | null | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== "string") throw invalid(`For 'properties/${key}', ${JSON.stringify(v)} is not a string.`);
  return v;
}

function optDate(body: Record<string, unknown>, key: string): string | undefined {
  const v = optString(body, key);
  if (v === undefined || v === null) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) throw invalid(`For 'properties/${key}', "${v}" is not a date-time.`);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function checkLength(what: string, value: unknown, max: number): void {
  if (typeof value === "string" && value.length > max) {
    throw invalid(`Only ${max} characters are allowed; ${value.length} were supplied. (${what})`);
  }
}

interface ParsedOutput {
  output?: { title: string | null; summary: string | null; text: string | null };
  annotations: Annotation[];
}

function parseOutput(raw: unknown): ParsedOutput {
  if (raw === undefined) return { annotations: [] };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw invalid("For 'properties/output', it is not an object.");
  const o = raw as Record<string, unknown>;
  if (typeof o.title !== "string") throw invalid(`"title" wasn't supplied.`);
  if (typeof o.summary !== "string") throw invalid(`"summary" wasn't supplied.`);
  if (o.text !== undefined && o.text !== null && typeof o.text !== "string") throw invalid("For 'properties/text', it is not a string.");
  checkLength("output.title", o.title, CHECK_LIMITS.outputChars);
  checkLength("output.summary", o.summary, CHECK_LIMITS.outputChars);
  checkLength("output.text", o.text, CHECK_LIMITS.outputChars);
  const rawAnnotations = o.annotations ?? [];
  if (!Array.isArray(rawAnnotations)) throw invalid("For 'properties/annotations', it is not an array.");
  if (rawAnnotations.length > CHECK_LIMITS.annotationsPerRequest) {
    throw invalid(
      `For 'properties/annotations', ${rawAnnotations.length} items were supplied; at most ${CHECK_LIMITS.annotationsPerRequest} are allowed.`,
    );
  }
  const annotations = rawAnnotations.map((a: unknown, i): Annotation => {
    const x = (a ?? {}) as Record<string, unknown>;
    for (const k of ["path", "message", "annotation_level"]) {
      if (typeof x[k] !== "string") throw invalid(`"${k}" wasn't supplied. (annotations[${i}])`);
    }
    for (const k of ["start_line", "end_line"]) {
      if (!Number.isInteger(x[k])) throw invalid(`"${k}" wasn't supplied. (annotations[${i}])`);
    }
    if (!LEVELS.includes(x.annotation_level as (typeof LEVELS)[number])) {
      throw invalid(`For 'properties/annotation_level', "${String(x.annotation_level)}" is not one of notice, warning, failure.`);
    }
    checkLength(`annotations[${i}].title`, x.title, CHECK_LIMITS.annotationTitle);
    checkLength(`annotations[${i}].message`, x.message, 64 * 1024);
    const sameLine = x.start_line === x.end_line;
    return {
      path: x.path as string,
      start_line: x.start_line as number,
      end_line: x.end_line as number,
      ...(sameLine && Number.isInteger(x.start_column) ? { start_column: x.start_column as number } : {}),
      ...(sameLine && Number.isInteger(x.end_column) ? { end_column: x.end_column as number } : {}),
      annotation_level: x.annotation_level as Annotation["annotation_level"],
      message: x.message as string,
      ...(typeof x.title === "string" ? { title: x.title } : {}),
      ...(typeof x.raw_details === "string" ? { raw_details: x.raw_details } : {}),
    };
  });
  return {
    output: { title: o.title, summary: o.summary, text: typeof o.text === "string" ? o.text : null },
    annotations,
  };
}

function parseActions(raw: unknown): CheckAction[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw invalid("For 'properties/actions', it is not an array.");
  if (raw.length > CHECK_LIMITS.actions) {
    throw invalid(`For 'properties/actions', ${raw.length} items were supplied; at most ${CHECK_LIMITS.actions} are allowed.`);
  }
  return raw.map((a: unknown, i) => {
    const x = (a ?? {}) as Record<string, unknown>;
    const limits = {
      label: CHECK_LIMITS.actionLabel,
      description: CHECK_LIMITS.actionDescription,
      identifier: CHECK_LIMITS.actionIdentifier,
    };
    for (const [k, max] of Object.entries(limits)) {
      if (typeof x[k] !== "string") throw invalid(`"${k}" wasn't supplied. (actions[${i}])`);
      checkLength(`actions[${i}].${k}`, x[k], max);
    }
    return { label: x.label as string, description: x.description as string, identifier: x.identifier as string };
  });
}

/** Apply status/conclusion/timestamps of a create or update body to a run. */
function applyLifecycle(run: CheckRun, body: Record<string, unknown>, creating: boolean): void {
  const status = optString(body, "status");
  const conclusion = optString(body, "conclusion");
  if (status !== undefined && status !== null && !STATUSES.includes(status as (typeof STATUSES)[number])) {
    throw invalid(`For 'properties/status', "${status}" is not one of queued, in_progress, completed.`);
  }
  if (conclusion !== undefined && conclusion !== null && !CONCLUSIONS.includes(conclusion as (typeof CONCLUSIONS)[number])) {
    throw invalid(`For 'properties/conclusion', "${conclusion}" is not one of ${CONCLUSIONS.join(", ")}.`);
  }
  const startedAt = optDate(body, "started_at");
  const completedAt = optDate(body, "completed_at");
  if (startedAt) run.startedAt = startedAt;
  if (conclusion) {
    run.status = "completed";
    run.conclusion = conclusion;
    run.completedAt = completedAt ?? run.completedAt ?? isoNow();
  } else if (status === "completed") {
    if (!run.conclusion) throw invalid(`"conclusion" wasn't supplied.`);
    run.status = "completed";
    run.completedAt = completedAt ?? run.completedAt ?? isoNow();
  } else if (status) {
    run.status = status as CheckRun["status"];
    run.conclusion = null;
    run.completedAt = null;
  } else if (creating) {
    run.status = "queued";
  }
}

export function registerCheckRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes, git } = ctx;

  /** `pulls` memoises the PR lookup per head sha within one request. */
  const runJson = async (
    run: CheckRun,
    pulls = new Map<string, ReturnType<RouteContext["pullsAtHead"]>>(),
  ): Promise<Record<string, unknown>> => {
    if (!pulls.has(run.headSha)) pulls.set(run.headSha, ctx.pullsAtHead(run.repo, run.headSha));
    return shapes.checkRun(run, state.appById(run.appId) ?? state.app, await pulls.get(run.headSha)!);
  };

  const runOr404 = (repo: Repo, id: number): CheckRun => {
    const run = state.checkRuns.find((r) => r.repo === repo && r.id === id);
    if (!run) throw notFound();
    return run;
  };

  router.add("POST", "/repos/{owner}/{repo}/check-runs", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const body = objectBody(req);
    const name = optString(body, "name");
    if (!name) throw invalid(`"name" wasn't supplied.`);
    const headSha = optString(body, "head_sha");
    if (!headSha) throw invalid(`"head_sha" wasn't supplied.`);
    if ((await git.objectType(repo.gitDir, headSha)) !== "commit" || headSha.length !== 40) {
      throw new HttpError(422, `No commit found for SHA: ${headSha}`);
    }
    const { output, annotations } = parseOutput(body.output);
    const app = ctx.appOf(req);
    const run: CheckRun = {
      id: state.nextId("check_run", 30_000_000),
      repo,
      appId: app.id,
      checkSuiteId: state.checkSuiteId(repo, headSha, app.id),
      headSha,
      name,
      createdAt: isoNow(),
      status: "queued",
      conclusion: null,
      startedAt: isoNow(),
      completedAt: null,
      externalId: optString(body, "external_id") ?? null,
      detailsUrl: optString(body, "details_url") ?? null,
      output: output ?? { title: null, summary: null, text: null },
      annotations,
      actions: parseActions(body.actions) ?? [],
    };
    applyLifecycle(run, body, true);
    state.checkRuns.push(run);
    return { status: 201, body: await runJson(run) };
  });

  router.add("PATCH", "/repos/{owner}/{repo}/check-runs/{check_run_id}", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const run = runOr404(repo, intParam(req.params.check_run_id));
    const app = ctx.appOf(req);
    if (run.appId !== app.id) throw new HttpError(403, "Invalid app_id `" + app.id + "` - check run can only be modified by its creator.");
    const body = objectBody(req);
    const { output, annotations } = parseOutput(body.output);
    const actions = parseActions(body.actions);
    const name = optString(body, "name");
    const next: CheckRun = { ...run, output: { ...run.output } };
    applyLifecycle(next, body, false);
    if (name) next.name = name;
    const externalId = optString(body, "external_id");
    if (externalId !== undefined) next.externalId = externalId;
    const detailsUrl = optString(body, "details_url");
    if (detailsUrl !== undefined) next.detailsUrl = detailsUrl;
    if (output) next.output = output;
    next.annotations = [...run.annotations, ...annotations];
    if (actions) next.actions = actions;
    Object.assign(run, next);
    return { status: 200, body: await runJson(run) };
  });

  router.add("GET", "/repos/{owner}/{repo}/check-runs/{check_run_id}", "installation", async (req) => {
    const run = runOr404(ctx.repo(req), intParam(req.params.check_run_id));
    return { status: 200, body: await runJson(run) };
  });

  router.add("GET", "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations", "installation", (req) => {
    const run = runOr404(ctx.repo(req), intParam(req.params.check_run_id));
    const { page, headers } = paginate(run.annotations, req, shapes.api);
    return { status: 200, body: page.map((a) => shapes.annotation(run, a)), headers };
  });

  router.add("GET", "/repos/{owner}/{repo}/commits/{ref+}/check-runs", "installation", async (req) => {
    const repo = ctx.repo(req);
    const ref = req.params.ref ?? "";
    const sha = await git.resolve(repo.gitDir, ref);
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`);
    const q = req.query;
    const filter = q.filter ?? "latest";
    if (filter !== "latest" && filter !== "all") throw invalid(`For 'properties/filter', "${filter}" is not one of latest, all.`);
    // Newest first; `latest` keeps the newest run per (app, name) before the other filters apply.
    let runs = state.checkRuns.filter((r) => r.repo === repo && r.headSha === sha).sort((a, b) => b.id - a.id);
    if (filter === "latest") {
      const seen = new Set<string>();
      runs = runs.filter((r) => {
        const key = `${r.appId}\0${r.name}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    if (q.check_name !== undefined) runs = runs.filter((r) => r.name === q.check_name);
    if (q.status !== undefined) runs = runs.filter((r) => r.status === q.status);
    if (q.app_id !== undefined) runs = runs.filter((r) => String(r.appId) === q.app_id);
    const { page, headers } = paginate(runs, req, shapes.api);
    const pulls = new Map<string, ReturnType<RouteContext["pullsAtHead"]>>();
    return { status: 200, body: { total_count: runs.length, check_runs: await Promise.all(page.map((r) => runJson(r, pulls))) }, headers };
  });
}
