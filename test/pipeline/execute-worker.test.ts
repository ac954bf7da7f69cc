/**
 * executeRequest is worker-ready: in a fresh worker thread (dist/src, built by `npm test`'s
 * pretest), given only a Request and the environment, it authenticates as the app against the
 * GitHub emulator, runs the pipeline and answers with a JSON summary.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { GitHubEmulator } from "../e2e/emulator/index.js";
import { toRequest, type Delivery } from "../../src/forges/github/ingress.js";
import type { ExecuteResult } from "../../src/forges/github/execute.js";
import type { Request } from "../../src/pipeline/request.js";

const REPO = "acme/worker";
let gh: GitHubEmulator;
let worker: Worker;

beforeAll(async () => {
  gh = await GitHubEmulator.start();
  await gh.createRepo("acme", "worker", { "src/a.ts": 'console.log("a");\n' });
  gh.setPermission(REPO, "alice", "write");
  worker = new Worker(path.resolve("test/pipeline/fixtures/execute-worker.mjs"));
}, 60_000);

afterAll(async () => {
  await worker.terminate();
  await gh.stop();
});

function execute(request: Request): Promise<ExecuteResult> {
  const env = { ...gh.probotEnv("unused"), RESOLVE_BOT_THROTTLE: "off", LOG_LEVEL: "warn" as const };
  return new Promise((resolve, reject) => {
    worker.once("message", (message: { result?: ExecuteResult; error?: string }) =>
      message.result ? resolve(message.result) : reject(new Error(message.error)),
    );
    worker.postMessage({ request, env });
  });
}

function commentRequest(number: number, body: string): { request: Request; commentId: number } {
  const event = gh.webhooks.issueComment({ repo: REPO, number, body, user: "alice" });
  const request = toRequest({ id: event.id, name: event.name, payload: event.payload } as Delivery);
  if (!request) throw new Error("ingress ignored the comment");
  return { request: JSON.parse(JSON.stringify(request)) as Request, commentId: event.commentId };
}

test("a preview and its apply, each carried out in a worker thread from the request alone", async () => {
  const pr = await gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.md": "x\n" } }] });
  const preview = commentRequest(pr.number, "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'");
  const previewed = await execute(preview.request);
  expect(previewed).toEqual({ ok: true, status: "ok", replied: [gh.comments(REPO, pr.number).at(-1)!.body] });
  expect(previewed.replied[0]).toContain("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet");
  expect(gh.reactions(preview.commentId).map((reaction) => reaction.content)).toEqual(["rocket"]);

  const apply = commentRequest(pr.number, "/resolve apply use the logger");
  expect(await execute(apply.request)).toMatchObject({ ok: true, status: "ok" });
  expect(await gh.fileAt(REPO, "topic", "src/a.ts")).toBe('logger.info("a");\n');

  const refused = commentRequest(pr.number, "/resolve apply again");
  expect(await execute(refused.request)).toMatchObject({
    ok: false,
    status: "user-error",
    // The hidden marker names the request and how it ended (a re-run that finds it does not reply again).
    replied: [
      `No pending action to resolve. Nothing to apply or discard.\n\n<!-- resolve-bot:request:${refused.request.id}:user-error -->`,
    ],
  });
}, 60_000);
