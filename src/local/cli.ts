/**
 * The resolve-bot command line: the same runtime on a local git checkout, with no GitHub.
 * Exit codes: 0 success, 1 tool or resolve failure (message on stderr), 2 usage error.
 */
import { parseArgs } from "node:util";
import { parseCommands } from "../core/commands.js";
import { steeringLine } from "../core/messages.js";
import { Runtime, renderStack } from "../core/runtime.js";
import type { ToolRegistry } from "../core/registry.js";
import { commandName, usageLine } from "../core/usage.js";
import { createRegistry } from "../tools/index.js";
import { runDemo } from "./demo.js";
import { openLocalSession } from "./session.js";

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const USAGE = `Usage:
  resolve-bot preview [--cwd DIR] [--strict] -- "<slash command>"
  resolve-bot resolve apply|discard "<reason>" [--cwd DIR] [--no-commit]
  resolve-bot pending [--cwd DIR]
  resolve-bot tools
  resolve-bot demo

Custom tools: RESOLVE_BOT_TOOLS=path/to/tool.js,package-name`;

class UsageError extends Error {}

export async function main(argv: string[], output: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        cwd: { type: "string" },
        "no-commit": { type: "boolean" },
        strict: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [verb, ...rest] = parsed.positionals;
  const cwd = parsed.values.cwd ?? process.cwd();
  if (parsed.values.help || verb === undefined || verb === "help") {
    (verb === undefined && !parsed.values.help ? output.err : output.out)(USAGE);
    return verb === undefined && !parsed.values.help ? 2 : 0;
  }
  try {
    const registry = await createRegistry({ customTools: env.RESOLVE_BOT_TOOLS });
    switch (verb) {
      case "preview":
        return await previewCommand(registry, rest, cwd, parsed.values.strict ?? false, output);
      case "resolve":
        return await resolveCommand(registry, rest, cwd, parsed.values["no-commit"] ?? false, output);
      case "pending": {
        const session = await openLocalSession({ cwd });
        output.out(renderStack(await session.store.list()));
        return 0;
      }
      case "tools":
        output.out(registry.list().map((tool) => `${commandName(tool.name)} — ${tool.description}\n  ${usageLine(tool)}`).join("\n"));
        return 0;
      case "demo":
        return await runDemo(registry, output);
      default:
        throw new UsageError(`Unknown command "${verb}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    output.err((error as Error).message);
    return 1;
  }
}

async function previewCommand(registry: ToolRegistry, words: string[], cwd: string, strict: boolean, output: Output): Promise<number> {
  const text = words.join(" ").trim();
  if (text === "") throw new UsageError("preview needs a slash command.");
  const commands = parseCommands(text.startsWith("/") ? text : `/${text}`);
  if (commands.length === 0) throw new UsageError(`No slash command in ${JSON.stringify(text)}.`);
  const session = await openLocalSession({ cwd, steering: strict ? "strict" : "stack" });
  const result = await new Runtime(registry).handleCommands(commands, session.context);
  let status = 0;
  for (const outcome of result.outcomes) {
    if (!outcome.ok) {
      output.err(outcome.message);
      status = 1;
      continue;
    }
    output.out(outcome.message);
    for (const { record, diff } of outcome.pushed ?? []) {
      output.out(`\nPending #${record.seq}: ${record.label}`);
      if (diff) output.out(diff.trimEnd());
    }
  }
  if (result.skipped.length > 0) output.err(`Not run, because an earlier command failed: ${result.skipped.join(", ")}`);
  if (result.steering) output.out(`\n${result.steering}`);
  return status;
}

async function resolveCommand(registry: ToolRegistry, words: string[], cwd: string, noCommit: boolean, output: Output): Promise<number> {
  const [action, ...reasonWords] = words;
  if (action !== "apply" && action !== "discard") throw new UsageError('resolve needs "apply" or "discard".');
  const reason = reasonWords.join(" ").trim();
  if (reason === "") throw new UsageError(`resolve ${action} needs a reason.`);
  const session = await openLocalSession({ cwd, noCommit });
  const outcome = await new Runtime(registry).resolve(action, reason, session.context);
  if (!outcome.ok) {
    output.err(outcome.message);
    return 1;
  }
  output.out(outcome.message);
  if (outcome.resolved?.commit) output.out(`Committed ${outcome.resolved.commit.slice(0, 12)}.`);
  const steering = steeringLine(await session.store.list());
  if (steering) output.out(steering);
  return 0;
}
