/**
 * Webhook deliveries: payloads built from @octokit/webhooks-examples and filled in from the
 * emulator's state, signed with `X-Hub-Signature-256`, and POSTed like GitHub's hookshot.
 */
import { createHmac, randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import type { RouteContext } from "./routes/context.js";
import { leftRanges, pullRequestFiles, rightRanges } from "./routes/reviews.js";
import { followThread } from "./threads.js";
import { isoNow, type IssueComment, type LineComment, type PullRequest, type Repo } from "./state.js";

export interface WebhookEvent {
  /** `X-GitHub-Event`, e.g. `issue_comment`. */
  name: string;
  /** Default delivery id (a redelivery reuses it). */
  id: string;
  payload: Record<string, unknown>;
}

export interface DeliveryResult {
  /** The server's status; 0 when it never answered (a delivery the emulator dropped). */
  status: number;
  body: string;
  deliveryId: string;
  durationMs: number;
  /** The server's response headers. */
  headers: Record<string, string>;
}

/** The headers GitHub sends with a delivery (also what `GET /app/hook/deliveries/{id}` shows). */
export function deliveryHeaders(event: WebhookEvent, deliveryId: string, body: string, signature: string): Record<string, string> {
  const installation = event.payload.installation as { id?: number } | undefined;
  return {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "user-agent": "GitHub-Hookshot/emulator",
    "x-github-event": event.name,
    "x-github-delivery": deliveryId,
    "x-github-hook-id": "1",
    "x-github-hook-installation-target-type": "integration",
    "x-github-hook-installation-target-id": String(installation?.id ?? ""),
    "x-hub-signature-256": signature,
  };
}

type Json = Record<string, unknown>;
interface ExampleGroup {
  name: string;
  examples: Json[];
}

let examples: ExampleGroup[] | undefined;

/** A deep copy of the first `name`/`action` example of @octokit/webhooks-examples. */
export function webhookExample(name: string, action?: string): Json {
  examples ??= createRequire(import.meta.url)("@octokit/webhooks-examples") as ExampleGroup[];
  const group = examples.find((g) => g.name === name);
  const example = group?.examples.find((e) => action === undefined || e.action === action);
  if (!example) throw new Error(`no webhook example for ${name}${action ? `.${action}` : ""}`);
  return structuredClone(example);
}

export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * POST a signed delivery; the body is serialised once and the signature covers exactly it. Each
 * delivery has its own connection, as GitHub's are: a kept-alive socket the server closes while
 * idle would fail a delivery with "other side closed" on a loaded machine.
 */
export async function deliverWebhook(
  url: string,
  event: WebhookEvent,
  opts: { secret: string; deliveryId?: string; signature?: string; timeoutMs?: number },
): Promise<DeliveryResult> {
  const body = JSON.stringify(event.payload);
  const deliveryId = opts.deliveryId ?? event.id;
  const started = Date.now();
  const headers = deliveryHeaders(event, deliveryId, body, opts.signature ?? signWebhook(opts.secret, body));
  const { status, text, responseHeaders } = await new Promise<{ status: number; text: string; responseHeaders: Record<string, string> }>(
    (resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers, agent: false, timeout: opts.timeoutMs ?? 10_000 }, (res) => {
        const chunks: Buffer[] = [];
        const responseHeaders = Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, String(value)]));
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), responseHeaders }));
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy(new Error(`webhook delivery to ${url} timed out`)));
      req.on("error", reject);
      req.end(body);
    },
  );
  return { status, body: text, deliveryId, durationMs: Date.now() - started, headers: responseHeaders };
}

/** Builds payloads that agree with the emulator's state (ids, shas, users, installation). */
export class WebhookFactory {
  constructor(private readonly ctx: RouteContext) {}

