/**
 * Webhook intake while a tool burns CPU: the real server (dist/src/apps/server/main.js, one worker thread)
 * against the GitHub emulator, 100 deliveries for another pull request while `/burn-until` holds
 * the worker (test/e2e/ack-under-load.ts). The goal is the production one: < 100 ms p99 (GitHub
 * gives a delivery 10 s; a slow intake is also a slow 👀).
 */
import path from "node:path";
import { acksWhileToolBurns, type IntakeFigures } from "../test/e2e/ack-under-load.js";
import { startBot } from "../test/e2e/harness.js";
import { log } from "./stats.js";

export async function benchIntake(): Promise<IntakeFigures> {
  const bot = await startBot({ RESOLVE_BOT_TOOLS: path.resolve("test/e2e/fixtures/heavy-tools.mjs"), RESOLVE_BOT_WORKERS: "1" });
  try {
    const figures = await acksWhileToolBurns(bot);
    log(`intake while a tool burns CPU: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    await bot.stop();
  }
}
