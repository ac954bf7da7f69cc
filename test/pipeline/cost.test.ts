/**
 * What a request costs (pipeline/cost.ts) through runRequest with a forge in memory: a request
 * still running after the threshold says early which command runs on how many files, its reply
 * says how long it took, and the status is settled after the reply; a quick one is answered as
 * before. Exactly once across re-runs; its failures follow the one error model. The tool that
 * runs long waits for the test (a gate), never for a clock.
 */
import { parseCommands } from "../../src/core/commands.js";
import { DEFAULT_COMMAND_LIMITS } from "../../src/core/context.js";
import { Runtime } from "../../src/core/runtime.js";
import { MemoryPendingActionStore } from "../../src/core/store.js";
import { formatDuration, statusAfterMs, tookText, workingText } from "../../src/pipeline/cost.js";
import type { Ports, PullRequestView, RequestConfig, WorkingStatus } from "../../src/pipeline/ports.js";
import type { Reply, ReplyStatus } from "../../src/pipeline/reply.js";
import { REQUEST_VERSION, type Origin, type Request } from "../../src/pipeline/request.js";
import { runRequest } from "../../src/pipeline/run-request.js";
import { TransientFailure } from "../../src/pipeline/transient.js";
import { MemoryWorkspace } from "../../src/workspace/workspace.js";
import { gate, harness, slowTool } from "../helpers/fake-tools.js";

const CONFIG: RequestConfig = { steering: "stack", commandLimits: DEFAULT_COMMAND_LIMITS };
const FILES = { "a.ts": "a\n", "b.ts": "b\n", "c.ts": "c\n" };

/** A forge's early statuses in memory, as GitHub keeps them: by request, found again by a re-run. */
class StatusForge {
  readonly events: string[] = [];
  readonly statuses = new Map<string, { text: string; settled: boolean }>();
  readonly replies: Reply[] = [];
  readonly logged: unknown[] = [];
  readonly said = new Map<string, ReplyStatus>();
  /** Resolved once the pipeline asks to say a status (before saying it or failing to). */
  readonly statusAsked = gate();
  /** What saying the next status throws. */
  failStatus?: Error;

  working(requestId: string, afterMs: number, rerun: boolean): WorkingStatus {
    // A first run knows only what it said itself; a re-run looks on the forge.
    let mine = false;
    const out = () => mine || (rerun && this.statuses.has(requestId));
    return {
      afterMs,
      say: async (text) => {
        this.statusAsked.open();
        if (out()) return;
        if (this.failStatus) throw this.failStatus;
        this.statuses.set(requestId, { text, settled: false });
        mine = true;
        this.events.push(`status: ${text}`);
      },
      out: async () => out(),
      settle: async () => {
        const status = out() ? this.statuses.get(requestId) : undefined;
        if (!status || status.settled) return;
        status.settled = true;
        this.events.push("settled");
      },
    };
  }

  ports(runtime: Runtime, request: Request, afterMs: number, rerun: boolean): Ports<RequestConfig, PullRequestView> {
    const store = new MemoryPendingActionStore();
    return {
      runtime,
      config: { load: async () => ({ ok: true, config: CONFIG }), fallback: CONFIG },
      permission: { refusal: async () => undefined },
      pullRequest: { read: async () => ({ headSha: "h0", state: "open" }) },
      stack: { open: () => store },
      workspace: {
        at: async (_pr, sha) => new MemoryWorkspace(FILES, sha),
      },
      commit: { commit: async () => undefined },
      reply: {
        send: async (reply) => {
          this.replies.push(reply);
          this.said.set(request.id, reply.status);
          this.events.push(`reply: ${reply.status}`);
        },
        finish: async (ok) => void this.events.push(ok ? "finished" : "finished (failed)"),
        ...(rerun ? { sent: async () => this.said.get(request.id) } : {}),
        working: this.working(request.id, afterMs, rerun),
      },
      log: { warn: (details) => void this.logged.push(details.err), error: (details) => void this.logged.push(details.err) },
      transient: (error) => (error instanceof Error && error.message === "502" ? new TransientFailure("502", 1000) : undefined),
    };
  }
}

async function setup() {
  const finish = gate();
  const started = gate();
  const { registry } = await harness([slowTool(finish, started)]);
  const runtime = new Runtime(registry);
  const forge = new StatusForge();
  const run = (body: string, { afterMs = 0, id = "d1", rerun = false, origin = { kind: "comment", commentId: 1 } as Origin } = {}) => {
    const request: Request = {
      version: REQUEST_VERSION,
      forge: { id: "local" },
      repository: { owner: "o", repo: "r" },
      pullRequest: 7,
      actor: { login: "alice" },
      id,
      intent: { kind: "commands", commands: parseCommands(body) },
      origin,
    };
    return runRequest(request, forge.ports(runtime, request, afterMs, rerun));
  };
  return { forge, run, started, finishTool: () => finish.open() };
}