  private common(repo: Repo, senderLogin: string): Json {
    const { state, shapes } = this.ctx;
    const out: Json = {
      repository: shapes.repo(repo),
      sender: shapes.user(state.user(senderLogin)),
      installation: { id: state.installation.id, node_id: Buffer.from(`0:Installation${state.installation.id}`).toString("base64") },
      organization: undefined, // replaced below for organisations; drops the example's otherwise
    };
    if (repo.owner.type === "Organization") {
      const o = shapes.user(repo.owner);
      out.organization = {
        login: o.login,
        id: o.id,
        node_id: o.node_id,
        url: `${shapes.api}/orgs/${repo.owner.login}`,
        repos_url: `${shapes.api}/orgs/${repo.owner.login}/repos`,
        events_url: `${shapes.api}/orgs/${repo.owner.login}/events`,
        hooks_url: `${shapes.api}/orgs/${repo.owner.login}/hooks`,
        issues_url: `${shapes.api}/orgs/${repo.owner.login}/issues`,
        members_url: `${shapes.api}/orgs/${repo.owner.login}/members{/member}`,
        public_members_url: `${shapes.api}/orgs/${repo.owner.login}/public_members{/member}`,
        avatar_url: o.avatar_url,
        description: null,
      };
    }
    return out;
  }

  private pr(fullName: string, number: number): PullRequest {
    const [owner = "", name = ""] = fullName.split("/");
    const repo = this.ctx.state.repo(owner, name);
    const pr = repo && this.ctx.state.pull(repo, number);
    if (!pr) throw new Error(`no pull request ${fullName}#${number}`);
    return pr;
  }

  /**
   * `issue_comment.created` on a pull request. The comment is also created in the emulator
   * (as `user`), so the app can react to it or read it back.
   */
  issueComment(opts: {
    repo: string;
    number: number;
    body: string;
    user: string;
    action?: "created" | "edited" | "deleted";
  }): WebhookEvent & {
    commentId: number;
  } {
    const { state, shapes } = this.ctx;
    const pr = this.pr(opts.repo, opts.number);
    const user = state.user(opts.user);
    const now = isoNow();
    const comment: IssueComment = {
      id: state.nextId("comment", 9_000_000),
      repo: pr.repo,
      issueNumber: pr.number,
      user,
      body: opts.body,
      createdAt: now,
      updatedAt: now,
    };
    state.comments.push(comment);
    const example = webhookExample("issue_comment", "created");
    const authorAssociation = this.ctx.authorAssociation(pr.repo, user);
    const commentJson = shapes.comment(comment, { authorAssociation, reactions: [] });
    const payload: Json = {
      ...example,
      action: opts.action ?? "created",
      issue: { ...(example.issue as Json), ...shapes.issueOfPull(pr, this.ctx.authorAssociation(pr.repo, pr.user)) },
      comment: { ...(example.comment as Json), ...commentJson },
      ...this.common(pr.repo, opts.user),
    };
    if (!payload.organization) delete payload.organization;
    return { name: "issue_comment", id: randomUUID(), payload, commentId: comment.id };
  }

