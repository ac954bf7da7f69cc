/**
 * What the job queue hands back is checked before it runs: this version as it is, version 1 (what
 * builds before intents and origins stored) brought up to it, anything else refused with a reason.
 */
import { parseCommands } from "../../src/core/commands.js";
import { REQUEST_VERSION, type Request } from "../../src/pipeline/request.js";
import { readStoredRequest } from "../../src/runner/stored-request.js";

const CURRENT: Request = {
  version: REQUEST_VERSION,
  forge: { id: "github", installationId: 3 },
  repository: { owner: "acme", repo: "w" },
  pullRequest: 4,
  actor: { login: "alice", id: 9 },
  id: "delivery-1",
  intent: { kind: "commands", commands: parseCommands("/pending") },
  origin: { kind: "line-comment", commentId: 12, threadId: 11, path: "src/a.ts", lines: { start: 3, end: 5 }, side: "head" },
};

const V1_COMMON = {
  installationId: 3,
  repository: { owner: "acme", repo: "w" },
  pullRequest: 4,
  actor: { login: "alice", id: 9 },
  deliveryId: "delivery-1",
};

test("this version's request is read back as it was stored (through JSON)", () => {
  expect(readStoredRequest(JSON.parse(JSON.stringify(CURRENT)))).toEqual({ ok: true, request: CURRENT });
});

test.each([
  [{ kind: "comment", commentId: 7, commands: parseCommands("/pending") }, { kind: "commands" }, { kind: "comment", commentId: 7 }],
  [
    { kind: "button", action: "discard", checkRunId: 8 },
    { kind: "resolve-newest", action: "discard" },
    { kind: "button", checkRunId: 8 },
  ],
  [{ kind: "push", before: "a", after: "b" }, { kind: "head-moved", before: "a", after: "b" }, { kind: "none" }],
  [{ kind: "reopened" }, { kind: "opened" }, { kind: "none" }],
  [{ kind: "closed", merged: false }, { kind: "closed", merged: false }, { kind: "none" }],
  [{ kind: "check_suite", headSha: "c" }, { kind: "refresh" }, { kind: "none" }],
  [{ kind: "stale", checkRunId: 2 }, { kind: "refresh" }, { kind: "none" }],
  [
    { kind: "rerequested", checkRunId: 2, name: "resolve-bot: x", actionId: "a1" },
    { kind: "re-preview", actionId: "a1" },
    { kind: "none" },
  ],
])("a version-1 %j request is brought to this version", (trigger, intent, origin) => {
  const read = readStoredRequest({ ...V1_COMMON, trigger });
  expect(read).toMatchObject({
    ok: true,
    request: { version: REQUEST_VERSION, forge: { id: "github", installationId: 3 }, id: "delivery-1", pullRequest: 4, intent, origin },
  });
});

test("an unknown version, a shape that does not fit, or no object at all is refused with the reason", () => {
  expect(readStoredRequest({ ...CURRENT, version: 3 })).toEqual({
    ok: false,
    problem: `the stored request has version 3; this build reads versions 1 and ${REQUEST_VERSION}`,
  });
  expect(readStoredRequest({ ...CURRENT, intent: { kind: "explode" } })).toMatchObject({
    ok: false,
    problem: expect.stringMatching(/^the stored request \(version 2\) does not fit its schema \(\/intent: /),
  });
  expect(readStoredRequest({ ...V1_COMMON, trigger: { kind: "teleport" } })).toEqual({
    ok: false,
    problem: "the stored version-1 request has a trigger this build does not know",
  });
  expect(readStoredRequest("text")).toEqual({ ok: false, problem: "the stored job is not a request object" });
});
