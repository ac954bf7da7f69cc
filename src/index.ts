/**
 * The Probot app: wires the GitHub adapter to the runtime.
 *   npm start  →  probot run ./dist/src/index.js
 */
import type { ApplicationFunctionOptions, Probot } from "probot";
import { Runtime } from "./core/runtime.js";
import { onIssueComment, onOpenedOrReopened, onRequestedAction, onSynchronize, type HandlerDeps } from "./github/handlers.js";
import { onCheckRunCompleted, onCheckRunRerequested, onCheckSuite, onPullRequestClosed } from "./github/lifecycle-handlers.js";
import { WorkQueue } from "./github/work-queue.js";
import { createRegistry } from "./tools/index.js";

/** How long an installation's permissions are trusted before asking GitHub again. */
const PERMISSIONS_TTL_MS = 10 * 60 * 1000;

function webUrl(env: NodeJS.ProcessEnv): string {
  return env.GHE_HOST ? `${env.GHE_PROTOCOL ?? "https"}://${env.GHE_HOST}` : "https://github.com";
}

export interface ResolveBotOptions {
  env?: NodeJS.ProcessEnv;
  /** The work queue and the app's logger, for graceful shutdown (and tests). */
  onQueue?: (queue: WorkQueue, log: Probot["log"]) => void;
}

export function resolveBot(options: ResolveBotOptions = {}) {
  return async function app(app: Probot, _options?: ApplicationFunctionOptions): Promise<void> {
    const env = options.env ?? process.env;
    const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
    const queue = new WorkQueue((error, key) => app.log.error({ err: error, key }, "resolve-bot job failed"));
    options.onQueue?.(queue, app.log);

    const permissions = new Map<number, { workflows: boolean; at: number }>();
    const deps: HandlerDeps = {
      registry,
      runtime: new Runtime(registry),
      queue,
      appId: env.APP_ID ? Number(env.APP_ID) : undefined,
      webUrl: webUrl(env),
      async canWriteWorkflows(installationId) {
        if (installationId === undefined) return false;
        const cached = permissions.get(installationId);
        if (cached && Date.now() - cached.at < PERMISSIONS_TTL_MS) return cached.workflows;
        const appOctokit = await app.auth();
        const { data } = await appOctokit.rest.apps.getInstallation({ installation_id: installationId });
        const workflows = data.permissions?.workflows === "write";
        permissions.set(installationId, { workflows, at: Date.now() });
        return workflows;
      },
    };

    app.on("issue_comment.created", (context) => onIssueComment(context, deps));
    app.on("check_run.requested_action", (context) => onRequestedAction(context, deps));
    app.on("pull_request.synchronize", (context) => onSynchronize(context, deps));
    app.on(["pull_request.opened", "pull_request.reopened"], (context) => onOpenedOrReopened(context, deps));
    app.on("check_run.completed", (context) => onCheckRunCompleted(context, deps));
    app.on("check_run.rerequested", (context) => onCheckRunRerequested(context, deps));
    app.on(["check_suite.requested", "check_suite.rerequested"], (context) => onCheckSuite(context, deps));
    app.on("pull_request.closed", (context) => onPullRequestClosed(context, deps));
    app.log.info(
      `resolve-bot ready with tools: ${registry
        .list()
        .map((tool) => tool.name)
        .join(", ")}`,
    );
  };
}

export default resolveBot();
