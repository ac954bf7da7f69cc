/**
 * The hidden markers a re-run of a request reads back from GitHub: which request a reply answers
 * (and how it ended), and which request step resolved an action. Ids come from webhook headers, so
 * none may close the HTML comment and show up in the rendered page.
 */
import { marked } from "marked";
import { decodeStep, encodeStep } from "../../../../src/forges/github/checks/record-codec.js";
import { repliedStatus, requestMarker } from "../../../../src/forges/github/replies/render.js";

const HOSTILE = "x --> **shown** <!-- y";

test("a reply's marker names its request and status, and renders as nothing", async () => {
  const body = `Applied: Note.\n\n${requestMarker("d-1", "ok")}`;
  expect(repliedStatus(body, "d-1")).toBe("ok");
  expect(repliedStatus(body, "d-2")).toBeUndefined();
  expect(repliedStatus(`x\n\n${requestMarker("d-1", "user-error")}`, "d-1")).toBe("user-error");
  expect(repliedStatus("Applied: Note.", "d-1")).toBeUndefined();
  const hostile = `Done.\n\n${requestMarker(HOSTILE, "bot-error")}`;
  expect(repliedStatus(hostile, HOSTILE)).toBe("bot-error");
  expect(await marked.parse(hostile)).toBe(`<p>Done.</p>\n${requestMarker(HOSTILE, "bot-error")}`);
  // One HTML comment, closed only at its end: nothing of the id can leave it.
  expect(requestMarker(HOSTILE, "bot-error").indexOf("-->")).toBe(requestMarker(HOSTILE, "bot-error").length - 3);
});

test("a resolution's step marker round-trips; none without a step", () => {
  const summary = `Discarded by @alice.${encodeStep("d-1#2")}\n\n<!-- resolve-bot:record:abc -->`;
  expect(decodeStep(summary)).toBe("d-1#2");
  expect(decodeStep(`s${encodeStep(HOSTILE)}`)).toBe(HOSTILE);
  expect(encodeStep(HOSTILE).match(/-->/g)).toHaveLength(1);
  expect(encodeStep(undefined)).toBe("");
  expect(decodeStep("no marker")).toBeUndefined();
});
