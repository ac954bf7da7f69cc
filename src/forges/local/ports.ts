/**
 * The local front end's ports: a git checkout is one "pull request" — the durable stack under .git,
 * the work tree as the workspace (and as its own trusted configuration), changes written to the
 * work tree and committed, replies on the terminal. Requests run through the same pipeline as on
 * GitHub (pipeline/run-request.ts).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { realpath } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { SlashCommand } from "../../core/commands.js";
import { commitMessage } from "../../core/commit-message.js";
import { once, type Steering } from "../../core/context.js";
import { CONFIG_PATH, loadRepoConfig } from "../../config/load.js";
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../config/repo-config.js";
import type { Phrasing } from "../../core/messages.js";
import type { Runtime } from "../../core/runtime.js";
import { UserError } from "../../errors.js";
import type { Ports, PullRequestView, WorkingStatus } from "../../pipeline/ports.js";
import type { ReplyStatus } from "../../pipeline/reply.js";
import { REQUEST_VERSION, type Origin, type Request } from "../../pipeline/request.js";
import { runRequest } from "../../pipeline/run-request.js";
import { DirectoryWorkspace } from "./directory-workspace.js";
import { FileStore } from "./file-store.js";
import { findCheckout, git, headSha } from "./git.js";
import { appliedCommits, revertInCheckout } from "./history.js";
import type { Reply } from "../../pipeline/reply.js";
import { commitPaths, writeChangeSet } from "./working-tree.js";

/**
 * Where a local request's answers go: the front end decides (the CLI prints them on the terminal,
 * forges/local/terminal.ts; a worker collects them; another front end sends them on).
 */
export interface ReplySink {
  /** The request's reply, in the neutral model (pipeline/reply.ts). */
  reply(reply: Reply): void;
  /** A line meanwhile, in the runtime's markdown-ish text: the early working status, the cause of a failure. */
  note(text: string): void;
  /** Someone watches as it runs (a terminal): only then does a long command say early that it is working. */
  watched?: boolean;
}

export interface LocalOptions {
  cwd: string;
  runtime: Runtime;
  sink: ReplySink;
  /** Write the change into the work tree but make no commit. */
  noCommit?: boolean;
  steering?: Steering;
  /** After how long a command says on stderr that it is working, when stderr is a terminal (pipeline/cost.ts). */
  statusAfterMs?: number;
  /** Where the request comes from, when not a terminal (an MCP client's call): the front end words its own replies (`phrasing`). */
  origin?: Origin;
  /** The front end's words, instead of the command line's (`localPhrasing`). */
  phrasing?: Phrasing;
}

export interface LocalCheckout {
  root: string;
  gitDir: string;
  store: FileStore;
  /** Where the command was typed, from the root ("" at the root, posix): typed paths are read from there. */
  directory: string;
}

/** The checkout around `cwd` and its durable stack. */
export async function openCheckout(cwd: string): Promise<LocalCheckout> {
  const checkout = await findCheckout(cwd);
  const root = await realpath(checkout.root);
  const directory = path
    .relative(root, await realpath(cwd))
    .split(path.sep)
    .join("/");
  return {
    root,
    gitDir: checkout.gitDir,
    store: new FileStore(path.join(checkout.gitDir, "resolve-bot")),
    // Inside .git (or outside, through a symlink): read from the root.
    directory: directory.startsWith("..") || directory === ".git" || directory.startsWith(".git/") ? "" : directory,
  };
}

/**
 * Paths as git reads them: relative to the directory the command was typed in (`testing` in
 * src/internal is src/internal/testing), absolute ones inside the checkout too. What leaves the
 * checkout is refused. At the root, paths go to the tool as typed.
 */
export function pathReader(root: string, directory: string): (typed: string) => string {
  return (typed) => {
    const absolute = path.isAbsolute(typed);
    if (directory === "" && !absolute) return typed;
    const fromRoot = absolute ? path.relative(root, typed).split(path.sep).join("/") : path.posix.join(directory, typed);
    const normal = path.posix.normalize(fromRoot === "" ? "." : fromRoot).replace(/\/+$/, "") || ".";
    if (normal === ".." || normal.startsWith("../") || path.isAbsolute(normal)) {
      throw new UserError(`Path ${JSON.stringify(typed)} is outside the repository (${root}).`);
    }
    return normal;
  };
}

async function localActor(root: string): Promise<string> {
  const name = await git(root, ["config", "user.name"]).catch(() => "");
  return name.trim() || os.userInfo().username;
}

/** The command line's words: its own verbs, and what made steering strict (the flag, or the committed settings). */
export function localPhrasing(options: Pick<LocalOptions, "steering"> = {}): Phrasing {
  return {
    resolveCommands: '`resolve-bot resolve apply "<reason>"` or `resolve-bot resolve discard "<reason>"`',
    undoCommand: '`resolve-bot resolve undo "<reason>"`',
    configFile: "`.github/resolve-bot.yml` (as committed at HEAD)",
    strictBy:
      options.steering === "strict" ? "`--strict` is on" : "`.github/resolve-bot.yml` (as committed at HEAD) sets `steering: strict`",
    applyCommand: "`resolve-bot resolve apply`",
    trustedFiles: "the checkout",
    trustedTree: "the checkout",
    pendingCommand: "`resolve-bot pending`",
    helpCommand: (command) => (command === undefined ? "`resolve-bot preview -- /help`" : `\`resolve-bot tools ${command}\``),
  };
}

