/**
 * A worker thread's warm-up of the tools' hot code: one `/ast-edit` preview on a made-up
 * TypeScript file held in memory — the prefilter's words, token chains and comment lexing, the
 * ast-grep CLI, splicing, the change set's fingerprint and diff. V8 first runs code in its
 * interpreter; on effect's src the first command on a fresh worker spent ~100 ms more in the
 * prefilter and the diff than the next one (bench/README.md). Nothing it computes is kept.
 */
import { createToolAPI, executeTool } from "../core/execution.js";
import { describeAction } from "../core/fingerprint.js";
import { MemoryWorkspace } from "../workspace/workspace.js";
import astEdit from "./ast-edit.js";
import { clearRewriteCaches } from "./ast-grep/rewrite.js";

/** Code of the kinds the prefilter and the diff meet: doc comments, strings, templates, calls. */
function sampleSource(blocks: number): string {
  const lines: string[] = [];
  for (let index = 0; index < blocks; index++) {
    lines.push(
      "/**",
      ` * Block ${index}: an example in a doc comment, \`Effect.succeed(${index})\`, which is no call.`,
      " */",
      `export const value${index} = Effect.succeed(${index}).pipe(Effect.map((n: number) => n + 1)); // trailing`,
      `const text${index} = "Effect.succeed(" + \`template \${${index}}\` + 'quoted' + /re[g]ex/.source;`,
      `export function f${index}(a: number, b?: string): Effect.Effect<number> {`,
      `  return b === undefined ? Effect.succeed(a) : Effect.fail(new Error(b));`,
      "}",
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function warmUpTools(): Promise<void> {
  const tool = await astEdit(createToolAPI());
  const workspace = new MemoryWorkspace({ "src/warm-up.ts": sampleSource(150), "src/other.ts": sampleSource(20) }, "warm-up");
  try {
    const { actions } = await executeTool(
      tool,
      { lang: "ts", pat: ["Effect.succeed($A)"], out: ["Effect.succeedNow($A)"] },
      workspace,
      "warm-up",
    );
    for (const action of actions) await describeAction(action, workspace);
  } finally {
    clearRewriteCaches();
  }
}
