#!/usr/bin/env node
/** The `resolve-bot` command. */
import { main } from "./local/cli.js";

const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
