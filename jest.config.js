/** ESM TypeScript through ts-jest; run with node --experimental-vm-modules (see package.json). */
export default {
  preset: "ts-jest/presets/default-esm",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  moduleNameMapper: { "^resolve-bot$": "<rootDir>/src/api.ts", "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["ts-jest", { useESM: true, tsconfig: "tsconfig.json", diagnostics: { ignoreCodes: [151002] } }],
  },
  testTimeout: 60000,
};
