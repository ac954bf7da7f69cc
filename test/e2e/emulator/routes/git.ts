/**
 * The Git Data API over real bare repositories: blobs, trees, commits and refs, including
 * fast-forward enforcement and the `workflows` permission check on ref updates.
 */
import { isSha, ZERO_SHA, type GitIdentity, type TreeOp } from "../git-store.js";
import { notFound, unprocessable, type ApiRequest, type Router } from "../router.js";
import type { Repo } from "../state.js";
import { objectBody, type RouteContext } from "./context.js";

const MODES: Record<string, "blob" | "tree" | "commit"> = {
  "100644": "blob",
  "100755": "blob",
  "120000": "blob",
  "040000": "tree",
  "160000": "commit",
};

function validPath(p: string): boolean {
  return p.length > 0 && p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== ".." && seg !== ".git");
}

function identity(raw: unknown, field: string): GitIdentity | undefined {
  if (raw === undefined) return undefined;
  const x = (raw ?? {}) as Record<string, unknown>;
  if (typeof x.name !== "string" || typeof x.email !== "string") {
    throw unprocessable(`Invalid request.\n\n"name" and "email" are required for ${field}.`);
  }
  if (x.date !== undefined && (typeof x.date !== "string" || Number.isNaN(Date.parse(x.date)))) {
    throw unprocessable(`Invalid request.\n\nFor 'properties/date', ${JSON.stringify(x.date)} is not a date-time. (${field})`);
  }
  return { name: x.name, email: x.email, ...(typeof x.date === "string" ? { date: x.date } : {}) };
}

