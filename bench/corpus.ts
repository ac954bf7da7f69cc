/**
 * Benchmark corpora: TypeScript sources of pinned npm packages (devDependencies, so the versions
 * are in package-lock.json), copied outside any git repository (the ast-grep CLI honours
 * .gitignore, and node_modules/ and bench/.work/ are ignored here).
 *
 * - rxjs:  rxjs@7.8.2 src/**\/*.ts (251 files, 0.9 MB)
 * - large: effect@3.22.4 src/**\/*.ts once + rxjs src/**\/*.ts eleven times (3,124 files, ~17 MB).
 *          Every rxjs copy after the first gets a trailing `// bench replica N` line, so no two files are
 *          equal and no cache keyed by file text (ours or anyone's) sees a repeat.
 * - tiny:  a few generated files, for the smoke test.
 * - ts project (rename/move): the whole rxjs/src directory as shipped (tsconfig.*.json, the .js file).
 */
import { existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { cp, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { walk } from "./fs-workspace.js";

const require = createRequire(import.meta.url);

export interface Corpus {
  name: string;
  description: string;
  dir: string;
  files: number;
  bytes: number;
}

export function packageSrc(name: "rxjs" | "effect"): string {
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), "src");
}

export function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

export const RXJS_REPLICAS = 11;

async function copyTs(from: string, to: string, suffix = ""): Promise<void> {
  const files = (await walk(from)).filter((file) => file.endsWith(".ts"));
  await Promise.all(
    files.map(async (file) => {
      const target = path.join(to, file);
      await mkdir(path.dirname(target), { recursive: true });
      const text = await readFile(path.join(from, file), "utf8");
      await writeFile(target, suffix === "" ? text : `${text}${text.endsWith("\n") ? "" : "\n"}${suffix}\n`);
    }),
  );
}

export async function measure(name: string, description: string, dir: string): Promise<Corpus> {
  const files = await walk(dir);
  let bytes = 0;
  for (const file of files) bytes += (await stat(path.join(dir, file))).size;
  return { name, description, dir, files: files.length, bytes };
}

/**
 * One per checkout: two checkouts benching at once on one machine (several worktrees) would
 * otherwise re-copy each other's corpora mid-run (seen: "… is not a regular file" in the middle of a bot run).
 */
export function defaultWorkDir(): string {
  const checkout = createHash("sha256").update(process.cwd()).digest("hex").slice(0, 8);
  return path.join(os.tmpdir(), `resolve-bot-bench-${checkout}`);
}

/** Fresh copies of the corpora under `workDir`. */
export async function prepareAstCorpora(
  workDir: string,
  which: "tiny" | "large",
  withSmall: boolean,
): Promise<{ main: Corpus; small?: Corpus }> {
  if (which === "tiny") {
    const dir = path.join(workDir, "tiny");
    await rm(dir, { recursive: true, force: true });
    await writeTinyAstCorpus(dir);
    return { main: await measure("tiny", "12 generated files", dir) };
  }
  const rxjs = path.join(workDir, "rxjs");
  const large = path.join(workDir, "large");
  await rm(rxjs, { recursive: true, force: true });
  await rm(large, { recursive: true, force: true });
  await copyTs(packageSrc("rxjs"), rxjs);
  await copyTs(packageSrc("effect"), path.join(large, "effect"));
  for (let i = 0; i < RXJS_REPLICAS; i++) {
    await copyTs(packageSrc("rxjs"), path.join(large, `rxjs-${String(i).padStart(2, "0")}`), i === 0 ? "" : `// bench replica ${i}`);
  }
  const main = await measure(
    "large",
    `effect@${packageVersion("effect")} src + rxjs@${packageVersion("rxjs")} src ×${RXJS_REPLICAS} (.ts only)`,
    large,
  );
  const small = withSmall ? await measure("rxjs", `rxjs@${packageVersion("rxjs")} src (.ts only)`, rxjs) : undefined;
  return { main, small };
}

