/**
 * The deliveries sweep (forges/github/deliveries.ts): grouping by guid, the cursor and its bounds
 * as plain functions, then whole sweeps with the app's Octokit against the emulator's deliveries
 * API (paging by `cursor` in the Link header, stopping at the cursor, the detail call per lost event).
 */
import { Probot } from "probot";
import { GitHubEmulator } from "../../e2e/emulator/index.js";
import { resolveBotOctokit } from "../../../src/forges/github/api/octokit.js";
import {
  CURSOR_NOTE,
  FIRST_LOOKBACK_MS,
  lostDeliveries,
  nextCursor,
  OVERLAP_MS,
  readCursor,
  RETENTION_MS,
  sweepBound,
  sweepDeliveries,
  type DeliveriesClient,
  type DeliveryItem,
  type RecoveredDelivery,
} from "../../../src/forges/github/deliveries.js";
import { MemoryJobQueue } from "../../../src/jobs/memory-queue.js";

const NOW = Date.parse("2026-12-07T12:00:00Z");

function item(id: number, guid: string, statusCode: number, event = "issue_comment", action: string | null = "created"): DeliveryItem {
  return {
    id,
    guid,
    delivered_at: new Date(NOW - (1000 - id) * 1000).toISOString(),
    redelivery: false,
    status: statusCode === 200 ? "OK" : "failed to connect",
    status_code: statusCode,
    event,
    action,
    installation_id: 1,
    repository_id: 2,
  };
}

describe("which deliveries were lost", () => {
  test("an event is lost when every attempt of its guid failed; a redelivery that arrived saves it", () => {
    const items = [
      item(9, "redelivered", 200),
      item(8, "lost-twice", 503),
      item(7, "lost", 0),
      item(5, "lost-twice", 0),
      item(4, "redelivered", 0),
      item(3, "arrived", 202),
      item(2, "redirected", 302),
    ];
    // Oldest event first, each as its newest attempt (whose payload is read).
    expect(lostDeliveries(items).map((d) => [d.guid, d.id])).toEqual([
      ["lost", 7],
      ["lost-twice", 8],
    ]);
  });

  test("events ingress does not read cost nothing; neither do guids an earlier sweep re-submitted", () => {
    const items = [
      item(6, "push", 0, "push", null),
      item(5, "issues", 0, "issues", "opened"),
      item(4, "deleted-comment", 0, "issue_comment", "deleted"),
      item(3, "review", 500, "pull_request_review", "submitted"),
      item(2, "done-before", 0),
    ];
    expect(lostDeliveries(items, new Set(["done-before"])).map((d) => d.guid)).toEqual(["review"]);
  });
});

describe("the cursor", () => {
  test("a fresh data directory looks back an hour; a cursor is followed, never past GitHub's 3 days", () => {
    expect(sweepBound(undefined, NOW)).toBe(NOW - FIRST_LOOKBACK_MS);
    expect(sweepBound({ through: NOW - 60_000, handled: [] }, NOW)).toBe(NOW - 60_000);
    expect(sweepBound({ through: NOW - 5 * RETENTION_MS, handled: [] }, NOW)).toBe(NOW - RETENTION_MS);
  });

  test("the next sweep starts a minute before the newest delivery seen and skips the guids re-submitted since", () => {
    const seen = [item(999, "newest", 200), item(990, "lost-recently", 0), item(900, "lost-earlier", 0)];
    const newest = Date.parse(seen[0]!.delivered_at);
    expect(nextCursor(NOW - FIRST_LOOKBACK_MS, seen, seen.slice(1))).toEqual({
      through: newest - OVERLAP_MS,
      handled: ["lost-recently"],
    });
    // Nothing seen: the bound stays where it was.
    expect(nextCursor(NOW - 5_000, [], [])).toEqual({ through: NOW - 5_000, handled: [] });
  });

  test("a cursor that cannot be read counts as none", () => {
    expect(readCursor(undefined)).toBeUndefined();
    expect(readCursor("not json")).toBeUndefined();
    expect(readCursor('{"through":"x","handled":[]}')).toBeUndefined();
    expect(readCursor('{"through":5,"handled":["a",7]}')).toEqual({ through: 5, handled: ["a"] });
  });
});

