/**
 * The resolve-bot command line: the same runtime on a local git checkout, with no GitHub.
 * Plain text (colour only on a TTY), the local command syntax in every hint.
 * Exit codes: 0 success, 1 tool or resolve failure (message on stderr), 2 usage error.
 */
import { parseArgs } from "node:util";
import { parseCommands } from "../core/commands.js";
import { LOCAL_RESOLVE_COMMANDS, steeringLine } from "../core/messages.js";
import { Runtime, renderStack, type CommandOutcome } from "../core/runtime.js";
import type { ToolRegistry } from "../core/registry.js";
import type { PendingRecord } from "../core/store.js";
import { commandName, usageLine } from "../core/usage.js";
import { createRegistry } from "../tools/index.js";
import { runDemo } from "./demo.js";
import { openLocalSession } from "./session.js";
import { colourDiff, noStyle, plain, type Style } from "./terminal.js";
import { packageVersion } from "./version.js";

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** How stdout shows emphasis: colour on a TTY, nothing otherwise. */
  style?: Style;
}

export const USAGE = `Usage:
  resolve-bot preview [--cwd DIR] [--strict] -- "<slash command>"
  resolve-bot resolve apply|discard "<reason>" [--cwd DIR] [--no-commit]
  resolve-bot pending [--cwd DIR]
  resolve-bot tools
  resolve-bot demo
  resolve-bot --version | --help

Example:
  resolve-bot preview -- "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src"

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
        version: { type: "boolean", short: "V" },
      },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [verb, ...rest] = parsed.positionals;
  const cwd = parsed.values.cwd ?? process.cwd();
  if (parsed.values.version || verb === "version") {
    output.out(packageVersion());
    return 0;
  }
  if (parsed.values.help || verb === "help") {
    output.out(USAGE);
    return 0;
  }
  if (verb === undefined) {
    output.err(USAGE);
    return 2;
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
        output.out(plain(renderStack(await session.store.list()), output.style));
        return 0;
      }
      case "tools":
        output.out(
          registry
            .list()
            .map((tool) => `${commandName(tool.name)} — ${plain(tool.description)}\n  ${usageLine(tool)}`)
            .join("\n"),
        );
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
    output.err(plain((error as Error).message));
    return 1;
  }
}

async function previewCommand(registry: ToolRegistry, words: string[], cwd: string, strict: boolean, output: Output): Promise<number> {
  const text = words.join(" ").trim();
  if (text === "") throw new UsageError("preview needs a slash command.");
  // No slash, no command: "ast-edit --pat a --out b" is not guessed at (it would run with defaults).
  if (!text.startsWith("/")) {
    throw new UsageError(`preview takes a slash command, which starts with "/": did you mean ${JSON.stringify(`/${text}`)}?`);
  }
  const commands = parseCommands(text);
  if (commands.length === 0) throw new UsageError(`No slash command in ${JSON.stringify(text)}.`);
  const session = await openLocalSession({ cwd, steering: strict ? "strict" : "stack" });
  const result = await new Runtime(registry).handleCommands(commands, session.context);
  let status = 0;
  for (const outcome of result.outcomes) {
    if (!outcome.ok) {
      output.err(plain(outcome.message));
      status = 1;
      continue;
    }
    output.out(renderOutcome(outcome, output.style ?? noStyle));
  }
  if (result.skipped.length > 0) output.err(`Not run, because an earlier command failed: ${result.skipped.join(", ")}`);
  if (status === 0) printNext(result.stack, output);
  return status;
}

/** A preview on a terminal: the pending label first, what the tool said beyond it, then the diff. */
function renderOutcome(outcome: CommandOutcome, style: Style): string {
  const pushed = outcome.pushed ?? [];
  if (pushed.length === 0) return plain(outcome.message, style);
  const lines = outcome.message.split("\n");
  // The tool's first line usually is the label; say it once.
  const said = pushed.some(({ record }) => record.label === lines[0]) ? lines.slice(1) : lines;
  const parts: string[] = [];
  for (const [index, { record, diff }] of pushed.entries()) {
    parts.push(style("bold", `Pending #${record.seq}: ${record.label}`));
    if (index === 0 && said.join("\n").trim() !== "") parts.push(plain(said.join("\n").trim(), style));
    if (diff) parts.push(colourDiff(diff.trimEnd(), style));
  }
  return parts.join("\n");
}

/** The next command, once, while something is pending. */
function printNext(stack: PendingRecord[], output: Output): void {
  const steering = steeringLine(stack, LOCAL_RESOLVE_COMMANDS);
  if (steering) output.out(`\n${plain(steering, output.style)}`);
}

async function resolveCommand(registry: ToolRegistry, words: string[], cwd: string, noCommit: boolean, output: Output): Promise<number> {
  const [action, ...reasonWords] = words;
  if (action !== "apply" && action !== "discard") throw new UsageError('resolve needs "apply" or "discard".');
  const reason = reasonWords.join(" ").trim();
  if (reason === "") throw new UsageError(`resolve ${action} needs a reason: resolve-bot resolve ${action} "<reason>"`);
  const session = await openLocalSession({ cwd, noCommit });
  const outcome = await new Runtime(registry).resolve(action, reason, session.context);
  if (!outcome.ok) {
    output.err(plain(outcome.message));
    return 1;
  }
  output.out(plain(outcome.message, output.style));
  if (outcome.resolved?.commit) output.out(`Committed ${outcome.resolved.commit.slice(0, 12)}.`);
  printNext(await session.store.list(), output);
  return 0;
}
