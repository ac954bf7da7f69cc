/**
 * What a suite needs from the machine: detected, skipped outside CI with one line saying what to
 * install, failed in CI. The suites that need Debian's sources and the container image are run
 * here as on a machine that lacks them (RESOLVE_BOT_TEST_ABSENT), in and out of CI.
 */
import { spawnSync } from "node:child_process";
import { jest as jestGlobal } from "@jest/globals";
import { checkNeeds, debianCommand, debianPackage, missingLine, type Need } from "./machine.js";

const golang = debianPackage("golang-src", () => "/usr/share/go-1.19/src");
const unzip = debianCommand("unzip", "unzip", "-v");
const image: Need = { name: "the image", present: () => true, install: { run: "bash scripts/container-build.sh (as root)" } };

test("one line names what is missing and how to install it, Debian packages in one apt-get", () => {
  expect(missingLine([golang, unzip, image])).toBe(
    "golang-src, unzip, the image missing: apt-get install golang-src unzip; bash scripts/container-build.sh (as root)",
  );
});

test("a package whose files are not there, or a command not on PATH, is missing", () => {
  const absentPackage = debianPackage("golang-src", () => undefined);
  const absentCommand = debianCommand("resolve-bot-no-such-command");
  expect(checkNeeds("x", [debianCommand("git")], {})).toEqual([]);
  const write = jestGlobal.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    expect(checkNeeds("the Go cases", [absentPackage, absentCommand, debianCommand("git")], {})).toEqual([absentPackage, absentCommand]);
    expect(write.mock.calls).toEqual([
      ["Skipping the Go cases: golang-src, resolve-bot-no-such-command missing: apt-get install golang-src resolve-bot-no-such-command\n"],
    ]);
  } finally {
    write.mockRestore();
  }
});

test("in CI a missing need fails instead; RESOLVE_BOT_TEST_ABSENT pretends absence", () => {
  expect(checkNeeds("x", [golang, image], { CI: "true" })).toEqual([]);
  expect(() => checkNeeds("the Go cases", [golang, image], { CI: "true", RESOLVE_BOT_TEST_ABSENT: "golang-src" })).toThrow(
    "the Go cases cannot run: golang-src missing: apt-get install golang-src (.ci/run must install it: CI never skips these tests)",
  );
  expect(() => checkNeeds("x", [golang, image], { CI: "true", RESOLVE_BOT_TEST_ABSENT: "all" })).toThrow("golang-src, the image missing");
});

describe("the suites that need the machine's tools, where those are missing", () => {
  const SUITES = ["test/tools/ast-edit-languages-parity.test.ts", "test/container/image.test.ts"];
  /** jest on SUITES (running none of their tests: only what the suite does on loading) with everything absent. */
  function jestWithout(ci: boolean): { status: number | null; output: string } {
    const env: Record<string, string | undefined> = { ...process.env, RESOLVE_BOT_TEST_ABSENT: "all", CI: ci ? "true" : undefined };
    if (!ci) delete env.CI;
    const run = spawnSync(
      process.execPath,
      ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", "--maxWorkers=1", "--testNamePattern", "^$", ...SUITES],
      { encoding: "utf8", env },
    );
    return { status: run.status, output: run.stdout + run.stderr };
  }

  test("outside CI: skipped, each with one line saying what to install", () => {
    const { status, output } = jestWithout(false);
    expect(status).toBe(0);
    expect(output).toContain(
      "Skipping the cases of test/tools/ast-edit-languages-parity.test.ts on Debian's sources: libpython3.11-stdlib, golang-src, librust-regex-dev, librust-serde-dev, openjdk-17-source, unzip, libruby3.1 missing: apt-get install libpython3.11-stdlib golang-src librust-regex-dev librust-serde-dev openjdk-17-source unzip libruby3.1",
    );
    expect(output).toContain(
      "Skipping test/container/image.test.ts: root, buildah, the image localhost/resolve-bot:test of this commit missing: apt-get install buildah; run it as root (it mounts and chroots); bash scripts/container-build.sh (as root)",
    );
  }, 120_000);

  test("in CI: both suites fail, naming what .ci/run did not install", () => {
    const { status, output } = jestWithout(true);
    expect(status).toBe(1);
    expect(output).toContain("Test Suites: 2 failed, 2 total");
    expect(output).toContain("golang-src, librust-regex-dev");
    expect(output).toContain("(.ci/run must install it: CI never skips these tests)");
    expect(output).toContain("the image localhost/resolve-bot:test of this commit missing");
  }, 120_000);
});
