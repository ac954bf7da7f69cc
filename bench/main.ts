/** `npm run bench` entry: node bench/.work/dist/bench/main.js [flags] (see options.ts). */
import { runBench } from "./run.js";

try {
  const { markdown } = await runBench(process.argv.slice(2));
  process.stdout.write(`${markdown}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
