/** The trailers an apply's commit carries are read back by the same module that writes them; commits are named in 7 characters. */
import { appliedAction, appliedByStep, commitMessage, requestTrailer } from "../../src/core/commit-message.js";
import { shortSha } from "../../src/core/revision.js";

const record = { id: "0f5c2a9e-1d2b-4c3d-8e9f-a0b1c2d3e4f5", label: "AST Edit: 1 replacement in 1 file", tool: "ast-edit" };

test("an apply's message names its action and request step, and both are read back from it", () => {
  const message = commitMessage({
    record,
    reason: "use the logger",
    trailers: [requestTrailer("delivery-7#1"), "Co-authored-by: alice <1+alice@users.noreply.github.com>"],
  });
  expect(message).toBe(
    `AST Edit: 1 replacement in 1 file\n\nuse the logger\n\nResolve-Action: ${record.id}\nResolve-Request: delivery-7#1\nCo-authored-by: alice <1+alice@users.noreply.github.com>\n`,
  );
  expect(appliedAction(message)).toBe(record.id);
  expect(appliedByStep(message)).toBe("delivery-7#1");
});

test("anyone else's commit names no action, even when its text mentions the trailer", () => {
  const message = "Fix typo\n\nSee how Resolve-Action: abc works.\n";
  expect(appliedAction(message)).toBeUndefined();
  expect(appliedByStep(message)).toBeUndefined();
});

test("a full SHA is shortened to 7 characters; a branch or tag name stays whole", () => {
  expect(shortSha("0123456789abcdef0123456789abcdef01234567")).toBe("0123456");
  expect(shortSha("feature/long-branch-name")).toBe("feature/long-branch-name");
  expect(shortSha("main")).toBe("main");
});
