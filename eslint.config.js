// ESLint with typescript-eslint's type-aware rules; formatting is Prettier's (eslint-config-prettier).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

export default tseslint.config(
  { ignores: ["dist/**", "bench/.work/**", "node_modules/**", "test/fixtures/**", "docs/**", "coverage/**", ".node-lines/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Non-null assertions after a regex match or a bounds check are how this codebase reads.
      "@typescript-eslint/no-non-null-assertion": "off",
      // Interface implementations (tools, stores) are async by contract even when a body has nothing to await.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The layering (docs/ARCHITECTURE.md): neutral layers import no front end, forge or runner; front
    // ends import no other front end; no import circle anywhere in src/ (type-only imports included).
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...["core", "workspace", "pipeline", "tools", "config", "jobs", "workers", "ops"].map((layer) => ({
              target: `./src/${layer}`,
              from: ["./src/apps", "./src/forges", "./src/runner"],
              message: "Neutral layers know no front end, forge or runner: pass what they need through Ports.",
            })),
            { target: "./src/core", from: ["./src/pipeline", "./src/tools", "./src/config"], message: "core is the bottom layer." },
            ...["server", "action", "cli", "mcp"].map((app) => ({
              target: `./src/apps/${app}`,
              from: "./src/apps",
              except: [`./${app}`],
              message: "A front end is a composition root: share code through src/runner or a forge, not another front end.",
            })),
            { target: "./src/forges", from: ["./src/apps"], message: "Forges are adapters the front ends compose." },
            { target: "./src/forges/github", from: "./src/forges/local", message: "Forges do not know each other." },
            { target: "./src/forges/local", from: "./src/forges/github", message: "Forges do not know each other." },
          ],
        },
      ],
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  {
    files: ["scripts/**", "eslint.config.js", "**/*.mjs"],
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        Buffer: "readonly",
        URL: "readonly",
      },
    },
  },
  {
    // Tests and benchmarks probe untyped JSON (API responses, CLI output, webhook payloads) through fakes typed `any`.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Casts of parsed JSON documents read differently to the linter's project service than to tsc.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
  prettier,
);