  /**
   * `pull_request_review_comment.created`: `user` comments on `line` (through `startLine` for a
   * range) of `path` in the pull request's diff, on the head's side (RIGHT) unless `side` says
   * LEFT; or replies in the thread of `inReplyTo`, which carries the thread's lines as the commits
   * since its start left them (threads.ts). The lines must be part of the diff, as on GitHub.
   * `outdated`: the comment was written on an earlier diff and its lines are no longer in it
   * (GitHub then sends `line` and `position` as null). The comment is created in the emulator.
   */
  async reviewComment(opts: {
    repo: string;
    number: number;
    user: string;
    body: string;
    path?: string;
    line?: number;
    startLine?: number;
    side?: "LEFT" | "RIGHT";
    inReplyTo?: number;
    outdated?: boolean;
  }): Promise<WebhookEvent & { commentId: number }> {
    const { state, shapes } = this.ctx;
    const pr = this.pr(opts.repo, opts.number);
    const user = state.user(opts.user);
    const now = isoNow();
    const { headSha } = await this.ctx.pullShas(pr);
    const thread = opts.inReplyTo === undefined ? undefined : state.lineComments.find((c) => c.id === opts.inReplyTo);
    if (opts.inReplyTo !== undefined && (!thread || thread.inReplyTo !== null)) throw new Error(`no thread starts at ${opts.inReplyTo}`);
    // A reply carries its thread's lines as they are now: moved, or outdated by the commits since.
    if (thread) await followThread(this.ctx, pr, thread);
    const base = thread ?? (await this.newThread(pr, opts));
    const comment: LineComment = {
      ...base,
      id: state.nextId("review_comment", 70_000_000),
      user,
      body: opts.body,
      inReplyTo: thread ? thread.id : null,
      reviewId: state.nextId("review", 80_000_000),
      commitId: thread?.commitId ?? headSha,
      originalCommitId: thread?.originalCommitId ?? headSha,
      createdAt: now,
      updatedAt: now,
    };
    if (opts.outdated) Object.assign(comment, { line: null, startLine: null });
    state.lineComments.push(comment);
    const example = webhookExample("pull_request_review_comment", "created");
    const authorAssociation = this.ctx.authorAssociation(pr.repo, user);
    const commentJson = shapes.lineComment(comment, { authorAssociation, reactions: [], rest: false });
    const payload: Json = {
      ...example,
      action: "created",
      comment: { ...(example.comment as Json), ...commentJson },
      pull_request: await this.pullOfReview(pr, example),
      ...this.common(pr.repo, opts.user),
    };
    if (!payload.organization) delete payload.organization;
    return { name: "pull_request_review_comment", id: randomUUID(), payload, commentId: comment.id };
  }

  /** A new thread's position: checked against the diff, as GitHub refuses lines outside it. */
  private async newThread(
    pr: PullRequest,
    opts: { path?: string; line?: number; startLine?: number; side?: "LEFT" | "RIGHT" },
  ): Promise<
    Omit<LineComment, "id" | "user" | "body" | "inReplyTo" | "reviewId" | "commitId" | "originalCommitId" | "createdAt" | "updatedAt">
  > {
    const { path, line } = opts;
    if (path === undefined || line === undefined) throw new Error("a review comment needs a path and a line (or inReplyTo)");
    const side = opts.side ?? "RIGHT";
    const startLine = opts.startLine ?? line;
    const file = (await pullRequestFiles(this.ctx, pr)).find((each) => each.filename === path);
    const ranges = side === "RIGHT" ? rightRanges(file?.patch) : leftRanges(file?.patch);
    if (!ranges.some(([from, to]) => startLine >= from && line <= to && startLine <= line)) {
      throw new Error(`${path}:${startLine}-${line} (${side}) is not part of the diff of ${pr.repo.fullName}#${pr.number}`);
    }
    const hunk = (file?.patch ?? "").split("\n");
    return {
      repo: pr.repo,
      number: pr.number,
      path,
      line,
      startLine: startLine === line ? null : startLine,
      originalLine: line,
      originalStartLine: startLine === line ? null : startLine,
      side,
      diffHunk: hunk.slice(0, Math.min(hunk.length, 4)).join("\n"),
    };
  }

