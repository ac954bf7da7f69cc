/**
 * A worker thread's warm-up of the diff and fingerprint of a change set (jsdiff, hashing), on a
 * made-up TypeScript file in memory whose edit is spliced in as the CLI's matches are. V8 first
 * runs code in its interpreter: jsdiff over the 16 files an edit of effect's src changed took
 * 67–77 ms cold and 24 ms after this warm-up (bench/README.md). The prefilter is not warmed: its
 * first run over those files (57–76 ms, ~25 ms after) did not get faster when it was. No CLI run
 * (a process start), nothing kept.
 */
import { describeAction } from "../core/fingerprint.js";
import { ChangeSet } from "../workspace/changeset.js";
import { MemoryWorkspace } from "../workspace/workspace.js";
import { splice } from "./ast-grep/rewrite.js";

/** Code of the kinds an edit's diff meets: doc comments, strings, templates, calls. */
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

/** A turn of the event loop: a task that came meanwhile goes first. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Three rounds (V8 optimises what runs often: one round left jsdiff nearly as slow as cold), each
 * followed by a turn of the event loop, so the worker may take a task while this runs
 * (worker-task.ts does not wait for it): a task waits for one round at most.
 */
export async function warmUpTools(rounds = 3): Promise<void> {
  const text = sampleSource(1500);
  // One `Effect.succeed(` in forty replaced (a diff's cost grows with the changes, and an edit
  // changes few of a big file's lines), as the CLI's matches are spliced in (the text is ASCII:
  // its byte offsets are its character offsets).
  const found = [...text.matchAll(/Effect\.succeed\(/g)].filter((_, index) => index % 40 === 0);
  const matches = found.map(({ index: start }) => ({
    file: "src/warm-up.ts",
    replacement: "Effect.succeedNow(",
    replacementOffsets: { start, end: start + "Effect.succeed(".length },
  }));
  for (let round = 0; round < rounds; round++) {
    const workspace = new MemoryWorkspace({ "src/warm-up.ts": text }, "warm-up");
    const changes = new ChangeSet(workspace);
    await changes.write("src/warm-up.ts", splice(text, matches).text);
    await describeAction({ label: "warm-up", details: {}, changes, apply: async () => ({ content: [] }) }, workspace);
    await turn();
  }
}
