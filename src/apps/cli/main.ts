/**
 * The resolve-bot command line: the same runtime on a local git checkout, with no GitHub.
 * Plain text (colour only on a TTY), the local command syntax in every hint.
 * Exit codes: 0 success, 1 tool or resolve failure (message on stderr), 2 usage error.
 */
import { parseArgs } from "node:util";
import { quote } from "shell-quote";
import { normaliseCommandName, parseCommands, type SlashCommand } from "../../core/commands.js";
import { resolveCommandArgs } from "../../core/resolve.js";
import { Runtime } from "../../core/runtime.js";
import { commandName, helpSection, usageLine } from "../../core/usage.js";
import { phrased } from "../../core/messages.js";
import { createRegistry } from "../../tools/index.js";
import { RESERVED_COMMANDS, type ToolRegistry } from "../../core/registry.js";
import { runConfigCommand } from "./config-check.js";
import { runDemo } from "./demo.js";
import { localPhrasing, runLocalCommands, type LocalOptions } from "../../forges/local/ports.js";
import { plain, terminalSink, type Output } from "../../forges/local/terminal.js";
import { packageVersion } from "../../ops/version.js";
import { statusAfterMs } from "../../pipeline/cost.js";

export type { Output } from "../../forges/local/terminal.js";

/** Each verb's usage line: the whole usage lists them all, a usage error shows its verb's alone. */
const VERB_USAGE = {
  preview: 'resolve-bot preview [--cwd DIR] [--strict] -- "<slash command>"',
  resolve: [
    'resolve-bot resolve apply|discard|undo "<reason>" [--cwd DIR] [--no-commit]',
    'resolve-bot resolve apply --only PATH [--only PATH…] "<reason>"   apply those files, keep the rest pending',
  ].join("\n  "),
  pending: "resolve-bot pending [--cwd DIR]",
  tools: "resolve-bot tools [COMMAND]   every tool's usage, or one tool's whole help",
  config: [
    "resolve-bot config validate [FILE]   check a .github/resolve-bot.yml as the gate does (default: that file)",
    "resolve-bot config schema            print its JSON Schema",
  ].join("\n  "),
  demo: "resolve-bot demo",
} as const;

type Verb = keyof typeof VERB_USAGE;

export const USAGE = `Usage:
  ${Object.values(VERB_USAGE).join("\n  ")}
  resolve-bot mcp [--cwd DIR] [--strict]   an MCP server on stdio, for an agent (docs/mcp.md)
  resolve-bot server | worker   the GitHub App's webhook server, or a job worker, alone (see README)
  resolve-bot all               both in one process, as npm start
  resolve-bot --version | --help

Example:
  resolve-bot preview -- "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src"

Paths in a slash command are read from the current directory (or DIR), as git reads them.
Settings: the checkout's .github/resolve-bot.yml as committed at HEAD (tools, steering, limits,
commit_message); --strict makes steering strict whatever it says.
Custom tools: RESOLVE_BOT_TOOLS=path/to/tool.js,package-name`;

/** Where the rest of the usage is, as a usage error's last line. */
const MORE = "Every command: resolve-bot --help";

/** A command line the CLI cannot run: what is wrong, and the usage of the verb it is about. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly verb?: Verb,
  ) {
    super(message);
  }
}

function isVerb(word: string | undefined): word is Verb {
  return word !== undefined && Object.hasOwn(VERB_USAGE, word);
}

/** A usage error as printed: the problem, the one usage line it is about (if any), where the rest is. */
function usageText(message: string, verb: string | undefined): string {
  const usage = isVerb(verb) ? [`Usage: ${VERB_USAGE[verb]}`] : [];
  return [message, ...usage, MORE].join("\n");
}

const OPTIONS = {
  cwd: { type: "string" },
  "no-commit": { type: "boolean" },
  strict: { type: "boolean" },
  only: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

/**
 * parseArgs' refusal in the CLI's words. `resolve apply --force it` is an unknown option, not a
 * reason (a mistyped `--only` must not apply everything); a reason that begins with "--" goes after `--`.
 */
function optionError(argv: string[], error: Error & { code?: string }): string {
  const loose = parseArgs({ args: argv, allowPositionals: true, strict: false, options: OPTIONS });
  const option = /'(-[^']*)'/.exec(error.message)?.[1];
  if (loose.positionals[0] === "resolve" && error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const action = loose.positionals[1] ?? "apply";
    const takes = action === "apply" ? "--only PATH, --cwd DIR and --no-commit" : "--cwd DIR and --no-commit";
    return `resolve ${action} has no option ${option} (it takes ${takes}). To begin the reason with "--", put -- before it: resolve-bot resolve ${action} -- "${option} …"`;
  }
  return error.message;
}

