#!/usr/bin/env node
/**
 * `npm test`: jest on two workers (most suites wait on child processes: the server, the GitHub
 * emulator, git, the ast-grep CLI), then the isolation suites alone: they measure how fast webhooks
 * are answered while a tool burns CPU or is stopped, and another suite's CPU would be measured too.
 * Arguments (`npm test -- test/e2e/faults.test.ts`) run jest on what they name, as usual.
 * `--quick` (`npm run test:quick`): unit and pipeline suites only, for contributors between edits:
 * not the end-to-end, container, Node-line and bench suites, nor the parity and real-project
 * suites that run the ast-grep CLI or TypeScript over rxjs, effect and Debian's sources.
 */
import { spawnSync } from "node:child_process";

const JEST = ["--experimental-vm-modules", "node_modules/jest/bin/jest.js"];
const ALONE = "test/e2e/isolation-";

function jest(args) {
  const { status, signal } = spawnSync(process.execPath, [...JEST, ...args], { stdio: "inherit" });
  return status ?? (signal ? 1 : 0);
}

const SLOW = [
  "test/e2e/",
  "test/container/",
  "test/node-lines",
  "test/bench/",
  "test/tools/ast-edit-cli-parity",
  "test/tools/ast-edit-languages-parity",
  "test/tools/move-rename-real",
];

const args = process.argv.slice(2);
if (args[0] === "--quick")
  process.exit(jest(["--maxWorkers=2", ...SLOW.map((slow) => `--testPathIgnorePatterns=${slow}`), ...args.slice(1)]));
if (args.length > 0) process.exit(jest(args));
const rest = jest(["--maxWorkers=2", `--testPathIgnorePatterns=${ALONE}`]);
process.exit(rest !== 0 ? rest : jest([ALONE]));
