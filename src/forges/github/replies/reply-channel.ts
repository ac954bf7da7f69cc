/**
 * Where a request is answered on GitHub, chosen by its origin: a conversation comment is answered
 * in the conversation with reactions on that comment; a line comment in its review thread with
 * reactions on the line comment; a review body, a button or the forge itself in the conversation,
 * with nothing to react to. Everything that talks back (the reply, 👀, 🚀/😕, a stop or give-up
 * message, a re-run's "did I already answer?") goes through the one channel, so it looks where it
 * wrote.
 */
import type { ReplyStatus } from "../../../pipeline/reply.js";
import type { Request } from "../../../pipeline/request.js";
import { repliedStatus } from "./render.js";
import type { GitHubClient, RepoRef } from "../types.js";

type Reaction = "eyes" | "rocket" | "confused";

export interface ReplyChannel {
  /** 👀: the request is recorded. */
  acknowledge(): Promise<void>;
  /** 🚀 or 😕 on what asked. */
  finish(ok: boolean): Promise<void>;
  /** Posts a markdown body where the request is answered; returns the comment's id. */
  post(body: string): Promise<number>;
  /** Replaces the body of a comment the app posted here. */
  edit(id: number, body: string): Promise<void>;
  /** The status recorded by this request's reply when the app already posted it (newest first). */
  sent(requestId: string): Promise<ReplyStatus | undefined>;
  /** The app's newest comment here whose body `wanted` takes. */
  findOwn(wanted: (body: string) => boolean): Promise<OwnComment | undefined>;
}

export interface OwnComment {
  id: number;
  body: string;
}

type Listed = { id: number; user?: { type?: string } | null; body?: string | null };

export function replyChannel(octokit: GitHubClient, request: Pick<Request, "repository" | "pullRequest" | "origin">): ReplyChannel {
  const repo = request.repository;
  const origin = request.origin;
  if (origin.kind === "line-comment") return reviewThread(octokit, repo, request.pullRequest, origin.commentId, origin.threadId);
  const commentId = origin.kind === "comment" ? origin.commentId : undefined;
  return conversation(octokit, repo, request.pullRequest, commentId);
}

function conversation(octokit: GitHubClient, repo: RepoRef, number: number, commentId: number | undefined): ReplyChannel {
  const react = async (content: Reaction) => {
    if (commentId !== undefined) await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content });
  };
  const list = () => octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: number, per_page: 100 });
  return {
    acknowledge: () => react("eyes"),
    finish: (ok) => react(ok ? "rocket" : "confused"),
    async post(body) {
      return (await octokit.rest.issues.createComment({ ...repo, issue_number: number, body })).data.id;
    },
    async edit(id, body) {
      await octokit.rest.issues.updateComment({ ...repo, comment_id: id, body });
    },
    sent: async (requestId) => newestStatus(await list(), requestId),
    findOwn: async (wanted) => newestOwn(await list(), wanted),
  };
}

/** Answers go into the thread (GitHub takes replies to its first comment only); reactions on the comment that asked. */
function reviewThread(octokit: GitHubClient, repo: RepoRef, number: number, commentId: number, threadId: number): ReplyChannel {
  const react = async (content: Reaction) => {
    await octokit.rest.reactions.createForPullRequestReviewComment({ ...repo, comment_id: commentId, content });
  };
  const list = async () =>
    (await octokit.paginate(octokit.rest.pulls.listReviewComments, { ...repo, pull_number: number, per_page: 100 })).filter(
      (comment) => comment.in_reply_to_id === threadId,
    );
  return {
    acknowledge: () => react("eyes"),
    finish: (ok) => react(ok ? "rocket" : "confused"),
    async post(body) {
      return (await octokit.rest.pulls.createReplyForReviewComment({ ...repo, pull_number: number, comment_id: threadId, body })).data.id;
    },
    async edit(id, body) {
      await octokit.rest.pulls.updateReviewComment({ ...repo, comment_id: id, body });
    },
    sent: async (requestId) => newestStatus(await list(), requestId),
    findOwn: async (wanted) => newestOwn(await list(), wanted),
  };
}

function newestStatus(comments: Listed[], requestId: string): ReplyStatus | undefined {
  for (const comment of [...comments].reverse()) {
    const status = comment.user?.type === "Bot" ? repliedStatus(comment.body ?? "", requestId) : undefined;
    if (status) return status;
  }
  return undefined;
}

function newestOwn(comments: Listed[], wanted: (body: string) => boolean): OwnComment | undefined {
  const found = [...comments].reverse().find((comment) => comment.user?.type === "Bot" && wanted(comment.body ?? ""));
  return found && { id: found.id, body: found.body ?? "" };
}