  /**
   * `pull_request_review.submitted`: `user` submits a review of the pull request with `body`
   * (\`state\`: commented, approved or changes_requested).
   */
  async reviewSubmitted(opts: {
    repo: string;
    number: number;
    user: string;
    body: string | null;
    state?: "commented" | "approved" | "changes_requested";
  }): Promise<WebhookEvent & { reviewId: number }> {
    const { state, shapes } = this.ctx;
    const pr = this.pr(opts.repo, opts.number);
    const user = state.user(opts.user);
    const { headSha } = await this.ctx.pullShas(pr);
    const id = state.nextId("review", 80_000_000);
    const example = webhookExample("pull_request_review", "submitted");
    const html = `${shapes.web}/${pr.repo.fullName}/pull/${pr.number}#pullrequestreview-${id}`;
    const pullUrl = `${shapes.api}/repos/${pr.repo.fullName}/pulls/${pr.number}`;
    const review = {
      ...(example.review as Json),
      id,
      node_id: Buffer.from(`0:PullRequestReview${id}`).toString("base64"),
      user: shapes.user(user),
      body: opts.body,
      commit_id: headSha,
      submitted_at: isoNow(),
      state: opts.state ?? "commented",
      html_url: html,
      pull_request_url: pullUrl,
      author_association: this.ctx.authorAssociation(pr.repo, user),
      _links: { html: { href: html }, pull_request: { href: pullUrl } },
    };
    const payload: Json = {
      ...example,
      action: "submitted",
      review,
      pull_request: await this.pullOfReview(pr, example),
      ...this.common(pr.repo, opts.user),
    };
    if (!payload.organization) delete payload.organization;
    return { name: "pull_request_review", id: randomUUID(), payload, reviewId: id };
  }

  /** The `pull_request` of review events: the example's fields, then the pull request's own. */
  private async pullOfReview(pr: PullRequest, example: Json): Promise<Json> {
    const prJson = await this.ctx.pullJson(pr);
    return { ...(example.pull_request as Json), ...prJson };
  }

  /**
   * `issue_comment.edited`: the author changes comment `commentId` to `body`; `changes.body.from`
   * holds the text before, as GitHub sends it. The comment is changed in the emulator too.
   */
  issueCommentEdited(opts: { repo: string; commentId: number; body: string }): WebhookEvent {
    const { state, shapes } = this.ctx;
    const comment = state.comments.find((c) => c.id === opts.commentId && c.repo.fullName.toLowerCase() === opts.repo.toLowerCase());
    if (!comment) throw new Error(`no comment ${opts.commentId} in ${opts.repo}`);
    const pr = this.pr(opts.repo, comment.issueNumber);
    const from = comment.body;
    comment.body = opts.body;
    comment.updatedAt = isoNow();
    const example = webhookExample("issue_comment", "edited");
    const reactions = state.reactions.filter((r) => r.commentId === comment.id);
    const commentJson = shapes.comment(comment, { authorAssociation: this.ctx.authorAssociation(pr.repo, comment.user), reactions });
    const payload: Json = {
      ...example,
      action: "edited",
      changes: { body: { from } },
      issue: { ...(example.issue as Json), ...shapes.issueOfPull(pr, this.ctx.authorAssociation(pr.repo, pr.user)) },
      comment: { ...(example.comment as Json), ...commentJson },
      ...this.common(pr.repo, comment.user.login),
    };
    if (!payload.organization) delete payload.organization;
    return { name: "issue_comment", id: randomUUID(), payload };
  }

  /** `check_run.requested_action`: a user clicked an action button of one of the app's runs. */
  async checkRunRequestedAction(opts: { repo: string; checkRunId: number; identifier: string; user: string }): Promise<WebhookEvent> {
    const event = await this.checkRun({ ...opts, action: "requested_action" });
    event.payload.requested_action = { identifier: opts.identifier };
    return event;
  }

