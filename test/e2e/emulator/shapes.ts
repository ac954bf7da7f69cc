/**
 * GitHub-shaped JSON for the emulator's entities. Field sets follow the OpenAPI schemas the
 * responses are validated against (simple-user, repository, pull-request, check-run, …).
 */
import type { CommitInfo } from "./git-store.js";
import {
  isoNow,
  type AppInfo,
  type CheckRun,
  type Installation,
  type IssueComment,
  type LineComment,
  type PullRequest,
  type Reaction,
  type Repo,
  type Role,
  type User,
} from "./state.js";

type Json = Record<string, unknown>;

function nodeId(kind: string, id: number | string): string {
  return Buffer.from(`0:${kind}${id}`).toString("base64").replace(/=+$/, "");
}

/** Which fine-grained role maps to which classic permission (maintain → write, triage → read). */
export function classicPermission(role: Role): "admin" | "write" | "read" | "none" {
  if (role === "admin") return "admin";
  if (role === "maintain" || role === "write") return "write";
  if (role === "triage" || role === "read") return "read";
  return "none";
}

export function rolePermissions(role: Role): Record<string, boolean> {
  const rank = ["none", "read", "triage", "write", "maintain", "admin"].indexOf(role);
  return { pull: rank >= 1, triage: rank >= 2, push: rank >= 3, maintain: rank >= 4, admin: rank >= 5 };
}

export class Shapes {
  constructor(
    /** `http://127.0.0.1:port/api/v3` */
    readonly api: string,
    /** `http://127.0.0.1:port` — stands in for https://github.com */
    readonly web: string,
  ) {}

  user(u: User): Json {
    const url = `${this.api}/users/${encodeURIComponent(u.login)}`;
    return {
      login: u.login,
      id: u.id,
      node_id: nodeId(u.type === "Bot" ? "Bot" : "User", u.id),
      avatar_url: `${this.web}/avatars/u/${u.id}?v=4`,
      gravatar_id: "",
      url,
      html_url: `${this.web}/${encodeURIComponent(u.login)}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: u.type,
      user_view_type: "public",
      site_admin: false,
    };
  }

  /** `public-user`: what `GET /user` answers for a token without the `user` scope. */
  publicUser(u: User): Json {
    const at = isoNow();
    return {
      ...this.user(u),
      name: null,
      company: null,
      blog: "",
      location: null,
      email: null,
      hireable: null,
      bio: null,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: at,
      updated_at: at,
    };
  }

  /** `repository` (and, with `full`, the extra fields of `full-repository`). */
  repo(r: Repo, opts: { full?: boolean; permissions?: Role; pushedAt?: string } = {}): Json {
    const url = `${this.api}/repos/${r.fullName}`;
    const html = `${this.web}/${r.fullName}`;
    const json: Json = {
      id: r.id,
      node_id: nodeId("Repository", r.id),
      name: r.name,
      full_name: r.fullName,
      owner: this.user(r.owner),
      private: r.private,
      html_url: html,
      description: r.description,
      fork: Boolean(r.parent),
      url,
      archive_url: `${url}/{archive_format}{/ref}`,
      assignees_url: `${url}/assignees{/user}`,
      blobs_url: `${url}/git/blobs{/sha}`,
      branches_url: `${url}/branches{/branch}`,
      collaborators_url: `${url}/collaborators{/collaborator}`,
      comments_url: `${url}/comments{/number}`,
      commits_url: `${url}/commits{/sha}`,
      compare_url: `${url}/compare/{base}...{head}`,
      contents_url: `${url}/contents/{+path}`,
      contributors_url: `${url}/contributors`,
      deployments_url: `${url}/deployments`,
      downloads_url: `${url}/downloads`,
      events_url: `${url}/events`,
      forks_url: `${url}/forks`,
      git_commits_url: `${url}/git/commits{/sha}`,
      git_refs_url: `${url}/git/refs{/sha}`,
      git_tags_url: `${url}/git/tags{/sha}`,
      git_url: `git://127.0.0.1/${r.fullName}.git`,
      issue_comment_url: `${url}/issues/comments{/number}`,
      issue_events_url: `${url}/issues/events{/number}`,
      issues_url: `${url}/issues{/number}`,
      keys_url: `${url}/keys{/key_id}`,
      labels_url: `${url}/labels{/name}`,
      languages_url: `${url}/languages`,
      merges_url: `${url}/merges`,
      milestones_url: `${url}/milestones{/number}`,
      notifications_url: `${url}/notifications{?since,all,participating}`,
      pulls_url: `${url}/pulls{/number}`,
      releases_url: `${url}/releases{/id}`,
      ssh_url: `git@127.0.0.1:${r.fullName}.git`,
      stargazers_url: `${url}/stargazers`,
      statuses_url: `${url}/statuses/{sha}`,
      subscribers_url: `${url}/subscribers`,
      subscription_url: `${url}/subscription`,
      tags_url: `${url}/tags`,
      teams_url: `${url}/teams`,
      trees_url: `${url}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${url}/hooks`,
      svn_url: html,
      homepage: null,
      language: null,
      forks_count: 0,
      forks: 0,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      size: 0,
      default_branch: r.defaultBranch,
      open_issues_count: 0,
      open_issues: 0,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: r.private ? "private" : "public",
      pushed_at: opts.pushedAt ?? r.pushedAt,
      created_at: r.createdAt,
      updated_at: r.pushedAt,
      allow_forking: true,
      web_commit_signoff_required: false,
      license: null,
    };
    if (opts.permissions) {
      const p = rolePermissions(opts.permissions);
      json.permissions = p;
    }
    if (opts.full) {
      json.network_count = 0;
      json.subscribers_count = 0;
      json.allow_squash_merge = true;
      json.allow_merge_commit = true;
      json.allow_rebase_merge = true;
      json.delete_branch_on_merge = false;
      if (r.parent) {
        json.parent = this.repo(r.parent);
        json.source = this.repo(r.parent.parent ?? r.parent);
      }
    }
    return json;
  }

