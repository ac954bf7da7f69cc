/**
 * runRequest against fake ports: a forge in memory (commits by sha, a compare-and-swap head, a
 * stack with a gate, lifecycle upkeep) and the fake tools; no GitHub anywhere. Every intent runs
 * here, from the origins that ask for it. What the person sees (the reply, where it went, the
 * finish mark) and what the forge holds afterwards are asserted.
 */
import { parseCommands } from "../../src/core/commands.js";
import { Runtime } from "../../src/core/runtime.js";
import { MemoryPendingActionStore, type NewPendingRecord, type PendingRecord } from "../../src/core/store.js";
import { UserError } from "../../src/errors.js";
import { ALREADY_PREVIEWED, alreadyCommitted, alreadyResolved } from "../../src/pipeline/journal.js";
import type { LoadedConfig, Ports, PullRequestView, RequestConfig, RequestJournal, Repreviewed } from "../../src/pipeline/ports.js";
import type { Reply, ReplyStatus } from "../../src/pipeline/reply.js";
import { REQUEST_VERSION, type Intent, type Origin, type Request } from "../../src/pipeline/request.js";
import { runRequest } from "../../src/pipeline/run-request.js";
import { TransientFailure } from "../../src/pipeline/transient.js";
import { DEFAULT_COMMAND_LIMITS } from "../../src/core/context.js";
import { MemoryWorkspace, type Revert } from "../../src/workspace/workspace.js";
import { ChangeSet } from "../../src/workspace/changeset.js";
import { appliedAction, commitMessage } from "../../src/core/commit-message.js";
import type { AppliedCommit } from "../../src/core/context.js";
import { appendTool, faultyTool, harness, noteTool } from "../helpers/fake-tools.js";

const CONFIG: RequestConfig = { steering: "stack", commandLimits: DEFAULT_COMMAND_LIMITS };

class ForgeStore extends MemoryPendingActionStore {
  gateUpdates = 0;
  /** Every record ever pushed (what a forge keeps on completed runs too). */
  readonly pushed: PendingRecord[] = [];
  override async push(record: NewPendingRecord): Promise<PendingRecord> {
    const full = await super.push(record);
    this.pushed.push(full);
    return full;
  }
  async updateGate(): Promise<void> {
    this.gateUpdates++;
  }
  async resync(_sha: string, repreview: (record: PendingRecord) => Promise<Repreviewed>): Promise<void> {
    for (const record of (await this.list()).reverse()) {
      await this.pop({ id: record.id, action: "discard", reason: "moved", actor: "bot", message: "" });
      const next = await repreview(record);
      if ("record" in next) await this.push(next.record);
    }
  }
}

/** This forge's failure that may pass (GitHub: a 502, a rate limit). */
class ForgeOutage extends Error {}

/** A forge in memory: each commit's files by sha, a head that only moves by compare-and-swap. */
class FakeForge {
  files = new Map<string, Record<string, string>>([["h0", { "a.txt": "one\n" }]]);
  head = "h0";
  pr: PullRequestView & { number: number } = { number: 7, headSha: "h0", state: "open" };
  readonly store = new ForgeStore();
  readonly replies: Reply[] = [];
  /** Where each reply went: the kind of origin whose channel said it. */
  readonly channels: Origin["kind"][] = [];
  /** What the forge's own upkeep was asked to do (closed, refresh, re-preview), in order. */
  readonly upkeep: string[] = [];
  /** The status of each request's reply, by delivery id (GitHub: the marker in the comment). */
  readonly said = new Map<string, ReplyStatus>();
  readonly finished: boolean[] = [];
  acknowledged = 0;
  readonly suggested: Array<{ label: string; diff: string }> = [];
  readonly ranKeys: string[] = [];
  readonly errors: unknown[] = [];
  readonly reads: string[] = [];
  readonly commits: Array<{ parent: string; sha: string; message: string }> = [];
  config: LoadedConfig<RequestConfig> = { ok: true, config: CONFIG };
  permission: Record<string, string> = {};
  failWorkspace?: Error;
  failRead?: Error;
  /** What the next commit throws (then it works again). */
  failCommit?: Error;
  /** Every error log line's details. */
  readonly logged: Array<Record<string, unknown>> = [];
  touched = 0;

  /** Each commit's parent and message (the bot's carry its trailers: core/commit-message.ts). */
  readonly parents = new Map<string, string>();
  readonly messages = new Map<string, string>();
  /** Whether workspaces can revert commits (a forge without git objects cannot). */
  canRevert = true;

  push(files: Record<string, string>, message = "A reviewer's commit"): string {
    const sha = `h${this.files.size}`;
    this.files.set(sha, files);
    this.parents.set(sha, this.head);
    this.messages.set(sha, message);
    this.head = sha;
    return sha;
  }