describe("a sweep against the emulator's deliveries API", () => {
  let gh: GitHubEmulator;
  let octokit: DeliveriesClient;

  // One emulator per test: each sweeps deliveries of its own.
  beforeEach(async () => {
    gh = await GitHubEmulator.start();
    const env = gh.probotEnv("unused");
    const probot = new Probot({
      appId: Number(env.APP_ID),
      privateKey: env.PRIVATE_KEY!,
      baseUrl: gh.apiUrl,
      Octokit: resolveBotOctokit({ RESOLVE_BOT_THROTTLE: "off" }),
      logLevel: "fatal",
    });
    octokit = (await probot.auth()) as unknown as DeliveriesClient;
  }, 30_000);

  afterEach(async () => {
    expect(gh.validateLog()).toEqual([]);
    await gh.stop();
  });

  /** The sweep's requests, as `path?query` (list pages) or `detail <id>`. */
  function calls(): string[] {
    return gh
      .log()
      .filter((entry) => entry.path.startsWith("/app/hook/deliveries"))
      .map((entry) =>
        entry.path === "/app/hook/deliveries" ? `list${entry.query.cursor ? " (cursor)" : ""}` : `detail ${entry.path.split("/").at(-1)}`,
      );
  }

  function comment(n: number): Record<string, unknown> {
    return { action: "created", issue: { number: n }, installation: { id: gh.installationId } };
  }

  test("pages back to the cursor, re-submits each lost event once, and the next sweep starts where this one stopped", async () => {
    const queue = new MemoryJobQueue();
    const start = Date.now();
    // 250 deliveries ten seconds apart, oldest first; among them a lost comment, a comment lost twice
    // (first try and a failed redelivery), a lost push (not an event the bot reads), and one whose
    // redelivery arrived.
    const at = (i: number) => start - (250 - i) * 10_000;
    const lost = new Map<number, string>();
    for (let i = 0; i < 250; i++) {
      const spec =
        i === 40
          ? { event: "issue_comment", action: "created", payload: comment(40), guid: "lost-40", statusCode: 0 }
          : i === 41
            ? { event: "push", payload: { ref: "refs/heads/main" }, statusCode: 0 }
            : i === 120 || i === 121
              ? { event: "issue_comment", action: "created", payload: comment(120), guid: "lost-120", statusCode: i === 120 ? 0 : 503 }
              : i === 200 || i === 201
                ? { event: "issue_comment", action: "created", payload: comment(200), guid: "saved-200", statusCode: i === 200 ? 0 : 200 }
                : { event: "check_suite", action: "requested", statusCode: 200 };
      const delivery = gh.addDelivery({ ...spec, at: at(i) });
      if (spec.guid?.startsWith("lost")) lost.set(i, String(delivery.id));
    }
    const submitted: RecoveredDelivery[] = [];
    const submit = async (delivery: RecoveredDelivery) => {
      submitted.push(delivery);
      return delivery.id !== "lost-120"; // as if that one had arrived after all
    };
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => void warnings.push(message) };

    // A fresh data directory: an hour back, i.e. the newest 360 s × 10 = all 250 are newer; 3 pages.
    const first = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(first).toEqual({ pages: 3, listed: 250, lost: 2, recovered: [{ guid: "lost-40", event: "issue_comment.created" }], skipped: 0 });
    expect(calls()).toEqual(["list", "list (cursor)", "list (cursor)", `detail ${lost.get(40)}`, `detail ${lost.get(121)}`]);
    expect(submitted).toEqual([
      { id: "lost-40", name: "issue_comment", payload: comment(40) },
      { id: "lost-120", name: "issue_comment", payload: comment(120) },
    ]);
    const newest = Date.parse(new Date(at(249)).toISOString().replace(/\.\d{3}Z$/, "Z"));
    expect(readCursor(await queue.notes.get(CURSOR_NOTE))).toEqual({ through: newest - OVERLAP_MS, handled: [] });
    gh.clearLog();

    // Nothing new: one page, which reaches the cursor; nothing re-submitted again.
    submitted.length = 0;
    const second = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(second).toMatchObject({ pages: 1, listed: 7, lost: 0, recovered: [] });
    expect(calls()).toEqual(["list"]);
    gh.clearLog();

    // 150 newer ones, one of them lost: two pages (the second reaches the cursor), one detail call;
    // the overlap of the sweep after it finds it handled and reads no payload again.
    let lostLater = "";
    for (let i = 0; i < 150; i++) {
      const failed = i === 149;
      const d = gh.addDelivery(
        failed
          ? { event: "issue_comment", action: "created", payload: comment(149), guid: "lost-late", statusCode: 0 }
          : { event: "check_suite", action: "requested" },
      );
      if (failed) lostLater = String(d.id);
    }
    const third = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(third).toMatchObject({ pages: 2, lost: 1, recovered: [{ guid: "lost-late", event: "issue_comment.created" }] });
    expect(calls()).toEqual(["list", "list (cursor)", `detail ${lostLater}`]);
    expect(readCursor(await queue.notes.get(CURSOR_NOTE))?.handled).toEqual(["lost-late"]);
    gh.clearLog();
    const fourth = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(fourth).toMatchObject({ pages: 2, lost: 0, recovered: [] });
    expect(calls()).toEqual(["list", "list (cursor)"]);
    expect(warnings).toEqual([]);
  });

  test("GitHub failing mid-sweep throws and keeps the cursor, so the next sweep does it again", async () => {
    const queue = new MemoryJobQueue();
    await queue.notes.set(CURSOR_NOTE, JSON.stringify({ through: Date.now() - 60_000, handled: [] }));
    const before = await queue.notes.get(CURSOR_NOTE);
    const d = gh.addDelivery({ event: "issue_comment", action: "created", payload: comment(7), guid: "lost-fault", statusCode: 0 });
    // Not retried in place (a 5xx would be, by Octokit's retry plugin, for seconds).
    gh.injectFault({ path: `GET /app/hook/deliveries/${d.id}`, status: 401, times: Infinity });
    const submitted: string[] = [];
    const submit = async (delivery: RecoveredDelivery) => submitted.push(delivery.id) > 0;
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => void warnings.push(message) };
    await expect(sweepDeliveries({ octokit, notes: queue.notes, submit, log })).rejects.toMatchObject({ status: 401 });
    expect(await queue.notes.get(CURSOR_NOTE)).toBe(before);
    expect(submitted).toEqual([]);
    gh.clearFaults();
    gh.clearLog();

    const again = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(again.recovered).toEqual([{ guid: "lost-fault", event: "issue_comment.created" }]);
    expect(submitted).toEqual(["lost-fault"]);
    expect(warnings).toEqual([]);
  });

  test("a lost delivery GitHub no longer has, or whose payload ingress cannot read, is said at warn and passed", async () => {
    const queue = new MemoryJobQueue();
    await queue.notes.set(CURSOR_NOTE, JSON.stringify({ through: Date.now() - 60_000, handled: [] }));
    const gone = gh.addDelivery({ event: "issue_comment", action: "created", payload: comment(8), guid: "gone", statusCode: 0 });
    gh.addDelivery({ event: "issue_comment", action: "created", payload: comment(9), guid: "unreadable", statusCode: 0 });
    gh.injectFault({ path: `GET /app/hook/deliveries/${gone.id}`, status: 404 });
    const submit = async (delivery: RecoveredDelivery) => {
      if (delivery.id === "unreadable") throw new TypeError("Cannot read properties of undefined (reading 'pull_request')");
      return true;
    };
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => void warnings.push(message) };
    const result = await sweepDeliveries({ octokit, notes: queue.notes, submit, log });
    expect(result).toMatchObject({ lost: 2, skipped: 2, recovered: [] });
    expect(warnings).toEqual(["a lost webhook delivery has no payload on GitHub any more", "a lost webhook delivery could not be read"]);
    // Passed for good: the next sweep reads neither again.
    expect(readCursor(await queue.notes.get(CURSOR_NOTE))?.handled.sort()).toEqual(["gone", "unreadable"]);
  });
});