  app(a: AppInfo): Json {
    return {
      id: a.id,
      slug: a.slug,
      node_id: nodeId("Integration", a.id),
      client_id: `Iv1.${a.id.toString(16).padStart(16, "0")}`,
      owner: this.user(a.owner),
      name: a.name,
      description: "resolve-bot test app (GitHub emulator)",
      external_url: `${this.web}/apps/${a.slug}`,
      html_url: `${this.web}/apps/${a.slug}`,
      created_at: a.createdAt,
      updated_at: a.createdAt,
      permissions: { ...a.permissions },
      events: [...a.events],
    };
  }

  installation(i: Installation, a: AppInfo): Json {
    return {
      id: i.id,
      account: this.user(i.account),
      repository_selection: "all",
      access_tokens_url: `${this.api}/app/installations/${i.id}/access_tokens`,
      repositories_url: `${this.api}/installation/repositories`,
      html_url: `${this.web}/organizations/${i.account.login}/settings/installations/${i.id}`,
      app_id: a.id,
      app_slug: a.slug,
      target_id: i.account.id,
      target_type: i.account.type === "Organization" ? "Organization" : "User",
      permissions: { ...a.permissions },
      events: [...a.events],
      created_at: i.createdAt,
      updated_at: i.createdAt,
      single_file_name: null,
      has_multiple_single_files: false,
      single_file_paths: [],
      suspended_by: null,
      suspended_at: null,
    };
  }

