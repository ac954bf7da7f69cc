/**
 * What a sweep of the app's webhook deliveries costs (issue 34 item 12): the real server
 * (dist/src/apps/server/main.js) against the GitHub emulator. The server sweeps once at start-up
 * (its cursor: an hour back on a fresh data directory), is stopped, and GitHub records 1,000
 * deliveries meanwhile — among them `lost` comments no attempt delivered, failed deliveries of
 * events the bot does not read, and failed ones whose redelivery arrived — on top of older history
 * the cursor already covers. The restart's sweep is counted from the emulator's request log:
 * list pages (`per_page` 100, paged by `cursor`) and detail calls (one per lost event it reads).
 */
import { startBot, waitFor, type Bot } from "../test/e2e/harness.js";
import { log } from "./stats.js";

export interface DeliveriesRow {
  /** Deliveries newer than the cursor. */
  deliveries: number;
  /** Older deliveries GitHub still lists (the cursor covers them). */
  older: number;
  /** Lost events the bot reads (every attempt failed). */
  lost: number;
  /** Failed deliveries of events the bot does not read, and failed ones a redelivery saved. */
  failed_not_read: number;
  list_pages: number;
  detail_calls: number;
  /** Every API call of the sweep (list + detail). */
  calls: number;
  /** What the issue expects: 10 list pages + 1 detail call per lost event (+1 page when older history makes page 10 full). */
  expected_calls: number;
  sweep_ms: number;
}

async function sweeps(bot: Bot): Promise<number> {
  const text = await fetch(bot.webhookUrl.replace("/api/github/webhooks", "/metrics")).then(
    (response) => response.text(),
    () => "",
  );
  const line = text.split("\n").find((l) => l.startsWith("resolve_bot_delivery_sweeps_total"));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** The realistic sweep (older history present), and the same without older history (10 pages exactly). */
export async function benchDeliveries(total = 1_000, lost = 10): Promise<DeliveriesRow & { without_older_history: DeliveriesRow }> {
  const withHistory = await sweepCost(total, lost, 50);
  return { ...withHistory, without_older_history: await sweepCost(total, lost, 0) };
}

async function sweepCost(total: number, lost: number, older: number): Promise<DeliveriesRow> {
  const bot = await startBot({ RESOLVE_BOT_DELIVERY_SWEEP_SECONDS: "3600" });
  try {
    await bot.gh.createRepo("acme", "deliveries", { "a.txt": "a\n" });
    const pr = await bot.gh.createPullRequest({
      repo: "acme/deliveries",
      head: "topic",
      user: "alice",
      commits: [{ files: { "b.txt": "b\n" } }],
    });
    // Older history, before the first sweep's bound (an hour back): listed by GitHub, covered by the cursor.
    for (let i = 0; i < older; i++)
      bot.gh.addDelivery({ event: "check_suite", action: "requested", at: Date.now() - 2 * 3_600_000 + i * 1000 });
    await waitFor("the start-up sweep", async () => (await sweeps(bot)) >= 1 || undefined);
    const exited = new Promise((resolve) => bot.process.once("exit", resolve));
    bot.process.kill("SIGTERM");
    await exited;

    // While it is down: comments without commands (what most lost deliveries are: the bot reads the
    // payload and records nothing), failed pushes (not read), and failed deliveries redelivered.
    const saved = 5;
    const unread = 5;
    const comment = (i: number) => {
      const event = bot.gh.webhooks.issueComment({ repo: "acme/deliveries", number: pr.number, body: `thanks ${i}`, user: "alice" });
      return { event: event.name, action: "created", payload: event.payload };
    };
    const spread = Math.floor(total / lost);
    let added = 0;
    for (let i = 0; added < total; i++) {
      if (i % spread === 0 && i / spread < lost) bot.gh.addDelivery({ ...comment(i), statusCode: 0 });
      else if (i % spread === 1 && i / spread < unread) bot.gh.addDelivery({ event: "push", statusCode: 0 });
      else if (i % spread === 2 && i / spread < saved) {
        const guid = `saved-${i}`;
        bot.gh.addDelivery({ ...comment(i), guid, statusCode: 502 });
        bot.gh.addDelivery({ ...comment(i), guid, statusCode: 200 });
        added++;
      } else bot.gh.addDelivery({ event: "check_suite", action: "requested" });
      added++;
    }
    const seen = bot.gh.log().length;
    const started = Date.now();
    await bot.restart();
    await waitFor("the restart's sweep", async () => (await sweeps(bot)) >= 1 || undefined);
    const sweepMs = Date.now() - started;
    const entries = bot.gh
      .log()
      .slice(seen)
      .filter((entry) => entry.path.startsWith("/app/hook/deliveries"));
    const listPages = entries.filter((entry) => entry.path === "/app/hook/deliveries").length;
    const details = entries.length - listPages;
    const row: DeliveriesRow = {
      deliveries: total,
      older,
      lost,
      failed_not_read: unread + saved,
      list_pages: listPages,
      detail_calls: details,
      calls: entries.length,
      expected_calls: (older > 0 ? Math.ceil((total + 1) / 100) : Math.ceil(total / 100)) + lost,
      sweep_ms: sweepMs,
    };
    log(`deliveries sweep: ${JSON.stringify(row)}`);
    return row;
  } finally {
    await bot.stop();
  }
}
