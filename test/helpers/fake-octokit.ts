/** A recording stand-in for the few Octokit methods the GitHub adapter's unit tests exercise. */
export interface Call {
  method: string;
  params: Record<string, any>;
}

/** Answers for calls a test did not script: a plain commit (no `Resolve-Action:` trailer), a PR with no earlier commits. */
const defaults: Record<string, (params: Record<string, any>) => unknown> = {
  "pulls.listCommits": () => [],
  "git.getCommit": (params) => ({
    sha: params.commit_sha,
    message: "a commit\n",
    parents: [{ sha: "p".repeat(40) }],
    tree: { sha: "tree0" },
  }),
};

export function fakeOctokit(responses: Record<string, (params: Record<string, any>, calls: Call[]) => unknown> = {}) {
  const calls: Call[] = [];
  let nextId = 1;
  const handler = (method: string) => async (params: Record<string, any>) => {
    calls.push({ method, params });
    const respond = responses[method] ?? defaults[method];
    if (respond) return { data: await respond(params, calls) };
    return { data: { id: nextId++, sha: `sha${nextId++}` } };
  };
  const rest = {
    pulls: {
      listCommits: handler("pulls.listCommits"),
      listFiles: handler("pulls.listFiles"),
      createReview: handler("pulls.createReview"),
    },
    issues: { createComment: handler("issues.createComment") },
    checks: { create: handler("checks.create"), update: handler("checks.update"), listForRef: handler("checks.listForRef") },
    git: {
      getCommit: handler("git.getCommit"),
      createTree: handler("git.createTree"),
      createBlob: handler("git.createBlob"),
      createCommit: handler("git.createCommit"),
      updateRef: handler("git.updateRef"),
      getRef: handler("git.getRef"),
    },
  };
  const octokit = {
    rest,
    paginate: async (method: (params: Record<string, any>) => Promise<{ data: unknown }>, params: Record<string, any>) => {
      const { data } = await method(params);
      return Array.isArray(data) ? data : ((data as { check_runs?: unknown[] }).check_runs ?? []);
    },
  };
  return { octokit: octokit as any, calls };
}
