import { stoppedMessage } from "../../src/workers/outcome.js";

const facts = { what: "`/move`", timeLimitMs: 120_000, memoryMb: 1024 };
const landed =
  "it was stopped while committing, so its commit may have landed: the next command on this pull request finds out and says which.";

test.each([
  ["time-limit", "`/move` did not finish within 120 s and was stopped; nothing was changed."],
  ["memory-limit", "`/move` needed more than 1024 MB of memory and was stopped; nothing was changed."],
  ["crashed", "`/move` failed inside resolve-bot (the error is in the app's log); nothing was changed."],
  ["aborted", "`/move` was cancelled before it finished; nothing was changed."],
] as const)("%s before any write", (reason, message) => {
  expect(stoppedMessage(reason, { ...facts, writing: false })).toBe(message);
});

test.each([
  ["time-limit", `\`/move\` did not finish within 120 s and was stopped; ${landed}`],
  ["memory-limit", `\`/move\` needed more than 1024 MB of memory and was stopped; ${landed}`],
  ["crashed", `\`/move\` failed inside resolve-bot (the error is in the app's log); ${landed}`],
  ["aborted", `\`/move\` was cancelled before it finished; ${landed}`],
] as const)("%s while committing never claims nothing changed", (reason, message) => {
  expect(stoppedMessage(reason, { ...facts, writing: true })).toBe(message);
});
