/** Which outcome each command of a request is counted with (resolve_bot_command_duration_seconds). */
import { CommandTiming, observeStopped } from "../../src/pipeline/command-metrics.js";
import { setObservationSink, type Observation } from "../../src/ops/observations.js";
import type { CommandOutcome } from "../../src/core/runtime.js";
import type { Reply } from "../../src/pipeline/reply.js";
import type { Request } from "../../src/pipeline/request.js";

const seen: Observation[] = [];
beforeAll(() => setObservationSink((observation) => seen.push(observation)));
afterAll(() => setObservationSink(undefined));
beforeEach(() => seen.splice(0));

function commentRequest(...names: string[]): Request {
  return {
    version: 2,
    forge: { id: "github", installationId: 1 },
    repository: { owner: "o", repo: "r" },
    pullRequest: 1,
    actor: { login: "alice" },
    id: "d",
    intent: { kind: "commands", commands: names.map((name, index) => ({ name, typed: name, args: "", line: index + 1 })) },
    origin: { kind: "comment", commentId: 1 },
  };
}

function reply(status: Reply["status"], outcomes: CommandOutcome[], extra: Partial<Reply> = {}): { status: Reply["status"]; reply: Reply } {
  return { status, reply: { status, outcomes, skipped: [], stack: [], ...extra } };
}

const record = { label: "x" } as never;
const isTool = (name: string) => name === "ast_edit" || name === "move";
const counted = () =>
  seen.map((observation) => (observation.kind === "command" ? `${observation.tool}:${observation.outcome}` : observation.kind));

test("each command that ran is counted with what became of it; the ones skipped after a failure are not", () => {
  const timing = new CommandTiming(commentRequest("ast_edit", "resolve", "resolve", "pending", "move", "move"), isTool);
  for (let i = 0; i < 5; i++) timing.progress.command(`/c${i}`);
  timing.finish(
    reply(
      "user-error",
      [
        { command: "/ast-edit", kind: "preview", ok: true, message: "" },
        { command: "/resolve", kind: "resolve", ok: true, message: "", resolved: { action: "apply", record, reason: "r", rendered: "" } },
        { command: "/resolve", kind: "resolve", ok: true, message: "", resolved: { action: "discard", record, reason: "r", rendered: "" } },
        { command: "/pending", kind: "pending", ok: true, message: "" },
        { command: "/move", kind: "preview", ok: false, message: "no such file" },
      ],
      { skipped: ["/move"] },
    ),
  );
  expect(counted()).toEqual(["ast_edit:previewed", "resolve:applied", "resolve:discarded", "pending:answered", "move:refused"]);
  expect(seen.every((observation) => observation.kind === "command" && observation.seconds >= 0)).toBe(true);
});

test("a request refused before any command ran counts each of its commands as refused; a bot failure as failed", () => {
  new CommandTiming(commentRequest("ast_edit", "move"), isTool).finish(reply("user-error", [], { notice: "needs write permission" }));
  new CommandTiming(commentRequest("ast_edit"), isTool).finish(reply("bot-error", []));
  expect(counted()).toEqual(["ast_edit:refused", "move:refused", "ast_edit:failed"]);
});

test("a name that is no tool is counted as `unknown` (whatever people type, the label's values stay few)", () => {
  new CommandTiming(commentRequest("frobnicate-everything"), isTool).finish(
    reply("user-error", [{ command: "/frobnicate-everything", kind: "error", ok: false, message: "unknown" }]),
  );
  expect(counted()).toEqual(["unknown:refused"]);
});

test("nothing is counted for a request with no reply (a push) or one whose reply an earlier run sent", () => {
  const push: Request = { ...commentRequest(), intent: { kind: "head-moved", before: "a", after: "b" }, origin: { kind: "none" } };
  new CommandTiming(push, isTool).finish(reply("ok", [], { notice: "re-previewed" }));
  new CommandTiming(commentRequest("ast_edit"), isTool).finish({ status: "ok" });
  expect(counted()).toEqual([]);
});

test("the pool stopping a request counts its commands as stopped (a crash as failed)", () => {
  observeStopped(commentRequest("ast_edit"), "time-limit", 30);
  observeStopped(
    { ...commentRequest(), intent: { kind: "resolve-newest", action: "apply" }, origin: { kind: "button", checkRunId: 1 } },
    "memory-limit",
    2,
  );
  observeStopped(commentRequest("move"), "crashed", 1);
  expect(counted()).toEqual(["ast_edit:stopped", "resolve:stopped", "move:failed"]);
  expect(seen[0]).toMatchObject({ seconds: 30 });
});

test("the inner progress is still told every command and the start of writing", () => {
  const told: string[] = [];
  const timing = new CommandTiming(commentRequest("ast_edit"), isTool, {
    command: (label) => told.push(label),
    writing: () => told.push("writing"),
  });
  timing.progress.command("`/ast-edit`");
  timing.progress.writing();
  expect(told).toEqual(["`/ast-edit`", "writing"]);
});