  /** The bot's commits reachable from the head, newest first. */
  applied(): AppliedCommit[] {
    const applied: AppliedCommit[] = [];
    for (let sha: string | undefined = this.head; sha !== undefined; sha = this.parents.get(sha)) {
      const message = this.messages.get(sha) ?? "";
      if (appliedAction(message) !== undefined) applied.push({ sha, subject: message.split("\n")[0]! });
    }
    return applied;
  }

  /**
   * This forge's stand-in for `git revert` (git's own is tested against git: test/workspace and
   * e2e): whole files, a file the head changed since the commit conflicts.
   */
  async revert(onto: MemoryWorkspace, commit: string): Promise<Revert> {
    const [after, before, head] = [this.files.get(commit)!, this.files.get(this.parents.get(commit)!)!, this.files.get(onto.revision)!];
    const subject = this.messages.get(commit)!.split("\n")[0]!;
    const touched = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((path) => after[path] !== before[path]);
    const conflicts = touched.filter((path) => head[path] !== after[path] && head[path] !== before[path]);
    if (conflicts.length > 0) return { commit, subject, conflicts };
    const changes = new ChangeSet(onto);
    for (const path of touched.filter((candidate) => head[candidate] === after[candidate])) {
      const old = before[path];
      if (old === undefined) await changes.delete(path);
      else await changes.write(path, old);
    }
    return { commit, subject, changes };
  }

  /** What the forge shows of each request step: pushed records, resolutions (with their commits). */
  journal(): RequestJournal {
    const journal: RequestJournal = { pushed: new Map(), resolved: new Map() };
    for (const record of this.store.pushed) {
      if (record.requestStep) journal.pushed.set(record.requestStep, [...(journal.pushed.get(record.requestStep) ?? []), record]);
    }
    for (const resolution of this.store.resolutions) {
      const record = this.store.pushed.find((candidate) => candidate.id === resolution.id);
      if (resolution.requestStep)
        journal.resolved.set(resolution.requestStep, { action: resolution.action, commit: resolution.commit, record });
    }
    return journal;
  }

  ports(runtime: Runtime, request: { id: string; origin: Origin; rerun: boolean }): Ports<RequestConfig, PullRequestView> {
    const touch = () => this.touched++;
    const rerun = request.rerun;
    return {
      ...(rerun ? { journal: { read: async () => this.journal() } } : {}),
      runtime,
      config: { load: async () => (touch(), this.config), fallback: CONFIG },
      permission: {
        refusal: async (actor, commands) => {
          const denied = commands.find((command) => this.permission[command] !== undefined);
          return denied === undefined ? undefined : { command: denied, needed: this.permission[denied]!, actual: "read" };
        },
      },
      pullRequest: {
        read: async () => {
          touch();
          if (this.failRead) throw this.failRead;
          return { ...this.pr, headSha: this.head };
        },
      },
      stack: { open: () => this.store },
      workspace: {
        at: async (_pr, sha) => {
          this.reads.push(sha);
          if (this.failWorkspace) throw this.failWorkspace;
          const files = new MemoryWorkspace(this.files.get(sha)!, sha);
          if (this.canRevert) files.revert = (commit) => this.revert(files, commit);
          return files;
        },
      },
      history: { applied: async () => this.applied() },
      commit: {
        commit: async (_pr, parent, changes, request) => {
          const failure = this.failCommit;
          this.failCommit = undefined;
          if (failure !== undefined) throw failure;
          if (parent !== this.head) throw new UserError(`the branch moved (${parent} is not ${this.head}); nothing was committed.`);
          const files = { ...this.files.get(parent)! };
          for (const change of await changes.resolveChanges()) {
            if (change.kind === "rename" || change.kind === "delete") delete files[change.kind === "rename" ? change.from : change.path];
            if (change.kind !== "delete") files[change.path] = Buffer.from(change.content).toString("utf8");
          }
          const sha = this.push(files, commitMessage({ record: request.record, reason: request.reason }));
          this.commits.push({ parent, sha, message: request.reason });
          return sha;
        },
      },
      reply: {
        send: async (reply) => {
          this.replies.push(reply);
          this.ranKeys.push(...(reply.ran ?? []));
          this.channels.push(request.origin.kind);
          this.said.set(request.id, reply.status);
        },
        finish: async (ok) => void this.finished.push(ok),
        acknowledge: async () => void this.acknowledged++,
        // What edits ran: the keys their replies recorded.
        ran: async () => new Set(this.ranKeys),
        ...(rerun ? { sent: async () => this.said.get(request.id) } : {}),
      },
      buttonPlace: "the gate",
      suggest: {
        offer: async (_pr, label, diff) => (this.suggested.push({ label, diff }), "see the suggestions."),
      },
      lifecycle: {
        refresh: async () => (this.upkeep.push("refresh"), "Found 1 pending action on an earlier commit."),
        rerun: async (_pr, _config, actionId) => void this.upkeep.push(`re-preview ${actionId ?? "(gate)"}`),
        closed: async (_pr, _config, merged) => void this.upkeep.push(merged ? "closed (merged)" : "closed"),
        brokenConfig: async () => void this.upkeep.push("broken config"),
      },
      log: {
        warn: () => undefined,
        error: (details) => {
          this.errors.push(details.err);
          this.logged.push(details);
        },
      },
      transient: (error) => (error instanceof ForgeOutage ? new TransientFailure(error.message, 600_000, { cause: error }) : undefined),
    };
  }
}