/** A copy of `corpus` to let the ast-grep CLI rewrite in place (-U). */
export async function scratchCopy(corpus: Corpus, workDir: string): Promise<string> {
  const dir = path.join(workDir, "scratch", corpus.name);
  await rm(dir, { recursive: true, force: true });
  await cp(corpus.dir, dir, { recursive: true });
  return dir;
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

async function writeTinyAstCorpus(dir: string): Promise<void> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    files[`src/mod${i}.ts`] = [
      `// console.log in a comment does not count (${i})`,
      `export function f${i}(value: number | undefined): number {`,
      i % 3 === 0 ? `  console.log("f${i}", value, { i: ${i} });` : `  const unused = ${i};`,
      `  if (value === undefined) throw new Error("missing ${i}");`,
      `  return value * ${i};`,
      `}`,
      i % 4 === 0 ? `export const e${i} = () => new Error(\`e${i}\`);` : `export const n${i} = ${i};`,
      i % 2 === 0 ? `export const g${i} = (o?: { n: number }) => o && o.n;` : `export const h${i} = (o: { n: number }) => o.n;`,
      "",
    ].join("\n");
  }
  await writeFiles(dir, files);
}

/** The TypeScript project for rename/move: rxjs/src as shipped, or a tiny generated one with the same shape. */
export async function prepareTsProject(workDir: string, which: "tiny" | "large"): Promise<Corpus> {
  const dir = path.join(workDir, which === "tiny" ? "tiny-project" : "rxjs-project");
  await rm(dir, { recursive: true, force: true });
  if (which === "large") {
    await cp(packageSrc("rxjs"), dir, { recursive: true });
    return measure("rxjs-project", `rxjs@${packageVersion("rxjs")} src as shipped (all files)`, dir);
  }
  const files: Record<string, string> = {
    "internal/util/isFunction.ts":
      "export function isFunction(value: any): value is (...args: any[]) => any {\n  return typeof value === 'function';\n}\n",
    "internal/util/noop.ts": "export function noop() {}\n",
    "internal/scheduled/schedule.ts":
      "import { isFunction } from '../util/isFunction';\nexport const schedule = (f: unknown) => isFunction(f);\n",
    "internal/ajax/ajax.ts":
      "import { isFunction } from '../util/isFunction';\nimport { noop } from '../util/noop';\nexport const ajax = (f: unknown) => (isFunction(f) ? f : noop);\n",
    "internal/symbol/observable.ts": "export const observable = Symbol('observable');\n",
    "internal/Observable.ts":
      "import { isFunction } from './util/isFunction';\nimport { observable } from './symbol/observable';\nimport { schedule } from './scheduled/schedule';\nexport class Observable { [observable]() { return isFunction(schedule) ? this : null; } }\n",
    "index.ts": "export { Observable } from './internal/Observable';\nexport { ajax } from './internal/ajax/ajax';\n",
  };
  await writeFiles(dir, files);
  return measure("tiny-project", "7 generated files", dir);
}

/** Directories of real code in five languages (Debian's packages, as the parity tests use them). */
const MULTI_LANGUAGE_SOURCES: ReadonlyArray<{ name: string; from: string; keep: RegExp; pkg: string }> = [
  {
    name: "python",
    from: "/usr/lib/python3.11",
    keep: /^(\w+\.py|(json|email|asyncio|http|logging)\/\w+\.py)$/,
    pkg: "libpython3.11-stdlib",
  },
  {
    name: "go",
    from: "/usr/share/go-1.19/src",
    keep: /^(fmt|strings|bufio|net\/http|encoding\/json|go\/parser)\/[\w.]+\.go$/,
    pkg: "golang-src",
  },
  { name: "ruby", from: "/usr/lib/ruby/3.1.0", keep: /^(\w+\.rb|(net|json|uri)\/[\w/]+\.rb)$/, pkg: "libruby3.1" },
  { name: "rust-regex", from: "/usr/share/cargo/registry/regex-1.7.1/src", keep: /\.rs$/, pkg: "librust-regex-dev" },
  { name: "rust-serde", from: "/usr/share/cargo/registry/serde-1.0.152/src", keep: /\.rs$/, pkg: "librust-serde-dev" },
];

/** The multi-language corpus, or undefined (with the packages to install) when a source is missing. */
export async function prepareMultiLanguageCorpus(workDir: string): Promise<Corpus | { missing: string[] }> {
  const missing = MULTI_LANGUAGE_SOURCES.filter((source) => !existsSync(source.from)).map((source) => source.pkg);
  if (missing.length > 0) return { missing };
  const dir = path.join(workDir, "multi");
  await rm(dir, { recursive: true, force: true });
  for (const source of MULTI_LANGUAGE_SOURCES) {
    for (const file of (await walk(source.from)).filter((file) => source.keep.test(file))) {
      const target = path.join(dir, source.name, file);
      await mkdir(path.dirname(target), { recursive: true });
      await cp(path.join(source.from, file), target);
    }
  }
  return measure("multi", "Python, Go and Ruby standard libraries (parts), the regex and serde crates (Debian's packages)", dir);
}
