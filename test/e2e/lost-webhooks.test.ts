/**
 * Lost webhooks are recovered (issue 34 item 12): GitHub never redelivers by itself, so the server
 * sweeps the app's deliveries at start-up (and every few minutes) and re-submits the events no
 * attempt delivered. A comment sent while the server is down is answered after the restart, once;
 * one GitHub recorded as failed although the server took it (its answer came too late) is not run
 * again.
 */
import { deliver, settled, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/lost-webhooks";
let bot: Bot;

// Sweeps at start-up only (the next would come after an hour): what the test sees is the restart's.
useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "lost-webhooks", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: "3600" },
);

/** The bot's replies on the pull request: the request (delivery id) each answers, and its text. */
function botReplies(number: number): Array<[string | undefined, string]> {
  return bot.gh
    .comments(REPO, number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => [/<!-- resolve-bot:request:([^:]+):/.exec(entry.body)?.[1], withoutMarker(entry.body)]);
}

async function metric(name: string): Promise<string[]> {
  const text = await (await fetch(bot.webhookUrl.replace("/api/github/webhooks", "/metrics"))).text();
  return text.split("\n").filter((line) => line.startsWith(name));
}

test("a comment sent while the server was down is answered after the restart, exactly once; one that arrived is not run twice", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });

  // The server takes this one, but GitHub records it as timed out: a sweep will find it "failed".
  const arrived = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  bot.gh.failDeliveries({ event: "issue_comment", mode: "timeout" });
  expect(await deliver(bot, arrived)).toBeLessThan(300);
  await waitFor(
    "the first /pending to be answered",
    () => bot.gh.reactions(arrived.commentId).some((r) => r.content === "rocket") || undefined,
  );

  const exited = new Promise((resolve) => bot.process.once("exit", resolve));
  bot.process.kill("SIGTERM");
  await exited;

  // While the server is down GitHub cannot deliver the comment (and never tries again by itself).
  const lost = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  await expect(deliver(bot, lost)).rejects.toThrow();
  expect(bot.gh.deliveries().map((d) => [d.guid, d.status, d.statusCode])).toEqual([
    [lost.id, "failed to connect", 0],
    [arrived.id, "timed out", 0],
  ]);
  expect(bot.gh.reactions(lost.commentId)).toEqual([]);

  const seen = bot.gh.log().length;
  await bot.restart();
  const done = await waitFor("the lost comment to be answered after the restart", () =>
    bot.gh.reactions(lost.commentId).find((r) => r.content === "rocket" || r.content === "confused"),
  );
  expect(done.content).toBe("rocket");
  await settled(bot);

  expect(bot.gh.reactions(lost.commentId).map((r) => r.content)).toEqual(["eyes", "rocket"]);
  expect(bot.gh.reactions(arrived.commentId).map((r) => r.content)).toEqual(["eyes", "rocket"]);
  // One answer per comment: the recovered one's, and the first one's, which the sweep did not run again.
  expect(botReplies(pr.number)).toEqual([
    [arrived.id, "Nothing is pending."],
    [lost.id, "Nothing is pending."],
  ]);
  expect(await metric("resolve_bot_deliveries_recovered_total{")).toEqual([
    'resolve_bot_deliveries_recovered_total{event="issue_comment.created",role="all"} 1',
  ]);
  expect(await metric("resolve_bot_delivery_sweep_errors_total")).toEqual(['resolve_bot_delivery_sweep_errors_total{role="all"} 0']);
  // The sweep read the list and the two failed deliveries' payloads, with the app's JWT.
  const sweep = bot.gh
    .log()
    .slice(seen)
    .filter((entry) => entry.path.startsWith("/app/hook/deliveries"))
    .map((entry) => `${entry.method} ${entry.operation} ${entry.status}`);
  expect(sweep).toEqual([
    "GET GET /app/hook/deliveries 200",
    "GET GET /app/hook/deliveries/{delivery_id} 200",
    "GET GET /app/hook/deliveries/{delivery_id} 200",
  ]);
});