async function setup() {
  const { registry } = await harness([appendTool, noteTool, faultyTool]);
  const forge = new FakeForge();
  const runtime = new Runtime(registry);
  const run = (intent: Intent, origin: Origin = { kind: "none" }, actor = "alice", id = "d", rerun = false) => {
    const request: Request = {
      version: REQUEST_VERSION,
      forge: { id: "local" },
      repository: { owner: "o", repo: "r" },
      pullRequest: 7,
      actor: { login: actor, id: 1 },
      id,
      intent,
      origin,
    };
    return runRequest(request, forge.ports(runtime, { id, origin, rerun }));
  };
  const commands = (body: string): Intent => ({ kind: "commands", commands: parseCommands(body) });
  const comment = (body: string, origin: Origin = { kind: "comment", commentId: 1 }) => run(commands(body), origin);
  /** A comment as request `id`; `rerun`: a later attempt of that job. */
  const attempt = (id: string, body: string, rerun: boolean) => run(commands(body), { kind: "comment", commentId: 1 }, "alice", id, rerun);
  return { forge, run, comment, attempt };
}

describe("comments", () => {
  test("the session owns the head: after an apply the next command reads the new commit", async () => {
    const { forge, comment } = await setup();
    const result = await comment("/append a.txt two\n/resolve apply first\n/append a.txt three\n/resolve apply second");
    expect(result.status).toBe("ok");
    expect(forge.commits).toEqual([
      { parent: "h0", sha: "h1", message: "first" },
      { parent: "h1", sha: "h2", message: "second" },
    ]);
    expect(forge.files.get("h2")).toEqual({ "a.txt": "one\ntwo\nthree\n" });
    // Read once per head: h0 for the first preview and apply, h1 for the rest.
    expect(forge.reads).toEqual(["h0", "h1"]);
    expect(forge.finished).toEqual([true]);
    expect(forge.store.gateUpdates).toBe(1);
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.message)).toEqual([
      "Will append to a.txt",
      "Applied: Append: 1 line to a.txt.",
      "Will append to a.txt",
      "Applied: Append: 1 line to a.txt.",
    ]);
  });

  test("a failed command is the user's: its message is the reply, 😕, and later commands are skipped", async () => {
    const { forge, comment } = await setup();
    const result = await comment("/resolve apply now\n/note later");
    expect(result.status).toBe("user-error");
    expect(forge.replies[0]).toMatchObject({
      status: "user-error",
      outcomes: [{ ok: false, message: "No pending action to resolve. Nothing to apply or discard." }],
      skipped: ["/note"],
    });
    expect(forge.finished).toEqual([false]);
    expect(forge.store.gateUpdates).toBe(0);
  });

  test("a missing permission refuses the whole comment before anything runs, with the steering line", async () => {
    const { forge, comment } = await setup();
    await comment("/note kept");
    forge.permission = { append: "write" };
    await comment("/note other\n/append a.txt x");
    expect(forge.replies[1]).toEqual({
      status: "user-error",
      outcomes: [],
      skipped: [],
      notice: "Sorry, `/append` needs write permission on this repository, and alice has read. Nothing was changed.",
      stack: [expect.objectContaining({ label: "Note: kept" })],
      steering: "Pending: Note: kept. Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
    });
    expect(forge.finished).toEqual([true, false]);
    expect(await forge.store.list()).toHaveLength(1);
  });

  test("configuration problems are listed and nothing runs", async () => {
    const { forge, comment } = await setup();
    forge.config = {
      ok: false,
      file: ".github/resolve-bot.yml",
      errors: ['tools: unknown tool "nope"', 'steering: must be one of stack, strict (got "loose")'],
    };
    await comment("/note x");
    expect(forge.replies[0]!.notice).toBe(
      '`.github/resolve-bot.yml` has problems, so nothing was run:\n- tools: unknown tool "nope"\n- steering: must be one of stack, strict (got "loose")',
    );
    expect(await forge.store.list()).toEqual([]);
  });

  test("a merged pull request runs /pending and /help only", async () => {
    const { forge, comment } = await setup();
    forge.pr = { ...forge.pr, state: "closed", merged: true };
    await comment("/note x");
    expect(forge.replies[0]!.notice).toBe(
      "This pull request was merged: a commit on its branch would never reach the base branch. Nothing was run.",
    );
    expect((await comment("/pending")).status).toBe("ok");
    expect(forge.replies[1]!.outcomes[0]!.message).toBe("Nothing is pending.");
  });

  test("a bot failure is logged with its error and answered with an apology that holds no internal message", async () => {
    const { forge, comment } = await setup();
    forge.failWorkspace = new Error("GET /tarball failed: token ghs_SECRET at /srv/app");
    const result = await comment("/append a.txt two");
    expect(result.status).toBe("bot-error");
    expect(forge.errors).toEqual([forge.failWorkspace]);
    expect(forge.replies).toEqual([{ status: "bot-error", outcomes: [], skipped: [], stack: [] }]);
    expect(forge.finished).toEqual([false]);
    expect(JSON.stringify(forge.replies)).not.toContain("ghs_SECRET");
  });
});

