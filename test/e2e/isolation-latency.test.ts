/**
 * Webhooks are acknowledged at once while a heavy tool runs: the tool's synchronous work happens in
 * a worker thread, not on the event loop that answers GitHub (which gives a delivery 10 s). The
 * < 100 ms p99 goal is measured by `npm run bench` (section intake); this asserts the property with
 * a margin a loaded machine keeps: a tool on the event loop would hold deliveries until released.
 */
import path from "node:path";
import { acksWhileToolBurns } from "./ack-under-load.js";
import { useBot, type Bot } from "./harness.js";

let bot: Bot;

useBot(
  async (started) => {
    bot = started;
  },
  // One worker thread: the heavy tool has it, so the machine's other core is the server's and the
  // other PR's commands wait their turn (what is measured is intake, not how fast they run).
  { RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/heavy-tools.mjs"), RESOLVE_BOT_WORKERS: "1" },
);

test("webhooks for another PR are acknowledged while a tool burns CPU, without waiting for it", async () => {
  const figures = await acksWhileToolBurns(bot);
  console.log(`webhook acknowledgement while a tool burns CPU (ms): ${JSON.stringify(figures)}`);
  expect(figures.overlapped).toBe(true); // the deliveries really overlapped the heavy work
  expect(figures.count).toBe(100);
  expect(figures.p99).toBeLessThan(1000);
}, 600_000); // the other PR's 100 /pending commands then run one by one on the single worker
