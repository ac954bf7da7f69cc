#!/usr/bin/env node
/**
 * `npm test`: jest on two workers (most suites wait on child processes: the server, the GitHub
 * emulator, git, the ast-grep CLI), then the isolation suites alone: they measure how fast webhooks
 * are answered while a tool burns CPU or is stopped, and another suite's CPU would be measured too.
 * Arguments (`npm test -- test/e2e/faults.test.ts`) run jest on what they name, as usual.
 */
import { spawnSync } from "node:child_process";

const JEST = ["--experimental-vm-modules", "node_modules/jest/bin/jest.js"];
const ALONE = "test/e2e/isolation-";

function jest(args) {
  const { status, signal } = spawnSync(process.execPath, [...JEST, ...args], { stdio: "inherit" });
  return status ?? (signal ? 1 : 0);
}

const args = process.argv.slice(2);
if (args.length > 0) process.exit(jest(args));
const rest = jest(["--maxWorkers=2", `--testPathIgnorePatterns=${ALONE}`]);
process.exit(rest !== 0 ? rest : jest([ALONE]));