describe("other intents", () => {
  test("resolve-newest from a button resolves the top with a reason naming who pressed it, and answers", async () => {
    const { forge, comment, run } = await setup();
    await comment("/append a.txt two");
    const result = await run({ kind: "resolve-newest", action: "apply" }, { kind: "button", checkRunId: 5 }, "bob");
    expect(result.status).toBe("ok");
    expect(forge.commits).toEqual([{ parent: "h0", sha: "h1", message: "Applied from the gate by @bob" }]);
    expect(forge.replies[1]).toMatchObject({
      outcomes: [{ command: "/resolve", kind: "resolve", ok: true, message: "Applied: Append: 1 line to a.txt." }],
      stack: [],
      steering: undefined,
    });
    expect(forge.channels).toEqual(["comment", "button"]);
  });

  test("head-moved previews every pending action again on the new head and says so", async () => {
    const { forge, comment, run } = await setup();
    await comment("/append a.txt two");
    const before = forge.head;
    const after = forge.push({ "a.txt": "zero\none\n" });
    const gates = forge.store.gateUpdates;
    await run({ kind: "head-moved", before, after });
    expect(forge.reads.at(-1)).toBe(after);
    expect(forge.replies[1]!.notice).toBe(
      `New commits were pushed (${before} → ${after}), so the pending edits were previewed again:\n- Append: 1 line to a.txt: the preview changed.`,
    );
    expect((await forge.store.peek())!.headSha).toBe(after);
    expect(forge.store.gateUpdates).toBe(gates + 1);
  });

  test("head-moved with nothing pending only refreshes the gate; opened too; nobody is answered", async () => {
    const { forge, run } = await setup();
    await run({ kind: "head-moved", before: "h0", after: forge.push({ "a.txt": "x\n" }) });
    await run({ kind: "opened" });
    expect(forge.store.gateUpdates).toBe(2);
    expect(forge.replies).toEqual([]);
  });

  test("a failure nobody asked for is logged, not answered", async () => {
    const { forge, comment, run } = await setup();
    await comment("/append a.txt two");
    forge.failWorkspace = new Error("boom");
    const result = await run({ kind: "head-moved", before: "h0", after: forge.push({ "a.txt": "x\n" }) });
    expect(result).toEqual({ status: "bot-error" });
    expect(forge.errors).toEqual([forge.failWorkspace]);
    expect(forge.replies).toHaveLength(1);
  });

  test("closed, refresh and re-preview are the forge's upkeep; what it reports is said with the stack", async () => {
    const { forge, comment, run } = await setup();
    await comment("/note kept");
    expect(await run({ kind: "closed", merged: true })).toEqual({ status: "ok" });
    expect(await run({ kind: "re-preview", actionId: "a1" })).toEqual({ status: "ok" });
    expect(await run({ kind: "re-preview" })).toEqual({ status: "ok" });
    const refreshed = await run({ kind: "refresh" });
    expect(forge.upkeep).toEqual(["closed (merged)", "re-preview a1", "re-preview (gate)", "refresh"]);
    expect(refreshed.reply).toMatchObject({
      notice: "Found 1 pending action on an earlier commit.",
      stack: [expect.objectContaining({ label: "Note: kept" })],
    });
    expect(forge.channels).toEqual(["comment", "none"]);
  });

  test("on a closed pull request only closing is upkeep; a broken configuration is shown by the forge", async () => {
    const { forge, run } = await setup();
    forge.pr = { ...forge.pr, state: "closed" };
    await run({ kind: "refresh" });
    forge.pr = { ...forge.pr, state: "open" };
    forge.config = { ok: false, file: "config.yml", errors: ["bad"] };
    await run({ kind: "refresh" });
    expect(forge.upkeep).toEqual(["broken config"]);
    expect(forge.replies).toEqual([]);
  });
});

