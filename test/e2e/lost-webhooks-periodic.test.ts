/**
 * The periodic sweep of the app's deliveries (issue 34 item 12), on a running server: a comment
 * GitHub could not deliver is answered by the next sweep, once; a sweep GitHub refuses is logged at
 * warn and counted, and the server goes on and recovers it at the sweep after.
 */
import { settled, useBot, waitFor, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/lost-periodic";
let bot: Bot;

useBot(
  async (started) => {
    bot = started;
    await bot.gh.createRepo("acme", "lost-periodic", { "a.txt": "a\n" });
    bot.gh.setPermission(REPO, "alice", "write");
  },
  { RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: "1" },
);

async function metric(name: string): Promise<string | undefined> {
  const text = await (await fetch(bot.webhookUrl.replace("/api/github/webhooks", "/metrics"))).text();
  return text.split("\n").find((line) => line.startsWith(name));
}

test("a dropped comment is answered by the next sweep, once; a refused sweep is said at warn and done again", async () => {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  // The next list of deliveries is refused (a JWT GitHub does not take, say): that sweep fails.
  bot.gh.injectFault({ path: "GET /app/hook/deliveries", status: 401 });
  const lost = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/pending", user: "alice" });
  bot.gh.failDeliveries({ event: "issue_comment", mode: "drop" });
  expect((await bot.gh.deliver(bot.webhookUrl, lost, { secret: "unused" })).status).toBe(0);

  const done = await waitFor("a sweep to recover the dropped comment", () =>
    bot.gh.reactions(lost.commentId).find((r) => r.content === "rocket" || r.content === "confused"),
  );
  expect(done.content).toBe("rocket");
  await settled(bot);
  // Later sweeps find it handled: still one reply.
  const sweeps = Number((await metric("resolve_bot_delivery_sweeps_total"))?.split(" ").at(-1));
  await waitFor(
    "two more sweeps",
    async () => Number((await metric("resolve_bot_delivery_sweeps_total"))?.split(" ").at(-1)) >= sweeps + 2 || undefined,
  );
  await settled(bot);
  const replies = bot.gh.comments(REPO, pr.number).filter((entry) => entry.user === bot.gh.botLogin);
  expect(replies.map((entry) => withoutMarker(entry.body))).toEqual(["Nothing is pending."]);
  expect(bot.gh.reactions(lost.commentId).map((r) => r.content)).toEqual(["eyes", "rocket"]);

  expect(await metric("resolve_bot_delivery_sweep_errors_total")).toBe('resolve_bot_delivery_sweep_errors_total{role="all"} 1');
  expect(await metric("resolve_bot_deliveries_recovered_total{")).toBe(
    'resolve_bot_deliveries_recovered_total{event="issue_comment.created",role="all"} 1',
  );
  expect(bot.output()).toContain("resolve-bot could not sweep the app's webhook deliveries; it tries again in 1 s: Unauthorized");
});
