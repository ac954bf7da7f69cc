/**
 * What a suite needs from the machine beyond `npm ci`: Debian packages, redis-server, the container
 * image. `.ci/run` installs or builds all of it. Where something is missing, the tests that need it
 * are skipped outside CI with one line saying what to install, and fail in CI (CI=true): there a
 * missing tool means a broken `.ci/run`, not a test to skip.
 *
 * RESOLVE_BOT_TEST_ABSENT=name,name (names as in `Need.name`, or `all`) makes those count as
 * missing, to see the skip and the failure on a machine that has everything.
 */
import { spawnSync } from "node:child_process";

export interface Need {
  /** What is missing, as a person would install it: a Debian package, "the container image". */
  name: string;
  /** Whether it is on this machine (called once). */
  present: () => boolean;
  /** How to get it: a Debian package's name for `apt-get install`, or a command to run. */
  install: { apt: string } | { run: string };
}

type Env = Record<string, string | undefined>;

function pretendedAbsent(name: string, env: Env): boolean {
  const names = (env.RESOLVE_BOT_TEST_ABSENT ?? "").split(",").map((entry) => entry.trim());
  return names.includes("all") || names.includes(name);
}

/** The needs that are missing here (or pretended missing). */
export function missingNeeds(needs: readonly Need[], env: Env = process.env): Need[] {
  return needs.filter((need) => pretendedAbsent(need.name, env) || !need.present());
}

/** The one line that says what to install, e.g. "golang-src, unzip missing: apt-get install golang-src unzip". */
export function missingLine(missing: readonly Need[]): string {
  const apt = [...new Set(missing.flatMap((need) => ("apt" in need.install ? [need.install.apt] : [])))];
  const runs = [...new Set(missing.flatMap((need) => ("run" in need.install ? [need.install.run] : [])))];
  const installs = [...(apt.length > 0 ? [`apt-get install ${apt.join(" ")}`] : []), ...runs];
  return `${missing.map((need) => need.name).join(", ")} missing: ${installs.join("; ")}`;
}

/**
 * The needs of the tests of `what` that are missing. When some are: in CI, throws (the suite fails
 * saying what `.ci/run` did not install); elsewhere prints one line saying what to install and
 * returns them (the caller skips the tests that need them).
 */
export function checkNeeds(what: string, needs: readonly Need[], env: Env = process.env): Need[] {
  const missing = missingNeeds(needs, env);
  if (missing.length === 0) return missing;
  const line = missingLine(missing);
  if (env.CI === "true") throw new Error(`${what} cannot run: ${line} (.ci/run must install it: CI never skips these tests)`);
  // Straight to stderr: jest drops the console output of a suite whose tests are all skipped.
  process.stderr.write(`Skipping ${what}: ${line}\n`);
  return missing;
}

/** A Debian package, present when `find` returns the path it installs. */
export function debianPackage(name: string, find: () => string | undefined): Need {
  return { name, present: () => find() !== undefined, install: { apt: name } };
}

/** A command on PATH (from the Debian package `apt`), present when `command --version` runs. */
export function debianCommand(command: string, apt = command, versionFlag = "--version"): Need {
  return { name: command, present: () => spawnSync(command, [versionFlag], { stdio: "ignore" }).error === undefined, install: { apt } };
}