describe("commands written on lines of a file", () => {
  const onLines = (lines?: { start: number; end: number }, side: "head" | "base" = "head"): Origin => ({
    kind: "line-comment",
    commentId: 31,
    threadId: 30,
    path: "a.txt",
    side,
    ...(lines ? { lines } : {}),
  });

  test("a tool that knows how is scoped to the file (its parameters, stored with the action, say so)", async () => {
    const { forge, comment } = await setup();
    const result = await comment("/append two\n/resolve apply on the line", onLines({ start: 1, end: 1 }));
    expect(result.status).toBe("ok");
    expect(forge.files.get(forge.head)).toEqual({ "a.txt": "one\ntwo\n" });
    expect(forge.store.pushed[0]!.params).toEqual({ file: "a.txt", text: "two" });
    expect(forge.channels).toEqual(["line-comment"]);
    expect(forge.finished).toEqual([true]);
  });

  test("/pending, /help and tools that do not know lines run as in the conversation", async () => {
    const { forge, comment } = await setup();
    expect((await comment("/note here\n/pending", onLines({ start: 1, end: 1 }))).status).toBe("ok");
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.message)).toEqual([
      "Prepared 1 note(s)",
      expect.stringContaining("1 pending, newest first"),
    ]);
  });

  test("on an outdated comment (its lines left the diff) a command that needs the lines is refused, and stops the rest", async () => {
    const { forge, comment } = await setup();
    expect((await comment("/append two\n/pending", onLines())).status).toBe("user-error");
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.message)).toEqual([
      "This comment is on a line of a.txt that is no longer part of the pull request's diff (it is outdated), so a command on its lines was not run. Comment on the current diff, or in the conversation.",
    ]);
    expect(forge.replies[0]!.skipped).toEqual(["/pending"]);
    expect(forge.store.pushed).toEqual([]);
    expect(forge.finished).toEqual([false]);
  });

  test("on an outdated comment the other commands run as in the conversation, answered where it was asked", async () => {
    const { forge, comment } = await setup();
    // `/append <file> <text>` names its file: the lines do not scope it.
    const result = await comment("/append a.txt two\n/pending\n/resolve apply in the thread", onLines());
    expect(result.status).toBe("ok");
    expect(forge.files.get(forge.head)).toEqual({ "a.txt": "one\ntwo\n" });
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true]);
    expect(forge.channels).toEqual(["line-comment"]);
  });

  test("on an outdated comment the refusal is the scoped command's own: what ran before it stays run", async () => {
    const { forge, comment } = await setup();
    expect((await comment("/pending\n/append two\n/help", onLines())).status).toBe("user-error");
    expect(forge.replies[0]!.outcomes.map((outcome) => [outcome.command, outcome.ok])).toEqual([
      ["/pending", true],
      ["/append", false],
    ]);
    expect(forge.replies[0]!.outcomes[1]!.message).toContain("so a command on its lines was not run.");
    expect(forge.replies[0]!.skipped).toEqual(["/help"]);
  });

  test("a comment on the base side refuses a command that needs the lines, and says why", async () => {
    const { forge, comment } = await setup();
    await comment("/append two", onLines({ start: 1, end: 1 }, "base"));
    expect(forge.replies[0]!.outcomes[0]!.message).toBe(
      "This comment is on the old (base) side of a.txt; commands on a line act on the pull request's version of the file, so this one was not run. Comment on the new side of the diff, or in the conversation.",
    );
    expect(forge.store.pushed).toEqual([]);
    expect((await comment("/pending", onLines({ start: 1, end: 1 }, "base"))).status).toBe("ok");
  });

  test("permissions hold as in the conversation", async () => {
    const { forge, comment } = await setup();
    forge.permission = { append: "write" };
    await comment("/append two", onLines({ start: 1, end: 1 }));
    expect(forge.replies[0]!.notice).toBe(
      "Sorry, `/append` needs write permission on this repository, and alice has read. Nothing was changed.",
    );
    expect(forge.channels).toEqual(["line-comment"]);
  });
});

describe("--as-suggestion", () => {
  test("any preview tool's change is offered through the forge, and nothing is pushed", async () => {
    const { forge, comment } = await setup();
    const result = await comment("/append a.txt two --as-suggestion");
    expect(result.status).toBe("ok");
    expect(forge.suggested).toEqual([{ label: "Append: 1 line to a.txt", diff: expect.stringContaining("+two") }]);
    expect(forge.replies[0]!.outcomes[0]!.message).toBe(
      "Append: 1 line to a.txt: nothing was pushed; see the suggestions.\nWill append to a.txt",
    );
    expect(forge.store.pushed).toEqual([]);
    expect(forge.store.gateUpdates).toBe(0);
  });
});