  pull(pr: PullRequest, s: { headSha: string; baseSha: string; commits: number; authorAssociation: string }): Json {
    const repoUrl = `${this.api}/repos/${pr.repo.fullName}`;
    const url = `${repoUrl}/pulls/${pr.number}`;
    const html = `${this.web}/${pr.repo.fullName}/pull/${pr.number}`;
    const issueUrl = `${repoUrl}/issues/${pr.number}`;
    const branch = (repo: Repo, ref: string, sha: string): Json => ({
      label: `${repo.owner.login}:${ref}`,
      ref,
      sha,
      user: this.user(repo.owner),
      repo: this.repo(repo),
    });
    return {
      url,
      id: pr.id,
      node_id: nodeId("PullRequest", pr.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issueUrl,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${repoUrl}/pulls/comments{/number}`,
      comments_url: `${issueUrl}/comments`,
      statuses_url: `${repoUrl}/statuses/${s.headSha}`,
      number: pr.number,
      state: pr.state,
      locked: false,
      title: pr.title,
      user: this.user(pr.user),
      body: pr.body,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: pr.createdAt,
      updated_at: pr.updatedAt,
      closed_at: pr.closedAt,
      merged_at: pr.mergedAt,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: branch(pr.headRepo, pr.headRef, s.headSha),
      base: branch(pr.repo, pr.baseRef, s.baseSha),
      _links: {
        self: { href: url },
        html: { href: html },
        issue: { href: issueUrl },
        comments: { href: `${issueUrl}/comments` },
        review_comments: { href: `${url}/comments` },
        review_comment: { href: `${repoUrl}/pulls/comments{/number}` },
        commits: { href: `${url}/commits` },
        statuses: { href: `${repoUrl}/statuses/${s.headSha}` },
      },
      author_association: s.authorAssociation,
      auto_merge: null,
      draft: pr.draft,
      merged: pr.merged,
      mergeable: pr.state === "open" ? true : null,
      rebaseable: pr.state === "open" ? true : null,
      mergeable_state: pr.state === "open" ? "clean" : "unknown",
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: pr.maintainerCanModify,
      commits: s.commits,
      additions: 0,
      deletions: 0,
      changed_files: 0,
    };
  }

  /** The `issue` of an issue_comment webhook for a pull request. */
  issueOfPull(pr: PullRequest, authorAssociation: string): Json {
    const repoUrl = `${this.api}/repos/${pr.repo.fullName}`;
    const url = `${repoUrl}/issues/${pr.number}`;
    const html = `${this.web}/${pr.repo.fullName}/pull/${pr.number}`;
    return {
      url,
      repository_url: repoUrl,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: html,
      id: pr.id + 1_000_000,
      node_id: nodeId("Issue", pr.id),
      number: pr.number,
      title: pr.title,
      user: this.user(pr.user),
      labels: [],
      state: pr.state,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: 0,
      created_at: pr.createdAt,
      updated_at: pr.updatedAt,
      closed_at: pr.closedAt,
      author_association: authorAssociation,
      active_lock_reason: null,
      draft: pr.draft,
      pull_request: {
        url: `${repoUrl}/pulls/${pr.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: pr.mergedAt,
      },
      body: pr.body,
      reactions: this.reactionRollup(`${url}/reactions`, []),
      timeline_url: `${url}/timeline`,
      performed_via_github_app: null,
      state_reason: null,
    };
  }

  reactionRollup(url: string, reactions: Reaction[]): Json {
    const count = (c: string): number => reactions.filter((r) => r.content === c).length;
    return {
      url,
      total_count: reactions.length,
      "+1": count("+1"),
      "-1": count("-1"),
      laugh: count("laugh"),
      confused: count("confused"),
      heart: count("heart"),
      hooray: count("hooray"),
      eyes: count("eyes"),
      rocket: count("rocket"),
    };
  }

  comment(c: IssueComment, s: { authorAssociation: string; reactions: Reaction[]; viaApp?: AppInfo }): Json {
    const repoUrl = `${this.api}/repos/${c.repo.fullName}`;
    const url = `${repoUrl}/issues/comments/${c.id}`;
    return {
      id: c.id,
      node_id: nodeId("IssueComment", c.id),
      url,
      html_url: `${this.web}/${c.repo.fullName}/pull/${c.issueNumber}#issuecomment-${c.id}`,
      body: c.body,
      user: this.user(c.user),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      issue_url: `${repoUrl}/issues/${c.issueNumber}`,
      author_association: s.authorAssociation,
      performed_via_github_app: s.viaApp ? this.app(s.viaApp) : null,
      reactions: this.reactionRollup(`${url}/reactions`, s.reactions),
    };
  }

  /**
   * A review comment (REST and webhooks). An outdated comment's `line` and `position` are null in
   * webhooks; the REST description (pull-request-review-comment) has them as optional integers, so
   * REST leaves them out (`rest`).
   */
  lineComment(c: LineComment, s: { authorAssociation: string; reactions: Reaction[]; rest: boolean }): Json {
    const repoUrl = `${this.api}/repos/${c.repo.fullName}`;
    const url = `${repoUrl}/pulls/comments/${c.id}`;
    const html = `${this.web}/${c.repo.fullName}/pull/${c.number}#discussion_r${c.id}`;
    const pullUrl = `${repoUrl}/pulls/${c.number}`;
    const outdated = c.line === null;
    return {
      url,
      pull_request_review_id: c.reviewId,
      id: c.id,
      node_id: nodeId("PullRequestReviewComment", c.id),
      diff_hunk: c.diffHunk,
      path: c.path,
      ...(outdated && s.rest ? {} : { position: c.line }),
      original_position: c.originalLine,
      commit_id: c.commitId,
      original_commit_id: c.originalCommitId,
      ...(c.inReplyTo !== null ? { in_reply_to_id: c.inReplyTo } : {}),
      user: this.user(c.user),
      body: c.body,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      html_url: html,
      pull_request_url: pullUrl,
      author_association: s.authorAssociation,
      _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
      reactions: this.reactionRollup(`${url}/reactions`, s.reactions),
      start_line: c.startLine,
      original_start_line: c.originalStartLine,
      start_side: c.startLine === null ? null : c.side,
      ...(outdated && s.rest ? {} : { line: c.line }),
      original_line: c.originalLine,
      side: c.side,
      subject_type: "line",
    };
  }

  reaction(r: Reaction): Json {
    return {
      id: r.id,
      node_id: nodeId("Reaction", r.id),
      user: this.user(r.user),
      content: r.content,
      created_at: r.createdAt,
    };
  }

  /** Where GitHub shows a check run (its `html_url`). */
  checkRunHtmlUrl(run: CheckRun): string {
    return `${this.web}/${run.repo.fullName}/runs/${run.id}`;
  }

  checkRun(run: CheckRun, app: AppInfo, pulls: Array<{ pr: PullRequest; headSha: string; baseSha: string }>): Json {
    const repoUrl = `${this.api}/repos/${run.repo.fullName}`;
    const url = `${repoUrl}/check-runs/${run.id}`;
    return {
      id: run.id,
      name: run.name,
      node_id: nodeId("CheckRun", run.id),
      head_sha: run.headSha,
      external_id: run.externalId ?? "",
      url,
      html_url: this.checkRunHtmlUrl(run),
      details_url: run.detailsUrl ?? `${this.web}/apps/${app.slug}`,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.startedAt,
      completed_at: run.completedAt,
      output: {
        title: run.output.title,
        summary: run.output.summary,
        text: run.output.text,
        annotations_count: run.annotations.length,
        annotations_url: `${url}/annotations`,
      },
      check_suite: { id: run.checkSuiteId },
      app: this.app(app),
      pull_requests: this.pullRefs(pulls),
    };
  }

  /** The minimal pull requests that check runs and check suites list. */
  pullRefs(pulls: Array<{ pr: PullRequest; headSha: string; baseSha: string }>): Json[] {
    const minimalRepo = (r: Repo): Json => ({ id: r.id, url: `${this.api}/repos/${r.fullName}`, name: r.name });
    return pulls.map(({ pr, headSha, baseSha }) => ({
      url: `${this.api}/repos/${pr.repo.fullName}/pulls/${pr.number}`,
      id: pr.id,
      number: pr.number,
      head: { ref: pr.headRef, sha: headSha, repo: minimalRepo(pr.headRepo) },
      base: { ref: pr.baseRef, sha: baseSha, repo: minimalRepo(pr.repo) },
    }));
  }

  annotation(run: CheckRun, a: CheckRun["annotations"][number]): Json {
    return {
      path: a.path,
      blob_href: `${this.web}/${run.repo.fullName}/blob/${run.headSha}/${a.path}`,
      start_line: a.start_line,
      end_line: a.end_line,
      start_column: a.start_column ?? null,
      end_column: a.end_column ?? null,
      annotation_level: a.annotation_level,
      title: a.title ?? null,
      message: a.message,
      raw_details: a.raw_details ?? null,
    };
  }

  gitRef(repo: Repo, ref: string, sha: string, type: string): Json {
    const repoUrl = `${this.api}/repos/${repo.fullName}`;
    return {
      ref,
      node_id: nodeId("Ref", `${repo.id}:${ref}`),
      url: `${repoUrl}/git/${ref}`,
      object: { type, sha, url: `${repoUrl}/git/${type === "tag" ? "tags" : "commits"}/${sha}` },
    };
  }

  verification(verified: boolean, commit: CommitInfo): Json {
    return verified
      ? {
          verified: true,
          reason: "valid",
          signature: "-----BEGIN PGP SIGNATURE-----\n\nemulated\n-----END PGP SIGNATURE-----\n",
          payload: `tree ${commit.tree}\n${commit.parents.map((p) => `parent ${p}\n`).join("")}\n${commit.message}`,
          verified_at: commit.committer.date,
        }
      : { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };
  }

  gitCommit(repo: Repo, c: CommitInfo, verified: boolean): Json {
    const repoUrl = `${this.api}/repos/${repo.fullName}`;
    return {
      sha: c.sha,
      node_id: nodeId("Commit", c.sha),
      url: `${repoUrl}/git/commits/${c.sha}`,
      html_url: `${this.web}/${repo.fullName}/commit/${c.sha}`,
      author: { ...c.author },
      committer: { ...c.committer },
      tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
      message: c.message,
      parents: c.parents.map((p) => ({
        sha: p,
        url: `${repoUrl}/git/commits/${p}`,
        html_url: `${this.web}/${repo.fullName}/commit/${p}`,
      })),
      verification: this.verification(verified, c),
    };
  }

  /** `commit` (GET /commits/{ref}); authors are not mapped to GitHub users. */
  commit(repo: Repo, c: CommitInfo, verified: boolean): Json {
    const repoUrl = `${this.api}/repos/${repo.fullName}`;
    return {
      url: `${repoUrl}/commits/${c.sha}`,
      sha: c.sha,
      node_id: nodeId("Commit", c.sha),
      html_url: `${this.web}/${repo.fullName}/commit/${c.sha}`,
      comments_url: `${repoUrl}/commits/${c.sha}/comments`,
      commit: {
        url: `${repoUrl}/git/commits/${c.sha}`,
        author: { ...c.author },
        committer: { ...c.committer },
        message: c.message,
        comment_count: 0,
        tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
        verification: this.verification(verified, c),
      },
      author: null,
      committer: null,
      parents: c.parents.map((p) => ({
        sha: p,
        url: `${repoUrl}/commits/${p}`,
        html_url: `${this.web}/${repo.fullName}/commit/${p}`,
      })),
    };
  }
}
