/** Several commands per comment, custom tools from server config, the gate's buttons, strict steering. */
import path from "node:path";
import { comment, deliver, latestReply, runsOn, useBot, waitFor, type Bot } from "./harness.js";

const REPO = "acme/tools";
const FILES = {
  "lib/one.js": "module.exports = 1;\n",
  "lib/two.js": "module.exports = 2;\n",
  "src/a.ts": 'export function hello() {\n  console.log("hello");\n}\n',
};

let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "tools", FILES);
    bot.gh.setPermission(REPO, "alice", "write");
    bot.gh.setPermission(REPO, "mia", "maintain");
  },
  { RESOLVE_BOT_TOOLS: path.resolve("dist/examples/batch-rename.js") },
);

test("several commands in one comment run in order; the custom tool's apply renames files", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "multi", user: "alice", commits: [{ files: { "n.md": "1\n" } }] });
  const body = [
    "Two edits, then apply the newest:",
    "/ast-edit --pat 'console.log($$$A)' --out 'console.info($$$A)'",
    "/batch-rename-preview lib/one.js lib/two.js --find .js --replace .cjs",
    "/resolve apply CommonJS files get .cjs",
    "/pending",
  ].join("\n");
  const result = await comment(bot, REPO, pr.number, "alice", body);
  expect(result.done).toBe("rocket");
  const sections = result.reply.split(/\n\n(?=✅ `\/)/);
  expect(sections.map((section) => section.split("\n")[0])).toEqual([
    "✅ `/ast-edit`",
    "✅ `/batch-rename-preview`",
    "✅ `/resolve`",
    "✅ `/pending`",
  ]);
  expect(sections[1]).toContain("Prepared rename plan for 2 files. Call resolve to apply or discard.");
  expect(sections[2]).toContain("Applied batch rename. Reason: CommonJS files get .cjs\n\nCommit [");
  expect(sections[3]).toContain("1 pending, newest first (the first is resolved next):\n1. AST Edit: 1 replacement in 1 file");
  const head = (await bot.gh.branchSha(REPO, "multi"))!;
  expect(Object.keys(await bot.gh.filesAt(REPO, head)).sort()).toEqual(["lib/one.cjs", "lib/two.cjs", "n.md", "src/a.ts"]);
  // The rename reused the blobs: same content, no new blob objects written through the API.
  expect(bot.gh.log().filter((entry) => entry.path.endsWith("/git/blobs"))).toEqual([]);
  // The rest of the stack moved to the new head with the commit.
  const carried = runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot: AST Edit: 1 replacement in 1 file")!;
  expect(carried.status).toBe("in_progress");
  expect(carried.output.summary).toContain(`Carried over from ${pr.headSha.slice(0, 7)} after Batch rename: 2 files was applied.`);
  expect(runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot")?.conclusion).toBe("action_required");
});

test("the gate's buttons resolve the top of the stack", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "buttons", user: "alice", commits: [{ files: { "n.md": "2\n" } }] });
  await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'console.warn($$$A)'");
  await comment(bot, REPO, pr.number, "alice", "/batch-rename-preview lib/one.js --find one --replace uno");
  const gate = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot")!;
  expect(gate.output.title).toBe("Pending: Batch rename: 1 files");

  const before = bot.gh.comments(REPO, pr.number).length;
  await deliver(
    bot,
    await bot.gh.webhooks.checkRunRequestedAction({ repo: REPO, checkRunId: gate.id, identifier: "discard", user: "mia" }),
  );
  await waitFor("the discard reply", () => (bot.gh.comments(REPO, pr.number).length > before ? true : undefined));
  expect(latestReply(bot, REPO, pr.number)).toBe(
    "Discarded batch rename. Reason: Discarded from the Checks tab by @\u2060mia\n\n---\nPending: AST Edit: 1 replacement in 1 file. Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
  );
  const next = runsOn(bot, REPO, pr.headSha).find((run) => run.name === "resolve-bot")!;
  expect(next.output.title).toBe("Pending: AST Edit: 1 replacement in 1 file");

  await deliver(bot, await bot.gh.webhooks.checkRunRequestedAction({ repo: REPO, checkRunId: gate.id, identifier: "apply", user: "mia" }));
  const head = await waitFor("the apply commit", async () => {
    const sha = await bot.gh.branchSha(REPO, "buttons");
    return sha !== pr.headSha ? sha : undefined;
  });
  const commit = await bot.gh.commit(REPO, head);
  expect(commit.message).toMatch(
    /^AST Edit: 1 replacement in 1 file\n\nApplied from the Checks tab by @mia\n\nResolve-Action: .*\nResolve-Request: .*\nCo-authored-by: mia </,
  );
  await waitFor("the gate on the new head", () =>
    runsOn(bot, REPO, head).find((run) => run.name === "resolve-bot" && run.conclusion === "success"),
  );
});

test("/help lists the tools (custom ones too) and explains /resolve separately", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "help", user: "alice", commits: [{ files: { "n.md": "3\n" } }] });
  const help = await comment(bot, REPO, pr.number, "alice", "/help");
  expect(help.reply).toContain("**`/batch-rename-preview`** — Previews renames and defers commit to resolve");
  expect(help.reply).toContain("**`/ast-edit`**");
  expect(help.reply).toContain("Resolving: `/resolve apply <reason>` or `/resolve discard <reason>` takes the newest pending action");
  expect(help.reply).not.toContain("**`/resolve`**");
});

test("steering: strict (from the default branch's config) refuses new previews until the stack is empty", async () => {
  await bot.gh.pushCommit(REPO, "main", { files: { ".github/resolve-bot.yml": "steering: strict\n" } });
  try {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "strict", user: "alice", commits: [{ files: { "n.md": "4\n" } }] });
    await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'console.debug($$$A)'");
    const refused = await comment(bot, REPO, pr.number, "alice", "/batch-rename-preview lib/one.js --find one --replace eins");
    expect(refused.done).toBe("confused");
    expect(refused.reply).toBe(
      "This repository uses `steering: strict`: resolve the pending action first (AST Edit: 1 replacement in 1 file) with `/resolve apply <reason>` or `/resolve discard <reason>`.\n\n---\nPending: AST Edit: 1 replacement in 1 file. Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
    );
  } finally {
    await bot.gh.pushCommit(REPO, "main", { files: { ".github/resolve-bot.yml": null } });
  }
});

test("webhooks posted to the server's bare address (what Probot's setup page registers) are handled", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "root-hook", user: "alice", commits: [{ files: { "r.md": "r\n" } }] });
  const event = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  const root = bot.webhookUrl.replace(/\/api\/github\/webhooks$/, "/");
  expect(await deliver(bot, event, undefined, root)).toBeLessThan(300);
  await waitFor("the reply", () => bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket"));
  expect(latestReply(bot, REPO, pr.number)).toContain("Nothing is pending.");
  const unsigned = await fetch(root, {
    method: "POST",
    headers: { "content-type": "application/json", "x-github-event": "ping" },
    body: "{}",
  });
  expect(unsigned.status).toBe(400);
});