describe("commands added by editing a comment", () => {
  const edit = (keys: string[]): Origin => ({ kind: "comment", commentId: 1, edit: { keys } });

  test("off by default: nothing runs, nothing is said or marked", async () => {
    const { forge, comment } = await setup();
    expect(await comment("/note added", edit(["k1"]))).toEqual({ status: "ok" });
    expect({ replies: forge.replies, finished: forge.finished, acknowledged: forge.acknowledged }).toEqual({
      replies: [],
      finished: [],
      acknowledged: 0,
    });
  });

  test("with runOnEdit: acknowledged, run, and the reply says which lines; an edit never runs a command twice", async () => {
    const { forge, run } = await setup();
    forge.config = { ok: true, config: { ...CONFIG, runOnEdit: true } };
    const commands = parseCommands("text\n/note one\nmore\n/note two");
    expect((await run({ kind: "commands", commands }, edit(["k1", "k2"]))).status).toBe("ok");
    expect(forge.acknowledged).toBe(1);
    expect(forge.replies[0]!.preface).toBe("This answers what your edit added: line 2 (`/note`), line 4 (`/note`).");
    expect(forge.replies[0]!.outcomes).toHaveLength(2);
    // A later edit's request naming k2 again (say it was removed and put back) runs only what is new.
    const again = parseCommands("/note two\n/note three");
    await run({ kind: "commands", commands: again }, edit(["k2", "k3"]));
    expect(forge.replies[1]!.preface).toBe("This answers what your edit added: line 2 (`/note`).");
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Note: three", "Note: two", "Note: one"]);
    // Nothing new at all: nothing is said.
    expect(await run({ kind: "commands", commands: again }, edit(["k2", "k3"]))).toEqual({ status: "ok" });
    expect(forge.replies).toHaveLength(2);
  });
});

describe("a job that runs again (an earlier attempt was cut short)", () => {
  test("after every write but before the reply: nothing is done twice, and the one reply says what was done", async () => {
    const { forge, attempt } = await setup();
    const body = "/note kept\n/append a.txt two\n/resolve apply first";
    await attempt("d1", body, false);
    forge.replies.length = 0; // the first attempt was killed before its reply reached the forge
    forge.said.clear();
    const result = await attempt("d1", body, true);
    expect(result.status).toBe("ok");
    expect(forge.commits).toEqual([{ parent: "h0", sha: "h1", message: "first" }]);
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Note: kept"]);
    expect(forge.replies).toHaveLength(1);
    expect(forge.replies[0]!.outcomes.map((outcome) => outcome.message)).toEqual([
      ALREADY_PREVIEWED,
      ALREADY_PREVIEWED,
      alreadyCommitted("h1"),
    ]);
    expect(forge.replies[0]!.outcomes[2]!.resolved).toMatchObject({ action: "apply", commit: "h1", reason: "first" });
  });

  test("part-way: the commands carried out are reported, the rest run once", async () => {
    const { forge, attempt } = await setup();
    await attempt("d0", "/note older", false);
    await attempt("d1", "/note newer", false); // the cut-short attempt got as far as its first command
    forge.said.delete("d1"); // and did not reply
    const result = await attempt("d1", "/note newer\n/resolve discard no", true);
    expect(result.status).toBe("ok");
    expect(forge.replies.at(-1)!.outcomes.map((outcome) => outcome.message)).toEqual([
      ALREADY_PREVIEWED,
      "Discarded: Note: newer. Reason: no",
    ]);
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Note: older"]);
    // Once more (killed before replying): the discard is found, the older note stays.
    forge.said.clear();
    await attempt("d1", "/note newer\n/resolve discard no", true);
    expect(forge.replies.at(-1)!.outcomes.map((outcome) => outcome.message)).toEqual([
      ALREADY_PREVIEWED,
      alreadyResolved("Note: newer", "discard"),
    ]);
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Note: older"]);
  });

  test("after the reply: no second reply, only the finish its status calls for", async () => {
    const { forge, attempt } = await setup();
    await attempt("d1", "/resolve apply nothing", false);
    const result = await attempt("d1", "/resolve apply nothing", true);
    expect(result).toEqual({ status: "user-error" });
    expect(forge.replies).toHaveLength(1);
    expect(forge.finished).toEqual([false, false]);
  });

  test("a first attempt reads no journal (the normal path pays nothing)", async () => {
    const { forge, attempt } = await setup();
    await attempt("d1", "/note kept", false);
    await attempt("d1", "/note kept", false);
    expect(await forge.store.list()).toHaveLength(2);
  });
});