  /**
   * `check_run.<action>`: `completed` (GitHub sends it when it marks a run stale), `rerequested`
   * (the Re-run button), `requested_action` (see above).
   */
  async checkRun(opts: {
    repo: string;
    checkRunId: number;
    action: "completed" | "rerequested" | "requested_action";
    user: string;
  }): Promise<WebhookEvent> {
    const { state, shapes } = this.ctx;
    const run = state.checkRuns.find((r) => r.id === opts.checkRunId && r.repo.fullName.toLowerCase() === opts.repo.toLowerCase());
    if (!run) throw new Error(`no check run ${opts.checkRunId} in ${opts.repo}`);
    const example = webhookExample("check_run", opts.action);
    const pulls = await this.ctx.pullsAtHead(run.repo, run.headSha);
    const runJson = shapes.checkRun(run, state.app, pulls);
    const exampleRun = example.check_run as Json;
    const checkSuite = {
      ...(exampleRun.check_suite as Json),
      ...this.suiteJson(run.repo, run.headSha, run.checkSuiteId, pulls[0]?.pr.headRef ?? null),
      status: run.status,
      conclusion: run.conclusion,
      pull_requests: runJson.pull_requests,
      created_at: run.createdAt,
      updated_at: run.completedAt ?? run.startedAt,
    };
    const payload: Json = {
      ...example,
      action: opts.action,
      check_run: { ...exampleRun, ...runJson, check_suite: checkSuite },
      ...this.common(run.repo, opts.user),
    };
    delete payload.requested_action;
    if (!payload.organization) delete payload.organization;
    return { name: "check_run", id: randomUUID(), payload };
  }

  private suiteJson(repo: Repo, sha: string, id: number, headBranch: string | null): Json {
    const { state, shapes } = this.ctx;
    return {
      id,
      node_id: Buffer.from(`0:CheckSuite${id}`).toString("base64"),
      head_branch: headBranch,
      head_sha: sha,
      url: `${shapes.api}/repos/${repo.fullName}/check-suites/${id}`,
      before: null,
      after: sha,
      app: shapes.app(state.app),
    };
  }

  /**
   * `check_suite.requested` (GitHub sends it to apps with checks permission for every push) or
   * `rerequested` (Re-run all). `pull_requests` lists the open same-repository PRs at that head.
   */
  async checkSuite(opts: { repo: string; sha: string; action: "requested" | "rerequested"; user: string }): Promise<WebhookEvent> {
    const { state, shapes } = this.ctx;
    const [owner = "", name = ""] = opts.repo.split("/");
    const repo = state.repo(owner, name);
    if (!repo) throw new Error(`no repository ${opts.repo}`);
    const example = webhookExample("check_suite", opts.action);
    const pulls = await this.ctx.pullsAtHead(repo, opts.sha);
    const id = state.checkSuiteId(repo, opts.sha, state.app.id);
    const payload: Json = {
      ...example,
      action: opts.action,
      check_suite: {
        ...(example.check_suite as Json),
        ...this.suiteJson(repo, opts.sha, id, pulls[0]?.pr.headRef ?? null),
        status: "queued",
        conclusion: null,
        pull_requests: shapes.pullRefs(pulls),
        created_at: isoNow(),
        updated_at: isoNow(),
      },
      ...this.common(repo, opts.user),
    };
    if (!payload.organization) delete payload.organization;
    return { name: "check_suite", id: randomUUID(), payload };
  }

  /** `pull_request.<action>` (synchronize carries `before`/`after`). */
  async pullRequest(opts: {
    repo: string;
    number: number;
    action: "opened" | "synchronize" | "closed" | "reopened" | "edited";
    user?: string;
    before?: string;
    after?: string;
  }): Promise<WebhookEvent> {
    const pr = this.pr(opts.repo, opts.number);
    const example = webhookExample("pull_request", opts.action === "edited" ? "opened" : opts.action);
    const prJson = await this.ctx.pullJson(pr);
    const payload: Json = {
      ...example,
      action: opts.action,
      number: pr.number,
      pull_request: { ...(example.pull_request as Json), ...prJson },
      ...this.common(pr.repo, opts.user ?? pr.user.login),
    };
    if (opts.action === "synchronize") {
      payload.before = opts.before ?? null;
      payload.after = opts.after ?? (prJson.head as Json).sha;
    } else {
      delete payload.before;
      delete payload.after;
    }
    if (opts.action === "edited") payload.changes = {};
    if (!payload.organization) delete payload.organization;
    return { name: "pull_request", id: randomUUID(), payload };
  }
}
