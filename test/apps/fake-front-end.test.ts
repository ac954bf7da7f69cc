/**
 * docs/ARCHITECTURE.md's "add a front end" recipe, followed: a chat front end (messages in, replies
 * out) over a local checkout, composed from the shared intake and the forge registry alone. Nothing
 * in src/ is edited for it; it is what a new front end (MCP, a chat bot) starts from.
 */
import { parseCommands } from "../../src/core/commands.js";
import { MemoryJobQueue } from "../../src/jobs/memory-queue.js";
import { REQUEST_VERSION, type Request } from "../../src/pipeline/request.js";
import { forgeAdapter } from "../../src/runner/forge-registry.js";
import { Intake } from "../../src/runner/intake.js";
import { git, makeRepo, treeAt } from "../helpers/git-repo.js";

function chatFrontEnd(checkout: string, say: (text: string) => void) {
  const queue = new MemoryJobQueue();
  const intake = new Intake({ queue, log: console, giveUp: { message: "Sorry, I gave up.", reply: async (_r, text) => say(text) } });
  intake.process({
    execute: async (request) => (await (await forgeAdapter(request.forge.id)).execute(request, {})).replied.forEach(say),
    concurrency: 1,
  });
  let sent = 0;
  return {
    async message(text: string): Promise<void> {
      const request: Request = {
        ...{ version: REQUEST_VERSION, forge: { id: "local" }, repository: { owner: "local", repo: checkout }, pullRequest: 0 },
        ...{ actor: { login: "chat-user" }, id: `chat-${++sent}`, intent: { kind: "commands", commands: parseCommands(text) } },
        origin: { kind: "terminal" },
      };
      await intake.submit(request, async () => say("👀"));
      await queue.idle();
    },
  };
}

test("a front end made of the intake and the forge registry previews and applies on a checkout", async () => {
  const repo = makeRepo({ "src/a.ts": 'console.log("hi");\n' });
  const said: string[] = [];
  const chat = chatFrontEnd(repo, (text) => said.push(text));
  await chat.message("/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
  expect(said).toEqual([
    "👀",
    'Pending: AST Edit: 1 replacement in 1 file\n- src/a.ts: 1 replacement\ndiff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-console.log("hi");\n+logger.debug("hi");',
    '\nPending: AST Edit: 1 replacement in 1 file. Resolve it with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".',
  ]);
  said.length = 0;
  await chat.message("/resolve apply use the logger");
  expect(said[0]).toBe("👀");
  expect(said[1]).toBe(`Applied 1 replacement in 1 file.\nCommitted ${git(repo, "rev-parse", "--short=7", "HEAD").trim()}.`);
  expect(treeAt(repo)).toEqual({ "src/a.ts": 'logger.debug("hi");\n' });
  expect(git(repo, "log", "-1", "--format=%s").trim()).toBe("AST Edit: 1 replacement in 1 file");
});
