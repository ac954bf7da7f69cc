/**
 * How fast the real server acknowledges webhooks while one of its worker threads burns CPU for a
 * tool: shared by the isolation suite (the property: deliveries never wait for the tool) and by
 * `npm run bench` (section intake: the < 100 ms p99 goal). The bot must load
 * test/e2e/fixtures/heavy-tools.mjs; the tool burns until told, so it overlaps every delivery.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { deliver, waitFor, type Bot } from "./harness.js";

export interface IntakeFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** The tool was still burning when the last delivery was answered. */
  overlapped: boolean;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.ceil((p / 100) * sorted.length) - 1]! * 10) / 10;
}

let repos = 0;

export async function acksWhileToolBurns(bot: Bot, count = 100): Promise<IntakeFigures> {
  const name = `intake${++repos}`;
  const repo = `acme/${name}`;
  await bot.gh.createRepo("acme", name, { "a.txt": "a\n" });
  bot.gh.setPermission(repo, "alice", "write");
  const busy = await bot.gh.createPullRequest({ repo, head: "busy", user: "alice", commits: [{ files: { "b.txt": "b\n" } }] });
  const other = await bot.gh.createPullRequest({ repo, head: "other", user: "alice", commits: [{ files: { "c.txt": "c\n" } }] });
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-intake-"));
  const release = path.join(dir, "release");
  try {
    const body = `/burn-until --file ${release} --max-ms 300000`;
    const heavy = bot.gh.webhooks.issueComment({ repo, number: busy.number, body, user: "alice" });
    if ((await deliver(bot, heavy)) >= 300) throw new Error("the heavy command was not accepted");
    // The tool has started once its comment has 👀 and no result yet.
    await waitFor("the heavy tool to start", () => bot.gh.reactions(heavy.commentId).some((r) => r.content === "eyes") || undefined);
    const acks: number[] = [];
    const events: number[] = [];
    while (acks.length < count) {
      const event = bot.gh.webhooks.issueComment({ repo, number: other.number, body: "/pending", user: "alice" });
      const start = performance.now();
      const status = await deliver(bot, event);
      if (status >= 300) throw new Error(`a delivery was answered ${status}`);
      acks.push(performance.now() - start);
      events.push(event.commentId);
      await sleep(30);
    }
    const overlapped = !bot.gh.reactions(heavy.commentId).some((r) => r.content === "rocket" || r.content === "confused");
    writeFileSync(release, "");
    await waitFor("the heavy tool's result", () => bot.gh.reactions(heavy.commentId).find((r) => r.content === "rocket"), 120_000);
    for (const id of events) await waitFor(`/pending ${id}`, () => bot.gh.reactions(id).find((r) => r.content === "rocket"), 120_000);
    return { count: acks.length, p50: percentile(acks, 50), p99: percentile(acks, 99), max: percentile(acks, 100), overlapped };
  } finally {
    writeFileSync(release, "");
    rmSync(dir, { recursive: true, force: true });
  }
}