/**
 * The checkout's `.github/resolve-bot.yml` as committed at HEAD (as the server reads the default
 * branch's, never a work tree's edits): `tools`, `steering`, `limits.*` and `commit_message` apply
 * here too; `--strict` makes steering strict whatever the file says. No file: the defaults.
 */
async function readCommittedConfig(root: string): Promise<unknown> {
  const listed = await git(root, ["ls-tree", "--name-only", "HEAD", "--", CONFIG_PATH]).catch(() => "");
  if (listed.trim() === "") return null;
  return parseYaml(await git(root, ["show", `HEAD:${CONFIG_PATH}`]));
}

export function localPorts(checkout: LocalCheckout, options: LocalOptions): Ports<RepoConfig, PullRequestView> {
  const { root, gitDir, store, directory } = checkout;
  const steered = (config: RepoConfig): RepoConfig => (options.steering === "strict" ? { ...config, steering: "strict" } : config);
  const { sink } = options;
  return {
    runtime: options.runtime,
    phrasing: options.phrasing ?? localPhrasing(options),
    readPath: pathReader(root, directory),
    config: {
      // Read once per request (two git runs), as GitHub's ports read it once.
      load: once(async () => {
        const loaded = await loadRepoConfig(() => readCommittedConfig(root), options.runtime.registry);
        return loaded.ok ? { ok: true as const, config: steered(loaded.config) } : loaded;
      }),
      fallback: steered(DEFAULT_REPO_CONFIG),
    },
    // Whoever can run the command line owns the checkout.
    permission: { refusal: async () => undefined },
    pullRequest: { read: async () => ({ headSha: await headSha(root), state: "open" }) },
    stack: { open: () => store },
    workspace: {
      async at(_pr, sha) {
        const files = new DirectoryWorkspace(root, sha);
        // Locally the checkout is the user's own: its configuration (/ast-fix's rules) is trusted as it is.
        files.defaultBranch = async () => files;
        files.revert = (commit) => revertInCheckout(root, gitDir, files, commit);
        return files;
      },
    },
    history: { applied: () => appliedCommits(root) },
    commit: {
      async commit(_pr, _parent, changes, request, _actor, config) {
        const written = await writeChangeSet(root, changes);
        if (written.paths.length === 0 || options.noCommit) return undefined;
        try {
          return await commitPaths(
            root,
            gitDir,
            written.paths,
            commitMessage({ record: request.record, reason: request.reason, template: config.commitMessage }),
          );
        } catch (error) {
          await written.restore();
          const cause = error instanceof UserError ? error.message : String(error);
          throw new UserError(
            `${cause}\nNothing was committed; the work tree and the index are as they were, and the action is still pending.`,
          );
        }
      },
    },
    reply: { send: async (reply) => sink.reply(reply), ...watchedStatus(options) },
    log: {
      warn: () => undefined,
      // The terminal is the operator's own: the cause is said as it is (there is no other log).
      error: ({ err }) => sink.note(err instanceof Error ? err.message : String(err)),
    },
  };
}

/** The working status where someone watches: a line, which later lines follow (nothing to settle). */
function watchedStatus({ sink, statusAfterMs }: LocalOptions): { working?: WorkingStatus } {
  if (statusAfterMs === undefined || sink.watched !== true) return {};
  let said = false;
  return {
    working: {
      afterMs: statusAfterMs,
      say: async (text) => {
        said = true;
        sink.note(text);
      },
      out: async () => said,
      settle: async () => undefined,
    },
  };
}

/** Runs slash commands on the checkout around `options.cwd`, as one request; says how it went. */
export async function runLocalCommands(commands: SlashCommand[], options: LocalOptions): Promise<ReplyStatus> {
  const checkout = await openCheckout(options.cwd);
  const request: Request = {
    version: REQUEST_VERSION,
    forge: { id: "local" },
    repository: { owner: "local", repo: checkout.root },
    pullRequest: 0,
    actor: { login: await localActor(checkout.root) },
    id: randomUUID(),
    intent: { kind: "commands", commands },
    origin: options.origin ?? { kind: "terminal" },
  };
  return (await runRequest(request, localPorts(checkout, options))).status;
}

/** A stored request for the local forge: its repository names the checkout (src/runner/forge-registry.ts's `local`). */
export async function runLocalRequest(request: Request, options: Omit<LocalOptions, "cwd">): Promise<ReplyStatus> {
  const checkout = await openCheckout(request.repository.repo);
  return (await runRequest(request, localPorts(checkout, { ...options, cwd: checkout.root }))).status;
}