describe("one error model: the reviewer's failures are replies, the forge's are retries, bugs are apologies", () => {
  test("the forge failing for now during an apply's commit: handed to the job queue, nothing said; the retry applies once", async () => {
    const { forge, comment, attempt } = await setup();
    await comment("/append a.txt two");
    forge.failCommit = new ForgeOutage("Bad Gateway");
    const failure = await attempt("d-apply", "/resolve apply ship it", false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransientFailure);
    expect((failure as TransientFailure).retryAfterMs).toBe(600_000);
    expect(forge.replies).toHaveLength(1); // the preview's only
    expect(forge.finished).toEqual([true]);
    expect(forge.errors).toEqual([]);
    expect(await forge.store.list()).toHaveLength(1);

    const retried = await attempt("d-apply", "/resolve apply ship it", true);
    expect(retried.status).toBe("ok");
    expect(forge.commits).toEqual([{ parent: "h0", sha: "h1", message: "ship it" }]);
    expect(forge.replies.map((reply) => reply.outcomes.map((outcome) => outcome.message))).toEqual([
      ["Will append to a.txt"],
      ["Applied: Append: 1 line to a.txt."],
    ]);
    expect(await forge.store.list()).toEqual([]);
  });

  test("a custom tool whose apply throws a TypeError: the apology, the error logged with the request, the action still pending", async () => {
    const { forge, attempt, comment } = await setup();
    await comment("/faulty bug");
    const result = await attempt("d-bug", "/resolve apply go", false);
    expect(result.status).toBe("bot-error");
    expect(forge.replies[1]).toEqual({ status: "bot-error", outcomes: [], skipped: [], stack: [] });
    expect(forge.errors).toEqual([expect.any(TypeError)]);
    expect(forge.logged[0]!.request).toEqual({ key: "o/r#7", id: "d-bug", intent: "commands", origin: "comment" });
    expect(forge.finished).toEqual([true, false]);
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Faulty: fails as bug"]);
    expect(forge.commits).toEqual([]);
  });

  test("a custom tool whose apply throws a UserError: `Apply failed:` with its words, nothing logged, still pending", async () => {
    const { forge, comment } = await setup();
    await comment("/faulty user");
    const result = await comment("/resolve apply go");
    expect(result.status).toBe("user-error");
    expect(forge.replies[1]!.outcomes.map((outcome) => outcome.message)).toEqual([
      "Apply failed: the lock file is held by another job; try again later.",
    ]);
    expect(forge.errors).toEqual([]);
    expect(await forge.store.list()).toHaveLength(1);
  });

  test("a UserError before any command runs (the pull request cannot be read as asked) is a reply, not an apology", async () => {
    const { forge, comment } = await setup();
    forge.failRead = new UserError("This pull request's branch was deleted.");
    const result = await comment("/append a.txt two");
    expect(result.status).toBe("user-error");
    expect(forge.replies).toEqual([
      { status: "user-error", outcomes: [], skipped: [], notice: "This pull request's branch was deleted.", stack: [] },
    ]);
    expect(forge.finished).toEqual([false]);
    expect(forge.errors).toEqual([]);
  });
});

