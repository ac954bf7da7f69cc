/**
 * The resolve-bot command line: the same runtime on a local git checkout, with no GitHub.
 * Plain text (colour only on a TTY), the local command syntax in every hint.
 * Exit codes: 0 success, 1 tool or resolve failure (message on stderr), 2 usage error.
 */
import { parseArgs } from "node:util";
import { quote } from "shell-quote";
import { normaliseCommandName, parseCommands, type SlashCommand } from "../../core/commands.js";
import { Runtime } from "../../core/runtime.js";
import { commandName, usageLine } from "../../core/usage.js";
import { createRegistry } from "../../tools/index.js";
import { RESERVED_COMMANDS, type ToolRegistry } from "../../core/registry.js";
import { runConfigCommand } from "./config-check.js";
import { runDemo } from "./demo.js";
import { runLocalCommands, type LocalOptions } from "../../forges/local/ports.js";
import { plain, terminalSink, type Output } from "../../forges/local/terminal.js";
import { packageVersion } from "../../ops/version.js";
import { statusAfterMs } from "../../pipeline/cost.js";

export type { Output } from "../../forges/local/terminal.js";

export const USAGE = `Usage:
  resolve-bot preview [--cwd DIR] [--strict] -- "<slash command>"
  resolve-bot resolve apply|discard|undo "<reason>" [--cwd DIR] [--no-commit]
  resolve-bot pending [--cwd DIR]
  resolve-bot tools
  resolve-bot mcp [--cwd DIR] [--strict]   an MCP server on stdio, for an agent (docs/mcp.md)
  resolve-bot config validate [FILE]   check a .github/resolve-bot.yml as the gate does (default: that file)
  resolve-bot config schema            print its JSON Schema
  resolve-bot demo
  resolve-bot server | worker   the GitHub App's webhook server, or a job worker, alone (see README)
  resolve-bot all               both in one process, as npm start
  resolve-bot --version | --help

Example:
  resolve-bot preview -- "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src"

Settings: the checkout's .github/resolve-bot.yml as committed at HEAD (tools, steering, limits,
commit_message); --strict makes steering strict whatever it says.
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
    const afterMs = statusAfterMs(env);
    const local: LocalOptions = {
      cwd,
      runtime: new Runtime(registry),
      sink: terminalSink(output),
      ...(afterMs !== undefined ? { statusAfterMs: afterMs } : {}),
    };
    switch (verb) {
      case "preview":
        return await run(previewCommands(rest, commandNames(registry)), { ...local, steering: parsed.values.strict ? "strict" : "stack" });
      case "resolve":
        return await run(resolveCommands(rest), { ...local, noCommit: parsed.values["no-commit"] ?? false });
      case "pending":
        return await run(parseCommands("/pending"), local);
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
      case "config": {
        const commands = [...registry.list().map((tool) => tool.name), ...RESERVED_COMMANDS];
        const code = await runConfigCommand(rest, { cwd, commands, output });
        if (code === undefined) throw new UsageError('config takes "validate [FILE]" or "schema".');
        return code;
      }
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

/** Each verb is a request of slash commands, run through the same pipeline as a PR comment. */
async function run(commands: SlashCommand[], options: LocalOptions): Promise<number> {
  return (await runLocalCommands(commands, options)) === "ok" ? 0 : 1;
}

/** What a shell word may start: every tool's command and the reserved ones, as parseCommands names them. */
function commandNames(registry: ToolRegistry): Set<string> {
  return new Set([...registry.list().map((tool) => normaliseCommandName(tool.name)), ...RESERVED_COMMANDS]);
}

/**
 * The shell words after `--` as commands: one command may come as several words (`/ast-edit --pat
 * x --out y`), and several commands as one word each (`"/pending" "/help"`): a word starts a new
 * command when it is a whole quoted command (`/name args…`) or names a known command, so none is
 * silently taken as the previous one's argument.
 */
function previewCommands(words: string[], known: Set<string>): SlashCommand[] {
  const lines: string[] = [];
  for (const word of words) {
    const name = /^\/([A-Za-z][\w-]*)(\s|$)/.exec(word);
    const startsCommand = name !== null && (name[2] !== "" || known.has(normaliseCommandName(name[1]!)));
    if (startsCommand || lines.length === 0) lines.push(word);
    // The shell already took its quotes off: quoted again, `console.log($A)` stays one word.
    else lines[lines.length - 1] += ` ${quote([word])}`;
  }
  const text = lines.join("\n").trim();
  if (text === "") throw new UsageError("preview needs a slash command.");
  // No slash, no command: "ast-edit --pat a --out b" is not guessed at (it would run with defaults).
  if (!text.startsWith("/")) {
    throw new UsageError(`preview takes a slash command, which starts with "/": did you mean ${JSON.stringify(`/${text}`)}?`);
  }
  const commands = parseCommands(text);
  if (commands.length === 0) throw new UsageError(`No slash command in ${JSON.stringify(text)}.`);
  return commands;
}

/** `resolve apply "<reason>"` is the comment `/resolve apply <reason>` (and so for discard and undo). */
function resolveCommands(words: string[]): SlashCommand[] {
  const [action, ...reasonWords] = words;
  if (action !== "apply" && action !== "discard" && action !== "undo") throw new UsageError('resolve needs "apply", "discard" or "undo".');
  const reason = reasonWords.join(" ").trim();
  if (reason === "") throw new UsageError(`resolve ${action} needs a reason: resolve-bot resolve ${action} "<reason>"`);
  return [{ name: "resolve", typed: "resolve", args: `${action} ${reason}`, line: 1 }];
}
