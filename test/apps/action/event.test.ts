/**
 * The runner's event as the Action reads it: GITHUB_EVENT_NAME / GITHUB_EVENT_PATH checked against
 * what ingress reads, the delivery id without the attempt (a re-run is the same request, run again).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEvent } from "../../../src/apps/action/event.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-action-event-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAYLOAD = {
  action: "created",
  repository: { name: "widgets", full_name: "acme/widgets", owner: { login: "acme" } },
  sender: { login: "alice", id: 5, type: "User" },
  issue: { number: 3, pull_request: { url: "x" } },
  comment: { id: 9, body: "/pending", user: { login: "alice", id: 5, type: "User" } },
};

function env(payload: unknown, more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const file = path.join(dir, `${Math.random()}.json`);
  writeFileSync(file, typeof payload === "string" ? payload : JSON.stringify(payload));
  return { GITHUB_EVENT_NAME: "issue_comment", GITHUB_EVENT_PATH: file, GITHUB_RUN_ID: "77", GITHUB_REPOSITORY: "acme/widgets", ...more };
}

test("the delivery id is the run id, the same on every attempt; attempt 2 and later are re-runs", () => {
  const first = readEvent(env(PAYLOAD, { GITHUB_RUN_ATTEMPT: "1" }));
  const second = readEvent(env(PAYLOAD, { GITHUB_RUN_ATTEMPT: "2" }));
  expect(first.ok && [first.event.delivery.id, first.event.rerun]).toEqual(["77", false]);
  expect(second.ok && [second.event.delivery.id, second.event.rerun]).toEqual(["77", true]);
});

test("a payload without what ingress reads, one about another repository, or no event at all is refused with the reason", () => {
  const { comment: _comment, ...withoutComment } = PAYLOAD;
  expect(readEvent(env(withoutComment))).toEqual({
    ok: false,
    problem: expect.stringMatching(/^the issue_comment event payload does not have the shape resolve-bot reads \(\/comment: /),
  });
  expect(readEvent(env("{not json"))).toEqual({ ok: false, problem: expect.stringContaining("cannot be read") });
  expect(readEvent(env(PAYLOAD, { GITHUB_REPOSITORY: "acme/other" }))).toEqual({
    ok: false,
    problem: "the event is about acme/widgets, but the workflow runs in acme/other",
  });
  expect(readEvent({})).toEqual({ ok: false, problem: expect.stringContaining("resolve-bot runs as a step of a workflow") });
});

test("pull_request_target is read as the pull_request event it carries", () => {
  const payload = { ...PAYLOAD, action: "opened", pull_request: { number: 3 } };
  const read = readEvent(env(payload, { GITHUB_EVENT_NAME: "pull_request_target" }));
  expect(read.ok && read.event.delivery.name).toBe("pull_request");
});
