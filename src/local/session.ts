/** A CommandContext for a local git checkout: durable stack under .git, writes to the work tree. */
import os from "node:os";
import path from "node:path";
import { realpath } from "node:fs/promises";
import { commitMessage } from "../core/commit-message.js";
import { once, type CommandContext, type Steering } from "../core/context.js";
import { LOCAL_RESOLVE_COMMANDS } from "../core/messages.js";
import { UserError } from "../errors.js";
import { DirectoryWorkspace } from "./directory-workspace.js";
import { FileStore } from "./file-store.js";
import { findCheckout, git, headSha } from "./git.js";
import { commitPaths, writeChangeSet } from "./working-tree.js";

export interface LocalOptions {
  cwd: string;
  /** Write the change into the work tree but make no commit. */
  noCommit?: boolean;
  steering?: Steering;
}

export interface LocalSession {
  context: CommandContext;
  store: FileStore;
  root: string;
}

async function localActor(root: string): Promise<string> {
  const name = await git(root, ["config", "user.name"]).catch(() => "");
  return name.trim() || os.userInfo().username;
}

export async function openLocalSession(options: LocalOptions): Promise<LocalSession> {
  const checkout = await findCheckout(options.cwd);
  const root = await realpath(checkout.root);
  const store = new FileStore(path.join(checkout.gitDir, "resolve-bot"));
  const context: CommandContext = {
    store,
    actor: await localActor(root),
    steering: options.steering ?? "stack",
    workspace: once(async () => {
      const files = new DirectoryWorkspace(root, await headSha(root));
      // Locally the checkout is the user's own: its configuration (/ast-fix's rules) is trusted as it is.
      files.defaultBranch = async () => files;
      return files;
    }),
    resolveCommands: LOCAL_RESOLVE_COMMANDS,
    async commit(changes, request) {
      const written = await writeChangeSet(root, changes);
      if (written.paths.length === 0 || options.noCommit) return undefined;
      try {
        return await commitPaths(root, checkout.gitDir, written.paths, commitMessage({ record: request.record, reason: request.reason }));
      } catch (error) {
        await written.restore();
        const cause = error instanceof UserError ? error.message : String(error);
        throw new UserError(
          `${cause}\nNothing was committed; the work tree and the index are as they were, and the action is still pending.`,
        );
      }
    },
  };
  return { context, store, root };
}