describe("/resolve undo: reverting resolve-bot's newest commit is a preview like any other", () => {
  test("with no commit of resolve-bot's on the pull request: a clear reply, nothing pushed", async () => {
    const { forge, comment } = await setup();
    forge.push({ "a.txt": "one\nmine\n" }); // a reviewer's commit is never undone
    const result = await comment("/resolve undo wrong call");
    expect(result.status).toBe("user-error");
    expect(forge.replies[0]).toMatchObject({
      status: "user-error",
      outcomes: [{ command: "/resolve", ok: false, message: "Nothing to undo: resolve-bot has applied no commit on this pull request." }],
      stack: [],
    });
    expect(forge.store.pushed).toEqual([]);
    expect(forge.finished).toEqual([false]);
  });

  test("an empty reason is a usage error that names undo, like apply's and discard's", async () => {
    const { forge, comment } = await setup();
    await comment("/resolve undo");
    expect(forge.replies[0]!.outcomes[0]!.message).toBe(
      "`/resolve undo` needs a reason. Usage: `/resolve apply [--only <path>…] <reason> | /resolve discard <reason> | /resolve undo <reason>`",
    );
    await comment("/resolve redo it");
    expect(forge.replies[1]!.outcomes[0]!.message).toBe(
      "`/resolve` needs an action, `apply`, `discard` or `undo`, and a reason. Usage: `/resolve apply [--only <path>…] <reason> | /resolve discard <reason> | /resolve undo <reason>`",
    );
    expect(forge.store.pushed).toEqual([]);
  });

  test("a clean revert is pushed as a pending action; applying it commits the files as they were before the apply", async () => {
    const { forge, comment } = await setup();
    await comment("/append a.txt two\n/resolve apply first");
    expect(forge.files.get("h1")).toEqual({ "a.txt": "one\ntwo\n" });
    const unrelated = forge.push({ "a.txt": "one\ntwo\n", "b.txt": "later\n" }); // a later commit elsewhere

    const previewed = await comment("/resolve undo it broke the build");
    expect(previewed.status).toBe("ok");
    const [record] = await forge.store.list();
    expect(record).toMatchObject({
      tool: "undo",
      params: { commit: "h1", reason: "it broke the build" },
      label: "Undo: Append: 1 line to a.txt (h1)",
      sourceToolName: "undo",
      headSha: unrelated,
    });
    expect(forge.replies[1]).toMatchObject({
      status: "ok",
      outcomes: [
        {
          command: "/resolve",
          kind: "preview",
          ok: true,
          message: `Undo: Append: 1 line to a.txt (h1)\nReverts h1 as \`git revert\` would, onto the head (${unrelated}). Reason: it broke the build`,
          pushed: [{ record, diff: "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1 @@\n one\n-two\n" }],
        },
      ],
      steering: "Pending: Undo: Append: 1 line to a.txt (h1). Resolve it with `/resolve apply <reason>` or `/resolve discard <reason>`.",
    });
    expect(forge.head).toBe(unrelated); // a preview writes nothing

    await comment("/resolve apply back out");
    expect(forge.replies[2]!.outcomes[0]).toMatchObject({ ok: true, message: "Reverted h1 (Append: 1 line to a.txt)." });
    expect(forge.parents.get(forge.head)).toBe(unrelated);
    expect(forge.files.get(forge.head)).toEqual({ "a.txt": "one\n", "b.txt": "later\n" });
    // The revert is resolve-bot's own commit (its trailers), so undoing it brings the edit back.
    expect(forge.applied().map((commit) => commit.subject)).toEqual(["Undo: Append: 1 line to a.txt (h1)", "Append: 1 line to a.txt"]);
    await comment("/resolve undo needed after all\n/resolve apply again");
    expect(forge.files.get(forge.head)).toEqual({ "a.txt": "one\ntwo\n", "b.txt": "later\n" });
    expect(await forge.store.list()).toEqual([]);
  });

  test("a later commit on the same lines: the reply says the revert does not apply cleanly, names the file, pushes nothing", async () => {
    const { forge, comment } = await setup();
    await comment("/append a.txt two\n/resolve apply first");
    forge.push({ "a.txt": "one\ntwo, edited\n" });
    const result = await comment("/resolve undo not wanted");
    expect(result.status).toBe("user-error");
    expect(forge.replies[1]!.outcomes[0]).toMatchObject({
      ok: false,
      message:
        "Undo of h1 (Append: 1 line to a.txt) does not apply cleanly: later commits changed the same lines in a.txt. Nothing was pushed; to undo it anyway, revert it by hand (`git revert h1`) and resolve the conflicts.",
    });
    expect(forge.store.pushed.map((record) => record.tool)).toEqual(["append"]);
    expect(await forge.store.list()).toEqual([]);
  });

  test("the apply replays the revert on the then-current head: a later change to the same file makes it stale, and it stays pending", async () => {
    const { forge, comment } = await setup();
    await comment("/append a.txt two\n/resolve apply first");
    await comment("/resolve undo not wanted");
    forge.push({ "a.txt": "one\ntwo\n", "c.txt": "unrelated\n" });
    await comment("/resolve apply go"); // unrelated files: the same revert, applied on the new head
    expect(forge.files.get(forge.head)).toEqual({ "a.txt": "one\n", "c.txt": "unrelated\n" });

    await comment("/append a.txt three\n/resolve apply second");
    await comment("/resolve undo no");
    forge.push({ "a.txt": "one\nthree\nfour\n", "c.txt": "unrelated\n" });
    await comment("/resolve apply go");
    expect(forge.replies.at(-1)!.outcomes[0]!.message).toMatch(
      /^Apply failed: preview is stale: the tool now reports: Undo of h\d \(Append: 1 line to a\.txt\) does not apply cleanly/,
    );
    expect((await forge.store.list()).map((record) => record.label)).toEqual([expect.stringMatching(/^Undo: Append: 1 line to a\.txt/)]);
  });

  test("a run cut short after its undo was pushed: the re-run reports it and pushes nothing twice", async () => {
    const { forge, comment, attempt } = await setup();
    await comment("/append a.txt two\n/resolve apply first");
    await attempt("d1", "/resolve undo not wanted", false);
    forge.replies.length = 0; // killed before the reply reached the forge
    forge.said.clear();
    await attempt("d1", "/resolve undo not wanted", true);
    expect(forge.replies[0]!.outcomes.map((outcome) => [outcome.kind, outcome.message])).toEqual([["preview", ALREADY_PREVIEWED]]);
    expect((await forge.store.list()).map((record) => record.label)).toEqual(["Undo: Append: 1 line to a.txt (h1)"]);
  });

  test("a front end that cannot revert says so and pushes nothing", async () => {
    const { forge, comment } = await setup();
    await comment("/append a.txt two\n/resolve apply first");
    forge.canRevert = false;
    await comment("/resolve undo x");
    expect(forge.replies[1]!.outcomes[0]!.message).toBe("Undo is not available here: this front end cannot read or revert commits.");
    expect(await forge.store.list()).toEqual([]);
  });
});