export async function main(argv: string[], output: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // The verb, when one was given: the first word naming one (others are option values, reasons, commands).
    output.err(usageText(optionError(argv, error as Error & { code?: string }), argv.find(isVerb)));
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
    if (parsed.values.only !== undefined && !(verb === "resolve" && rest[0] === "apply")) {
      throw new UsageError(
        `--only goes with resolve apply alone: resolve-bot resolve apply --only PATH [--only PATH…] "<reason>"`,
        "resolve",
      );
    }
    switch (verb) {
      case "preview":
        return await run(previewCommands(rest, commandNames(registry)), { ...local, steering: parsed.values.strict ? "strict" : "stack" });
      case "resolve":
        return await run(resolveCommands(rest, parsed.values.only), { ...local, noCommit: parsed.values["no-commit"] ?? false });
      case "pending":
        return await run(parseCommands("/pending"), local);
      case "tools":
        output.out(toolsText(registry, rest, output));
        return 0;
      case "demo":
        return await runDemo(registry, output);
      case "config": {
        const commands = [...registry.list().map((tool) => tool.name), ...RESERVED_COMMANDS];
        const code = await runConfigCommand(rest, { cwd, commands, output });
        if (code === undefined) throw new UsageError('config takes "validate [FILE]" or "schema".', "config");
        return code;
      }
      default:
        throw new UsageError(
          `Unknown command "${verb}"; the commands: ${[...Object.keys(VERB_USAGE), "server", "worker", "all"].join(", ")}.`,
        );
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(usageText(error.message, error.verb));
      return 2;
    }
    output.err(plain((error as Error).message));
    return 1;
  }
}

/**
 * `tools`: each tool's description and usage line; `tools COMMAND`: that tool's whole help, as
 * `/help COMMAND` gives it. Both in the command line's words, as plain text.
 */
function toolsText(registry: ToolRegistry, words: string[], output: Output): string {
  const phrasing = localPhrasing();
  const [asked, ...extra] = words;
  if (extra.length > 0) throw new UsageError(`tools takes one command, got ${words.length}.`, "tools");
  if (asked === undefined)
    return registry
      .list()
      .map((tool) => `${commandName(tool.name)} — ${plain(phrased(tool.description, phrasing))}\n  ${usageLine(tool)}`)
      .join("\n");
  const tool = registry.command(asked.replace(/^\//, ""));
  if (!tool) {
    const known = registry.list().map((candidate) => commandName(candidate.name).slice(1));
    throw new UsageError(`No tool "${asked}"; the tools: ${known.join(", ")}.`, "tools");
  }
  return plain(helpSection(tool, phrasing), output.style);
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
  if (text === "") throw new UsageError("preview needs a slash command.", "preview");
  // No slash, no command: "ast-edit --pat a --out b" is not guessed at (it would run with defaults).
  if (!text.startsWith("/")) {
    throw new UsageError(`preview takes a slash command, which starts with "/": did you mean ${JSON.stringify(`/${text}`)}?`, "preview");
  }
  const commands = parseCommands(text);
  if (commands.length === 0) throw new UsageError(`No slash command in ${JSON.stringify(text)}.`, "preview");
  return commands;
}

/**
 * `resolve apply "<reason>"` is the comment `/resolve apply <reason>` (and so for discard and undo);
 * `--only PATH` (repeated) is `/resolve apply --only PATH… <reason>`. The reason is taken as written.
 */
function resolveCommands(words: string[], only: string[] | undefined): SlashCommand[] {
  const [action, ...reasonWords] = words;
  if (action !== "apply" && action !== "discard" && action !== "undo")
    throw new UsageError('resolve needs "apply", "discard" or "undo".', "resolve");
  const reason = reasonWords.join(" ").trim();
  if (reason === "") throw new UsageError(`resolve ${action} needs a reason.`, "resolve");
  return [{ name: "resolve", typed: "resolve", args: resolveCommandArgs(action, reason, only), line: 1 }];
}