export function registerGitRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes, git } = ctx;
  const repoUrl = (repo: Repo): string => `${shapes.api}/repos/${repo.fullName}`;

  // ---- blobs ----
  router.add("POST", "/repos/{owner}/{repo}/git/blobs", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const body = objectBody(req);
    if (typeof body.content !== "string") throw unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
    const encoding = body.encoding ?? "utf-8";
    if (encoding !== "utf-8" && encoding !== "utf8" && encoding !== "base64") {
      throw unprocessable(`encoding must be either 'utf-8' or 'base64'`);
    }
    const content = Buffer.from(body.content, encoding === "base64" ? "base64" : "utf8");
    const sha = await git.writeBlob(repo.gitDir, content);
    return {
      status: 201,
      body: { url: `${repoUrl(repo)}/git/blobs/${sha}`, sha },
      headers: { location: `${repoUrl(repo)}/git/blobs/${sha}` },
    };
  });

  router.add("GET", "/repos/{owner}/{repo}/git/blobs/{file_sha}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const sha = req.params.file_sha ?? "";
    if (!isSha(sha) || (await git.objectType(repo.gitDir, sha)) !== "blob") throw notFound();
    const content = await git.readBlob(repo.gitDir, sha);
    return {
      status: 200,
      body: {
        sha,
        node_id: Buffer.from(`0:Blob${repo.id}:${sha}`).toString("base64"),
        size: content.length,
        url: `${repoUrl(repo)}/git/blobs/${sha}`,
        content: content.toString("base64").replace(/(.{60})/g, "$1\n") + "\n",
        encoding: "base64",
      },
    };
  });

  // ---- trees ----
  const treeJson = async (repo: Repo, sha: string, recursive: boolean): Promise<Record<string, unknown>> => {
    const entries = await git.readTree(repo.gitDir, sha, recursive);
    return {
      sha,
      url: `${repoUrl(repo)}/git/trees/${sha}`,
      tree: entries.map((e) => ({
        path: e.path,
        mode: e.mode,
        type: e.type,
        sha: e.sha,
        ...(e.type === "blob" ? { size: e.size } : {}),
        ...(e.type === "commit" ? {} : { url: `${repoUrl(repo)}/git/${e.type}s/${e.sha}` }),
      })),
      truncated: false,
    };
  };

  router.add("POST", "/repos/{owner}/{repo}/git/trees", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const body = objectBody(req);
    if (!Array.isArray(body.tree)) throw unprocessable('Invalid request.\n\n"tree" wasn\'t supplied.');
    let base: string | undefined;
    if (body.base_tree !== undefined && body.base_tree !== null) {
      if (typeof body.base_tree !== "string") throw unprocessable("Invalid request.\n\nFor 'properties/base_tree', it is not a string.");
      base = await git.resolve(repo.gitDir, body.base_tree, "tree");
      if (!base || !isSha(body.base_tree)) throw unprocessable(`Invalid tree info: base_tree ${body.base_tree} is not a valid tree`);
    }
    const ops: TreeOp[] = [];
    for (const [i, raw] of (body.tree as unknown[]).entries()) {
      const e = (raw ?? {}) as Record<string, unknown>;
      const where = `tree[${i}]`;
      if (typeof e.path !== "string" || !validPath(e.path)) throw unprocessable(`${where}.path contains a malformed path component`);
      const mode = typeof e.mode === "string" ? e.mode : "";
      const kind = MODES[mode];
      if (!kind)
        throw unprocessable(`Invalid request.\n\n${where}.mode "${String(e.mode)}" is not one of 100644, 100755, 040000, 160000, 120000.`);
      if (e.type !== undefined && e.type !== kind) {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- GitHub echoes the raw JSON value
        throw unprocessable(`Invalid tree info: ${where}.type "${String(e.type)}" does not match mode ${mode}`);
      }
      const hasSha = "sha" in e;
      const hasContent = "content" in e && e.content !== undefined;
      if (hasSha && hasContent) {
        throw unprocessable(`Invalid tree info: ${where} must supply either tree.sha or tree.content, not both`);
      }
      if (hasSha && e.sha === null) {
        ops.push({ path: e.path, delete: true });
      } else if (hasSha) {
        const sha = e.sha;
        if (typeof sha !== "string" || !isSha(sha)) throw unprocessable(`${where}.sha ${String(sha)} is not a valid ${kind}`);
        // Submodule entries point at commits of other repositories: only blobs and trees must exist here.
        if (kind !== "commit" && (await git.objectType(repo.gitDir, sha)) !== kind) {
          throw unprocessable(`${where}.sha ${sha} is not a valid ${kind}`);
        }
        ops.push(kind === "tree" ? { path: e.path, mode: "040000", type: "tree", sha } : { path: e.path, mode, type: kind, sha });
      } else if (hasContent) {
        if (typeof e.content !== "string")
          throw unprocessable(`Invalid request.\n\nFor 'properties/content', it is not a string. (${where})`);
        if (kind !== "blob") throw unprocessable(`Invalid tree info: ${where}.content needs a blob mode`);
        const sha = await git.writeBlob(repo.gitDir, Buffer.from(e.content, "utf8"));
        ops.push({ path: e.path, mode, type: "blob", sha });
      } else {
        throw unprocessable(`Invalid tree info: ${where} must supply either tree.sha or tree.content`);
      }
    }
    const sha = await git.buildTree(repo.gitDir, base, ops);
    return { status: 201, body: await treeJson(repo, sha, false), headers: { location: `${repoUrl(repo)}/git/trees/${sha}` } };
  });

  router.add("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const sha = await git.resolve(repo.gitDir, req.params.tree_sha ?? "", "tree");
    if (!sha) throw notFound();
    return { status: 200, body: await treeJson(repo, sha, req.query.recursive !== undefined) };
  });

  // ---- commits ----
  router.add("POST", "/repos/{owner}/{repo}/git/commits", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const body = objectBody(req);
    if (typeof body.message !== "string") throw unprocessable('Invalid request.\n\n"message" wasn\'t supplied.');
    if (typeof body.tree !== "string") throw unprocessable('Invalid request.\n\n"tree" wasn\'t supplied.');
    if (!isSha(body.tree) || (await git.objectType(repo.gitDir, body.tree)) !== "tree") throw unprocessable("Tree SHA does not exist");
    const parents = body.parents ?? [];
    if (!Array.isArray(parents) || parents.some((p) => typeof p !== "string")) {
      throw unprocessable("Invalid request.\n\nFor 'properties/parents', it is not an array of strings.");
    }
    for (const p of parents as string[]) {
      if (!isSha(p) || (await git.objectType(repo.gitDir, p)) !== "commit") {
        throw unprocessable("Parent SHA does not exist or is not a commit object");
      }
    }
    const author = identity(body.author, "author");
    const committer = identity(body.committer, "committer");
    const bot = ctx.appOf(req).bot;
    const appIdentity: GitIdentity = { name: bot.login, email: `${bot.id}+${bot.login}@users.noreply.github.com` };
    const signed = !author && !committer && body.signature === undefined;
    const sha = await git.commitTree(repo.gitDir, {
      tree: body.tree,
      parents: parents as string[],
      message: body.message,
      author: author ?? committer ?? appIdentity,
      committer: committer ?? author ?? { name: "GitHub", email: "noreply@github.com" },
    });
    if (signed) state.signedCommits.add(sha);
    const info = await git.readCommit(repo.gitDir, sha);
    return {
      status: 201,
      body: shapes.gitCommit(repo, info, state.signedCommits.has(sha)),
      headers: { location: `${repoUrl(repo)}/git/commits/${sha}` },
    };
  });

  router.add("GET", "/repos/{owner}/{repo}/git/commits/{commit_sha}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const sha = req.params.commit_sha ?? "";
    if (!isSha(sha) || (await git.objectType(repo.gitDir, sha)) !== "commit") throw notFound();
    return { status: 200, body: shapes.gitCommit(repo, await git.readCommit(repo.gitDir, sha), state.signedCommits.has(sha)) };
  });

  // ---- refs ----
  const refJson = async (repo: Repo, fullRef: string, sha: string, type?: string): Promise<Record<string, unknown>> =>
    shapes.gitRef(repo, fullRef, sha, type ?? (await git.objectType(repo.gitDir, sha)) ?? "commit");

  /** GitHub refuses pushes that add workflow changes unless the app has the `workflows` permission. */
  const checkWorkflows = async (req: ApiRequest, repo: Repo, sha: string): Promise<void> => {
    if (ctx.appOf(req).permissions.workflows === "write") return;
    const touched = (await git.pathsIntroducedBy(repo.gitDir, sha)).find((p) => p.startsWith(".github/workflows/"));
    if (touched) {
      throw unprocessable(`refusing to allow a GitHub App to create or update workflow \`${touched}\` without \`workflows\` permission`);
    }
  };

  const fullRefOf = (req: ApiRequest): string => {
    const ref = (req.params.ref ?? "").replace(/^refs\//, "");
    if (!ref || ref.startsWith("-")) throw notFound();
    return `refs/${ref}`;
  };

  router.add("GET", "/repos/{owner}/{repo}/git/ref/{ref+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const ref = fullRefOf(req);
    const sha = await git.refSha(repo.gitDir, ref);
    if (!sha || ref.startsWith("refs/pull/")) throw notFound();
    return { status: 200, body: await refJson(repo, ref, sha) };
  });

  router.add("GET", "/repos/{owner}/{repo}/git/matching-refs/{ref+}", "installation", async (req) => {
    const repo = ctx.repo(req);
    const prefix = fullRefOf(req);
    const refs = (await git.listRefs(repo.gitDir)).filter((r) => r.ref.startsWith(prefix) && !r.ref.startsWith("refs/pull/"));
    return { status: 200, body: await Promise.all(refs.map((r) => refJson(repo, r.ref, r.sha))) };
  });

  router.add("POST", "/repos/{owner}/{repo}/git/refs", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const body = objectBody(req);
    const ref = body.ref;
    const sha = body.sha;
    if (typeof ref !== "string" || !/^refs\/(heads|tags)\/.+/.test(ref) || !validPath(ref)) {
      throw unprocessable("Reference name must start with 'refs/' and have at least two slashes.");
    }
    if (typeof sha !== "string" || !isSha(sha) || !(await git.objectType(repo.gitDir, sha))) throw unprocessable("Object does not exist");
    ctx.checkRefWritable(req, repo, ref);
    const result = await git.withLock(repo.gitDir, async () => {
      if (await git.refSha(repo.gitDir, ref)) throw unprocessable("Reference already exists");
      await checkWorkflows(req, repo, sha);
      await git.updateRef(repo.gitDir, ref, sha, ZERO_SHA);
      return refJson(repo, ref, sha);
    });
    await ctx.afterRefUpdate(repo, ref);
    return { status: 201, body: result, headers: { location: `${repoUrl(repo)}/git/${ref}` } };
  });

  router.add("PATCH", "/repos/{owner}/{repo}/git/refs/{ref+}", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const ref = fullRefOf(req);
    ctx.checkRefWritable(req, repo, ref);
    const body = objectBody(req);
    const sha = body.sha;
    if (typeof sha !== "string") throw unprocessable('Invalid request.\n\n"sha" wasn\'t supplied.');
    const force = body.force === true;
    const result = await git.withLock(repo.gitDir, async () => {
      const current = await git.refSha(repo.gitDir, ref);
      if (!current || ref.startsWith("refs/pull/")) throw unprocessable("Reference does not exist");
      if (!isSha(sha) || (await git.objectType(repo.gitDir, sha)) !== "commit") throw unprocessable("Object does not exist");
      if (!force && current !== sha && !(await git.isAncestor(repo.gitDir, current, sha))) {
        throw unprocessable("Update is not a fast forward");
      }
      await checkWorkflows(req, repo, sha);
      await git.updateRef(repo.gitDir, ref, sha, current);
      return refJson(repo, ref, sha, "commit");
    });
    await ctx.afterRefUpdate(repo, ref);
    return { status: 200, body: result };
  });

  router.add("DELETE", "/repos/{owner}/{repo}/git/refs/{ref+}", "installation", async (req) => {
    const repo = ctx.writableRepo(req);
    const ref = fullRefOf(req);
    ctx.checkRefWritable(req, repo, ref);
    await git.withLock(repo.gitDir, async () => {
      if (!(await git.refSha(repo.gitDir, ref)) || ref.startsWith("refs/pull/")) throw unprocessable("Reference does not exist");
      await git.deleteRef(repo.gitDir, ref);
    });
    await ctx.afterRefUpdate(repo, ref);
    return { status: 204 };
  });
}
