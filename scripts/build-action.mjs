#!/usr/bin/env node
/**
 * Builds the GitHub Action (action.yml `main: dist/action/index.js`): src/apps/action/index.ts and what it
 * imports, bundled by esbuild into ES modules — the entry, and chunks for what the sources import
 * lazily — since a runner installs no dependencies.
 *
 * Native parts cannot be bundled: they are copied next to the bundle, under dist/action/node_modules,
 * where Node's resolution from the bundle finds them — @ast-grep/napi (a Node-API module) and the
 * ast-grep CLI's binary. Runners are Linux x64 (ubuntu-latest), so only those platform packages are
 * copied (a build on another platform copies its own). better-sqlite3 is not needed: the Action's
 * job queue is in memory.
 *
 * Run by `npm run build`, so the tests always run the current code. Not committed on the main branch:
 * a release commits dist/action/ on the tagged commit (README, "Use as a GitHub Action").
 */
import { build } from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "dist/action");
const require = createRequire(path.join(root, "package.json"));

/** Packages loaded at run time from dist/action/node_modules (native code). */
const EXTERNAL = ["@ast-grep/napi", "better-sqlite3"];

function platformSuffix() {
  const { platform, arch } = process;
  if (platform === "linux") return `linux-${arch}-gnu`;
  if (platform === "darwin") return `darwin-${arch}`;
  return `win32-${arch}-msvc`;
}

function copyPackage(name, files) {
  const from = path.dirname(require.resolve(`${name}/package.json`));
  const to = path.join(out, "node_modules", name);
  mkdirSync(to, { recursive: true });
  for (const file of ["package.json", ...files]) cpSync(path.join(from, file), path.join(to, file), { recursive: true });
}

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [path.join(root, "src/apps/action/index.ts")],
  outdir: out,
  entryNames: "index",
  chunkNames: "chunks/[name]-[hash]",
  // What the sources import lazily (TypeScript's compiler, for /move and /rename-symbol: 7 of the
  // 8 MB) becomes a chunk loaded on first use, so a run that does not need it does not parse it.
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  external: EXTERNAL,
  minify: true,
  legalComments: "linked",
  metafile: true,
  logLevel: "warning",
  // CommonJS dependencies call require() for Node's built-ins and read __filename/__dirname
  // (TypeScript's compiler does): an ES module has none of them of its own.
  banner: {
    js: [
      'import { createRequire as __resolveBotRequire } from "node:module";',
      'import { fileURLToPath as __resolveBotPath } from "node:url";',
      "const require = __resolveBotRequire(import.meta.url);",
      "const __filename = __resolveBotPath(import.meta.url);",
      'const __dirname = __resolveBotPath(new URL(".", import.meta.url));',
    ].join(" "),
  },
});
// The bundle is an ES module whatever package.json lies above dist/ in the tree it is run from.
writeFileSync(path.join(out, "package.json"), `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
const suffix = platformSuffix();
const exe = process.platform === "win32" ? ".exe" : "";
copyPackage("@ast-grep/napi", ["index.js"]);
const napiPlatform = `@ast-grep/napi-${suffix}`;
copyPackage(napiPlatform, [JSON.parse(readFileSync(require.resolve(`${napiPlatform}/package.json`), "utf8")).main]);
copyPackage(`@ast-grep/cli-${suffix}`, [`ast-grep${exe}`]);

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"));
const total = outputs.reduce((sum, file) => sum + statSync(path.resolve(root, file)).size, 0);
const entry = statSync(path.join(out, "index.js")).size;
console.log(
  `dist/action: ${megabytes(total)} of JavaScript (index.js ${megabytes(entry)} + ${outputs.length - 1} chunks loaded on first use; ${Object.keys(result.metafile.inputs).length} modules)`,
);
