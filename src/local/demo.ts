/**
 * `resolve-bot demo`: the whole preview → pending → resolve loop on a throw-away sample
 * repository, so a fresh clone can see the bot work with no GitHub and no setup.
 */
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Runtime, renderStack } from "../core/runtime.js";
import type { ToolRegistry } from "../core/registry.js";
import { git } from "./git.js";
import type { Output } from "./cli.js";
import { openLocalSession } from "./session.js";
import { colourDiff, plain } from "./terminal.js";

const SAMPLE: Record<string, string> = {
  "src/math.ts": `export function add(a: number, b: number): number {\n  console.log("add", a, b);\n  return a + b;\n}\n`,
  "src/main.ts": `import { add } from "./math";\n\nconsole.log(add(1, 2));\n`,
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

  const runtime = new Runtime(registry);
  const steps = [
    "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' --paths src",
    "/move src/math.ts src/lib/math.ts",
    "/pending",
    "/resolve discard keep math.ts where it is",
    "/resolve apply use the logger",
  ];
  output.out(`Sample repository: ${dir}\n`);
  for (const step of steps) {
    const session = await openLocalSession({ cwd: dir });
    const result = await runtime.handleComment(step, session.context);
    output.out(`$ ${step}`);
    for (const outcome of result.outcomes) {
      output.out(plain(outcome.message, output.style));
      for (const { diff } of outcome.pushed ?? []) if (diff) output.out(colourDiff(diff.trimEnd(), output.style));
      if (!outcome.ok) return 1;
    }
    output.out("");
  }
  const session = await openLocalSession({ cwd: dir });
  output.out(`$ git log --oneline\n${(await git(dir, ["log", "--format=%h %s"])).trimEnd()}`);
  output.out(`\n${plain(renderStack(await session.store.list()), output.style)}`);
  output.out(`\nTry it yourself: node dist/src/cli.js preview --cwd ${dir} -- "/rename-symbol add sum"`);
  return 0;
}
