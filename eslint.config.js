// ESLint with typescript-eslint's type-aware rules; formatting is Prettier's (eslint-config-prettier).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

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
