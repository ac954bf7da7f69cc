/**
 * Repository-level endpoints: repository, pull requests, issue comments and reactions,
 * collaborator permission, contents, tarball, commits and branches.
 */
import { randomBytes } from "node:crypto";
import { HttpError, notFound, unprocessable, type ApiRequest, type Router } from "../router.js";
import { classicPermission, rolePermissions } from "../shapes.js";
import { isoNow, REACTION_CONTENTS, type IssueComment, type ReactionContent, type Repo } from "../state.js";
import { intParam, objectBody, paginate, type RouteContext } from "./context.js";

const MAX_COMMENT = 65536;

export function registerRepoRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes, git } = ctx;
  /** One-time download tokens for archive redirects, like codeload's `?token=`. */
  const downloads = new Map<string, { repo: Repo; sha: string }>();

  router.add("GET", "/repos/{owner}/{repo}", "installation", (req) => ({
    status: 200,
    body: shapes.repo(ctx.repo(req), { full: true, permissions: state.installedOn(ctx.repo(req)) ? "write" : "read" }),
  }));

  router.add("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", "installation", async (req) => {
    const pr = state.pull(ctx.repo(req), intParam(req.params.pull_number));
    if (!pr) throw notFound();
    return { status: 200, body: await ctx.pullJson(pr) };
  });

  // Commits in the head that the base lacks, oldest first (at most 250, as on GitHub).
  router.add("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/commits", "installation", async (req) => {
    const pr = state.pull(ctx.repo(req), intParam(req.params.pull_number));
    if (!pr) throw notFound();
    const { headSha, baseSha } = await ctx.pullShas(pr);
    const out = await git.run(pr.repo.gitDir, ["rev-list", "--reverse", "--topo-order", headSha, `^${baseSha}`]);
    const shas = out.stdout.toString("utf8").split("\n").filter(Boolean).slice(0, 250);
    const { page, headers } = paginate(shas, req, shapes.api);
    const commits = [];
    for (const sha of page) commits.push(shapes.commit(pr.repo, await git.readCommit(pr.repo.gitDir, sha), state.signedCommits.has(sha)));
    return { status: 200, body: commits, headers };
  });

  // ---- issue comments ----
  const commentJson = (c: IssueComment): Record<string, unknown> =>
    shapes.comment(c, {
      authorAssociation: ctx.authorAssociation(c.repo, c.user),
      reactions: state.reactions.filter((r) => r.commentId === c.id),
      viaApp: state.appOfBot(c.user),
    });

  const issueOr404 = (req: ApiRequest): { repo: Repo; number: number } => {
    const repo = ctx.repo(req);
    const number = intParam(req.params.issue_number);
    if (!state.pull(repo, number)) throw notFound();
    return { repo, number };
  };

  router.add("GET", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "installation", (req) => {
    const { repo, number } = issueOr404(req);
    const all = state.comments.filter((c) => c.repo === repo && c.issueNumber === number);
    const since = req.query.since ? Date.parse(req.query.since) : undefined;
    const filtered = since === undefined ? all : all.filter((c) => Date.parse(c.updatedAt) >= since);
    const { page, headers } = paginate(filtered, req, shapes.api);
    return { status: 200, body: page.map(commentJson), headers };
  });

  router.add("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "installation", (req) => {
    const { repo, number } = issueOr404(req);
    const body = objectBody(req).body;
    if (typeof body !== "string" || body.length === 0) {
      throw unprocessable("Validation Failed", { errors: [{ resource: "IssueComment", code: "missing_field", field: "body" }] });
    }
    if (body.length > MAX_COMMENT) {
      throw unprocessable("Validation Failed", {
        errors: [{ resource: "IssueComment", code: "custom", field: "body", message: "body is too long (maximum is 65536 characters)" }],
      });
    }
    const now = isoNow();
    const comment: IssueComment = {
      id: state.nextId("comment", 9_000_000),
      repo,
      issueNumber: number,
      user: ctx.appOf(req).bot,
      body,
      createdAt: now,
      updatedAt: now,
    };
    state.comments.push(comment);
    return {
      status: 201,
      body: commentJson(comment),
      headers: { location: `${shapes.api}/repos/${repo.fullName}/issues/comments/${comment.id}` },
    };
  });

  const commentOr404 = (req: ApiRequest): IssueComment => {
    const repo = ctx.repo(req);
    const id = intParam(req.params.comment_id);
    const c = state.comments.find((x) => x.repo === repo && x.id === id);
    if (!c) throw notFound();
    return c;
  };

  router.add("GET", "/repos/{owner}/{repo}/issues/comments/{comment_id}", "installation", (req) => ({
    status: 200,
    body: commentJson(commentOr404(req)),
  }));

  router.add("PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}", "installation", (req) => {
    const c = commentOr404(req);
    const body = objectBody(req).body;
    if (typeof body !== "string")
      throw unprocessable("Validation Failed", { errors: [{ resource: "IssueComment", code: "missing_field", field: "body" }] });
    if (c.user !== ctx.appOf(req).bot) throw new HttpError(403, "Resource not accessible by integration");
    c.body = body;
    c.updatedAt = isoNow();
    return { status: 200, body: commentJson(c) };
  });

  registerReactionRoutes(router, ctx, "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", (req) => commentOr404(req).id);

  // ---- permissions ----
  router.add("GET", "/repos/{owner}/{repo}/collaborators/{username}/permission", "installation", (req) => {
    const repo = ctx.repo(req);
    const login = req.params.username ?? "";
    const user = state.users.get(login.toLowerCase());
    if (!user) throw notFound();
    const role = state.role(repo, user.login);
    const permission = classicPermission(role);
    return {
      status: 200,
      body: {
        permission,
        role_name: role,
        user: { ...shapes.user(user), permissions: rolePermissions(role), role_name: role },
      },
    };
  });

  // ---- contents ----
  router.add("GET", "/repos/{owner}/{repo}/contents/{path+}", "installation", (req) => contents(req, req.params.path ?? ""));
  router.add("GET", "/repos/{owner}/{repo}/contents", "installation", (req) => contents(req, ""));

  async function contents(
    req: ApiRequest,
    filePath: string,
  ): Promise<{ status: number; body?: unknown; raw?: Buffer; headers?: Record<string, string> }> {
    const repo = ctx.repo(req);
    const ref = req.query.ref || repo.defaultBranch;
    const sha = await git.resolve(repo.gitDir, ref);
    if (!sha) throw new HttpError(404, `No commit found for the ref ${ref}`);
    const clean = filePath.replace(/^\/+|\/+$/g, "");
    const entry = await git.fileAt(repo.gitDir, sha, clean);
    if (!entry) throw notFound();
    const repoUrl = `${shapes.api}/repos/${repo.fullName}`;
    const item = (p: string, e: { sha: string; type: string; mode: string }, size: number): Record<string, unknown> => {
      const isDir = e.type === "tree";
      const self = `${repoUrl}/contents/${p}?ref=${encodeURIComponent(ref)}`;
      const html = `${shapes.web}/${repo.fullName}/${isDir ? "tree" : "blob"}/${ref}/${p}`;
      const gitUrl = `${repoUrl}/git/${isDir ? "trees" : "blobs"}/${e.sha}`;
      return {
        type: isDir ? "dir" : e.type === "commit" ? "submodule" : e.mode === "120000" ? "symlink" : "file",
        size,
        name: p.split("/").pop() ?? "",
        path: p,
        sha: e.sha,
        url: self,
        git_url: gitUrl,
        html_url: html,
        download_url: isDir ? null : `${shapes.web}/_emulator/raw/${repo.fullName}/${sha}/${p}`,
        _links: { self, git: gitUrl, html },
      };
    };
    if (entry.type === "tree") {
      const entries = await git.readTree(repo.gitDir, entry.sha);
      return {
        status: 200,
        body: entries.map((e) => item(clean ? `${clean}/${e.path}` : e.path, e, e.size ?? 0)),
      };
    }
    const content = await git.readBlob(repo.gitDir, entry.sha);
    const accept = String(req.headers.accept ?? "");
    if (/vnd\.github(\.v3)?\.raw/.test(accept)) {
      return { status: 200, raw: content, headers: { "content-type": "text/plain; charset=utf-8" } };
    }
    const json = item(clean, entry, content.length);
    if (entry.mode === "120000") json.target = content.toString("utf8");
    json.content = content.toString("base64").replace(/(.{60})/g, "$1\n") + "\n";
    json.encoding = "base64";
    return { status: 200, body: json };
  }

  // ---- archives ----
  router.add("GET", "/repos/{owner}/{repo}/tarball/{ref+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const sha = await git.resolve(repo.gitDir, req.params.ref ?? "");
    if (!sha) throw notFound();
    const token = randomBytes(12).toString("hex");
    downloads.set(token, { repo, sha });
    const location = `${shapes.web}/_emulator/codeload/${repo.fullName}/legacy.tar.gz/${sha}?token=${token}`;
    return { status: 302, headers: { location } };
  });

  router.add("GET", "/_emulator/codeload/{owner}/{repo}/legacy.tar.gz/{sha}", "none", async (req) => {
    const grant = downloads.get(req.query.token ?? "");
    if (!grant || grant.sha !== req.params.sha) throw notFound();
    const { repo, sha } = grant;
    const archive = await git.archive(repo.gitDir, sha, `${repo.owner.login}-${repo.name}-${sha.slice(0, 7)}`);
    return {
      status: 200,
      raw: archive,
      headers: {
        "content-type": "application/x-gzip",
        "content-disposition": `attachment; filename=${repo.owner.login}-${repo.name}-${sha.slice(0, 7)}.tar.gz`,
      },
    };
  });

  router.add("GET", "/_emulator/raw/{owner}/{repo}/{sha}/{path+}", "none", async (req) => {
    const repo = ctx.repo(req);
    const entry = await git.fileAt(repo.gitDir, req.params.sha ?? "", req.params.path ?? "");
    if (!entry || entry.type !== "blob") throw notFound();
    return { status: 200, raw: await git.readBlob(repo.gitDir, entry.sha), headers: { "content-type": "text/plain; charset=utf-8" } };
  });

  // ---- commits and branches ----
  router.add("GET", "/repos/{owner}/{repo}/commits/{ref+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const sha = await git.resolve(repo.gitDir, req.params.ref ?? "");
    if (!sha) throw unprocessable(`No commit found for SHA: ${req.params.ref}`);
    const info = await git.readCommit(repo.gitDir, sha);
    return { status: 200, body: shapes.commit(repo, info, state.signedCommits.has(sha)) };
  });

  router.add("GET", "/repos/{owner}/{repo}/branches/{branch+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const name = req.params.branch ?? "";
    const sha = await ctx.branchSha(repo, name);
    if (!sha) throw new HttpError(404, "Branch not found");
    const info = await git.readCommit(repo.gitDir, sha);
    const url = `${shapes.api}/repos/${repo.fullName}/branches/${name}`;
    return {
      status: 200,
      body: {
        name,
        commit: shapes.commit(repo, info, state.signedCommits.has(sha)),
        _links: { self: url, html: `${shapes.web}/${repo.fullName}/tree/${name}` },
        protected: false,
        protection: { enabled: false, required_status_checks: { enforcement_level: "off", contexts: [], checks: [] } },
        protection_url: `${url}/protection`,
      },
    };
  });
}