describe("a request that runs past the threshold", () => {
  test("says early which command runs on how many files; the reply says how long it took; then the status is settled", async () => {
    const { forge, run, finishTool } = await setup();
    const running = run("/slow");
    await forge.statusAsked.promise;
    expect(forge.events).toEqual(["status: Working on `/slow` (3 files)…"]);
    finishTool();
    const result = await running;
    expect(result.status).toBe("ok");
    expect(forge.replies).toHaveLength(1);
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.message)).toEqual(["Looked at 3 files"]);
    expect(forge.replies[0]!.took).toEqual(expect.any(Number));
    expect(forge.events).toEqual(["status: Working on `/slow` (3 files)…", "reply: ok", "settled", "finished"]);
  });

  test("a threshold above 0: the status comes once it has passed", async () => {
    const { forge, run, finishTool } = await setup();
    const running = run("/slow", { afterMs: 20 });
    await forge.statusAsked.promise;
    finishTool();
    await running;
    expect(forge.events).toEqual(["status: Working on `/slow` (3 files)…", "reply: ok", "settled", "finished"]);
  });

  test("a command refused after the status: the refusal also says how long it took", async () => {
    const { forge, run, finishTool } = await setup();
    const running = run("/slow fail");
    await forge.statusAsked.promise;
    finishTool();
    expect((await running).status).toBe("user-error");
    expect(forge.replies[0]!.outcomes[0]!.message).toBe("the slow tool refuses.");
    expect(forge.replies[0]!.took).toEqual(expect.any(Number));
    expect(forge.events.slice(1)).toEqual(["reply: user-error", "settled", "finished (failed)"]);
  });

  test("nobody waits (a push): nothing is said early", async () => {
    const { forge, run, started, finishTool } = await setup();
    const push = run("/slow", { origin: { kind: "none" } });
    // With a threshold of 0 the status is due at once, and said as soon as the files are listed: before the tool goes on.
    await started.promise;
    finishTool();
    await push;
    expect([...forge.statuses.keys()]).toEqual([]);
  });
});

describe("a request answered within the threshold", () => {
  test("one reply, no duration, nothing to settle", async () => {
    const { forge, run, finishTool } = await setup();
    finishTool();
    expect((await run("/slow", { afterMs: 60_000 })).status).toBe("ok");
    expect(forge.events).toEqual(["reply: ok", "finished"]);
    expect(forge.replies[0]!.took).toBeUndefined();
  });
});

describe("exactly once when the request runs again (its run was cut short)", () => {
  test("a re-run that runs long again finds its interrupted run's status and says none of its own", async () => {
    const { forge, run, finishTool } = await setup();
    forge.statuses.set("d1", { text: workingText("`/slow`", 3), settled: false });
    const running = run("/slow", { rerun: true });
    await forge.statusAsked.promise;
    finishTool();
    await running;
    expect(forge.statuses.size).toBe(1);
    expect(forge.events).toEqual(["reply: ok", "settled", "finished"]);
    // That status went out, so the reply says how long the request took.
    expect(forge.replies[0]!.took).toEqual(expect.any(Number));
  });

  test("a re-run whose reply was already out only settles the status and finishes", async () => {
    const { forge, run } = await setup();
    forge.statuses.set("d1", { text: workingText("`/slow`", 3), settled: false });
    forge.said.set("d1", "ok");
    expect(await run("/slow", { rerun: true })).toEqual({ status: "ok" });
    expect(forge.replies).toEqual([]);
    expect(forge.events).toEqual(["settled", "finished"]);
  });
});

describe("one error model for the status itself", () => {
  test("the forge failing for now as the status is said: handed to the job queue once the command is done, nothing replied", async () => {
    const { forge, run, finishTool } = await setup();
    forge.failStatus = new Error("502");
    const running = run("/slow").catch((error: unknown) => error);
    await forge.statusAsked.promise;
    finishTool();
    const failure = await running;
    expect(failure).toBeInstanceOf(TransientFailure);
    expect(forge.replies).toEqual([]);
    expect(forge.events).toEqual([]);
  });

  test("a bug in saying the status: the apology, the error logged", async () => {
    const { forge, run, finishTool } = await setup();
    const bug = new TypeError("cannot read properties of undefined");
    forge.failStatus = bug;
    const running = run("/slow");
    await forge.statusAsked.promise;
    finishTool();
    expect((await running).status).toBe("bot-error");
    expect(forge.replies).toEqual([{ status: "bot-error", outcomes: [], skipped: [], stack: [] }]);
    expect(forge.logged).toContain(bug);
  });
});

describe("texts and settings", () => {
  test("the duration in words", () => {
    expect([400, 9_800, 9_960, 23_400, 245_000].map(formatDuration)).toEqual(["0.4 s", "9.8 s", "10 s", "23 s", "4 min 5 s"]);
    expect(tookText(23_400)).toBe("Took 23 s.");
    expect(workingText("`/ast-edit`", 14_521)).toBe("Working on `/ast-edit` (14,521 files)…");
    expect(workingText("`/move`", 1)).toBe("Working on `/move` (1 file)…");
  });

  test("RESOLVE_BOT_STATUS_AFTER_SECONDS: default 5 s, 0 at once, off; anything else is refused with the variable's name", () => {
    expect(statusAfterMs({})).toBe(5_000);
    expect(statusAfterMs({ RESOLVE_BOT_STATUS_AFTER_SECONDS: "0" })).toBe(0);
    expect(statusAfterMs({ RESOLVE_BOT_STATUS_AFTER_SECONDS: "2.5" })).toBe(2_500);
    expect(statusAfterMs({ RESOLVE_BOT_STATUS_AFTER_SECONDS: "off" })).toBeUndefined();
    expect(() => statusAfterMs({ RESOLVE_BOT_STATUS_AFTER_SECONDS: "soon" })).toThrow(
      'RESOLVE_BOT_STATUS_AFTER_SECONDS must be a number of seconds (0 or more) or "off" (got "soon").',
    );
  });
});
