/** ESM TypeScript through ts-jest; run with node --experimental-vm-modules (see package.json). */
/* global process */
// How many times longer than on a quiet machine a test may take before it is given up on
// (test/helpers/patience.ts): tests wait for conditions, so this costs nothing when they pass.
process.env.RESOLVE_BOT_TEST_PATIENCE ??= "3";
export default {
  preset: "ts-jest/presets/default-esm",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  moduleNameMapper: { "^resolve-bot$": "<rootDir>/src/api.ts", "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.json", diagnostics: { ignoreCodes: [151002] } }],
  },
  testTimeout: 60_000 * Number(process.env.RESOLVE_BOT_TEST_PATIENCE),
  // A worker's event loop is empty within 15 ms of jest's "end" message (measured), but on a loaded
  // 2-core machine the process then takes 450–650 ms to exit (heap teardown), past jest's 500 ms, and
  // jest kills it and warns of a leak. A real leak (a handle that stays open) is still reported.
  workerGracefulExitTimeout: 5000,
};