/**
 * GET and POST reactions of a comment at `path` (issue comments and review comments alike: their
 * ids never collide here); `commentOf` finds the comment or throws 404.
 */
export function registerReactionRoutes(router: Router, ctx: RouteContext, path: string, commentOf: (req: ApiRequest) => number): void {
  const { state, shapes } = ctx;
  router.add("GET", path, "installation", (req) => {
    const id = commentOf(req);
    const content = req.query.content;
    const list = state.reactions.filter((r) => r.commentId === id && (!content || r.content === content));
    const { page, headers } = paginate(list, req, shapes.api);
    return { status: 200, body: page.map((r) => shapes.reaction(r)), headers };
  });

  router.add("POST", path, "installation", (req) => {
    const id = commentOf(req);
    const content = objectBody(req).content;
    if (typeof content !== "string" || !REACTION_CONTENTS.includes(content as ReactionContent)) {
      throw unprocessable("Validation Failed", { errors: [{ resource: "Reaction", code: "invalid", field: "content" }] });
    }
    const existing = state.reactions.find((r) => r.commentId === id && r.user === ctx.appOf(req).bot && r.content === content);
    if (existing) return { status: 200, body: shapes.reaction(existing) };
    const reaction = {
      id: state.nextId("reaction", 80_000_000),
      commentId: id,
      user: ctx.appOf(req).bot,
      content: content as ReactionContent,
      createdAt: isoNow(),
    };
    state.reactions.push(reaction);
    return { status: 201, body: shapes.reaction(reaction) };
  });
}
