/**
 * `resolve-bot demo`: the whole preview → pending → resolve loop on a throw-away sample
 * repository, so a fresh clone can see the bot work with no GitHub and no setup.
 */
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseCommands } from "../../core/commands.js";
import { Runtime } from "../../core/runtime.js";
import type { ToolRegistry } from "../../core/registry.js";
import { git } from "../../forges/local/git.js";
import { runLocalCommands } from "../../forges/local/ports.js";
import { terminalSink, type Output } from "../../forges/local/terminal.js";

// The logger is imported before the edit uses it, so the demo's result type-checks as it stands.
const SAMPLE: Record<string, string> = {
  "src/logger.ts": `export const logger = {\n  debug: (...values: unknown[]): void => console.debug(...values),\n};\n`,
  "src/math.ts": `import { logger } from "./logger";\n\nexport function add(a: number, b: number): number {\n  console.log("add", a, b);\n  return a + b;\n}\n`,
  "src/main.ts": `import { logger } from "./logger";\nimport { add } from "./math";\n\nconsole.log(add(1, 2));\n`,
  "tsconfig.json": `{ "compilerOptions": { "strict": true, "module": "commonjs" }, "include": ["src"] }\n`,
};

export async function runDemo(registry: ToolRegistry, output: Output): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "resolve-bot-demo-"));
  for (const [file, content] of Object.entries(SAMPLE)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  await git(dir, ["init", "--quiet", "--initial-branch=main"]);
  await git(dir, ["add", "-A"]);
  await git(dir, ["-c", "user.name=Demo", "-c", "user.email=demo@example.com", "commit", "--quiet", "-m", "Sample project"]);
  await git(dir, ["config", "user.name", "Demo"]);
  await git(dir, ["config", "user.email", "demo@example.com"]);

  const local = { cwd: dir, runtime: new Runtime(registry), sink: terminalSink(output) };
  const steps = [
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src",
    "/move src/math.ts src/lib/math.ts",
    "/pending",
    "/resolve discard keep math.ts where it is",
    "/resolve apply use the logger",
  ];
  output.out(`Sample repository: ${dir}\n`);
  for (const step of steps) {
    output.out(`$ ${step}`);
    if ((await runLocalCommands(parseCommands(step), local)) !== "ok") return 1;
    output.out("");
  }
  output.out(`$ git log --oneline\n${(await git(dir, ["log", "--format=%h %s"])).trimEnd()}\n`);
  await runLocalCommands(parseCommands("/pending"), local);
  output.out(`\nTry it yourself: node dist/src/apps/bin.js preview --cwd ${dir} -- "/rename-symbol add sum"`);
  return 0;
}
