/**
 * The runtime: takes a comment (or one command line), runs its slash commands in order and says
 * what happened as data. Front ends (GitHub, the local CLI) render the outcomes.
 */
import { bindArguments } from "./arguments.js";
import { normaliseCommandName, parseCommands, type SlashCommand } from "./commands.js";
import { DEFAULT_COMMAND_LIMITS, type CommandContext } from "./context.js";
import { COMMENT_PHRASING, stackFull, steeringLine, strictRefusal, tooManyCommands, UNDO_UNAVAILABLE } from "./messages.js";
import { preview } from "./preview.js";
import { RESERVED_COMMANDS, type ToolRegistry } from "./registry.js";
import { finishPart, parseResolveArgs, resolve, type ResolveOptions } from "./resolve.js";
import type { ResolveOutcome } from "./outcomes.js";
import { UserError } from "../errors.js";
import { requestStep, type PendingRecord } from "./store.js";
import { suggestOnly } from "./suggest.js";
import { commandName, helpSection, usageError } from "./usage.js";
import { readToolPaths } from "./tool-paths.js";
import { previewUndo, UNDO_TOOL } from "./undo.js";
import { REST_TOOL, type RestParams } from "./apply-part.js";
import type { CommandOutcome, CommentOutcome } from "./outcomes.js";

export type { CommandOutcome, CommentOutcome } from "./outcomes.js";

export class Runtime {
  constructor(readonly registry: ToolRegistry) {}

  /** Runs every command of a comment in order; stops at the first failure. */
  async handleComment(body: string, ctx: CommandContext): Promise<CommentOutcome> {
    return this.handleCommands(parseCommands(body), ctx);
  }

  async handleCommands(commands: SlashCommand[], ctx: CommandContext): Promise<CommentOutcome> {
    const outcomes: CommandOutcome[] = [];
    const skipped: string[] = [];
    const { maxCommandsPerComment } = ctx.limits ?? DEFAULT_COMMAND_LIMITS;
    if (commands.length > maxCommandsPerComment) {
      // Refused whole: running the first N would surprise whoever wrote N + 1.
      const message = tooManyCommands(commands.length, maxCommandsPerComment, ctx.phrasing);
      return {
        outcomes: [{ command: `/${commands[0]!.typed}`, kind: "error", ok: false, message }],
        skipped: [],
        stack: [],
        steering: undefined,
      };
    }
    for (const [index, command] of commands.entries()) {
      if (outcomes.some((outcome) => !outcome.ok)) {
        skipped.push(`/${command.typed}`);
        continue;
      }
      ctx.progress?.command(`\`/${command.typed}\``);
      outcomes.push(await this.handleStep(command, index, ctx));
    }
    const stack = commands.length > 0 ? await ctx.store.list() : [];
    return { outcomes, skipped, stack, steering: steeringLine(stack, ctx.phrasing) };
  }

  /** One command of a request: what it writes names its step; one already carried out is not run again. */
  async handleStep(command: SlashCommand, index: number, ctx: CommandContext): Promise<CommandOutcome> {
    if (ctx.requestId === undefined) return this.handleCommand(command, ctx);
    const step = requestStep(ctx.requestId, index);
    const done = await ctx.carriedOut?.(step, command);
    if (done === undefined) return this.handleCommand(command, { ...ctx, step });
    return command.name === "resolve" ? finishPart(this.registry, command.args, done, { ...ctx, step }) : done;
  }

  async handleCommand(command: SlashCommand, ctx: CommandContext): Promise<CommandOutcome> {
    const typed = `/${command.typed}`;
    try {
      switch (command.name) {
        case "resolve":
          return await this.resolveCommand(typed, command.args, ctx);
        case "help":
          return this.helpCommand(typed, command.args, ctx);
        case "pending":
          return { command: typed, kind: "pending", ok: true, message: renderStack(await ctx.store.list()) };
        default:
          return await this.toolCommand(command, ctx);
      }
    } catch (error) {
      if (error instanceof UserError) return { command: typed, kind: "error", ok: false, message: error.message };
      throw error;
    }
  }

  /** Applies or discards the newest pending action; `only` applies its changes to those files and leaves the rest pending. */
  async resolve(action: "apply" | "discard", reason: string, ctx: CommandContext, options: ResolveOptions = {}): Promise<ResolveOutcome> {
    return resolve(this.registry, action, reason, ctx, options);
  }

  private async resolveCommand(typed: string, args: string, ctx: CommandContext): Promise<CommandOutcome> {
    const parsed = parseResolveArgs(args);
    if ("error" in parsed) return { command: typed, kind: "error", ok: false, message: parsed.error };
    if (parsed.action === "undo") return this.undoCommand(typed, parsed.reason, ctx);
    const outcome = await this.resolve(parsed.action, parsed.reason, ctx, parsed.only !== undefined ? { only: parsed.only } : {});
    return {
      command: typed,
      kind: "resolve",
      ok: outcome.ok,
      message: outcome.message,
      resolved: outcome.resolved,
      ...(outcome.pushed !== undefined ? { pushed: outcome.pushed } : {}),
    };
  }

  private enabledTools(ctx: CommandContext) {
    return this.registry.list().filter((tool) => ctx.isToolEnabled?.(tool.name) ?? true);
  }

  private async toolCommand(command: SlashCommand, ctx: CommandContext): Promise<CommandOutcome> {
    const typed = `/${command.typed}`;
    const tool = this.enabledTool(command.name, ctx);
    if (!tool) return { command: typed, kind: "error", ok: false, message: this.unknownCommand(`/${command.typed}`, ctx) };
    const binding = bindArguments(tool, command, ctx.anchor);
    if (!binding.ok && binding.refusal !== undefined) return { command: typed, kind: "error", ok: false, message: binding.refusal };
    if (!binding.ok) {
      const message = usageError(tool, typed, binding.errors, binding.wrong ?? [], ctx.phrasing);
      return { command: typed, kind: "error", ok: false, message };
    }
    // Paths as the front end's people type them (the CLI: from the current directory), from the root from here on.
    const params = ctx.readPath ? readToolPaths(tool, binding.params, ctx.readPath) : binding.params;
    if (binding.asSuggestion) {
      const offered = await suggestOnly(tool, params, ctx);
      return { command: typed, kind: offered.ok ? "preview" : "error", ok: offered.ok, message: offered.message };
    }
    // The preview reads the files and the stack: the files (a fetch, on GitHub) are read while the stack is.
    const files = ctx.workspace();
    const settled = files.then(
      () => undefined,
      () => undefined, // the preview awaits `files` and says what went wrong
    );
    // A command that stops here waits for the read it started: none outlives its request.
    const room = await this.stackRoom(ctx).catch(async (error: unknown) => {
      await settled;
      throw error;
    });
    if (typeof room === "string") {
      await settled;
      return { command: typed, kind: "error", ok: false, message: room };
    }
    const outcome = await preview(tool, params, ctx, room);
    return { command: typed, kind: "preview", ok: outcome.ok, message: outcome.message, pushed: outcome.pushed };
  }

  /** `/resolve undo <reason>`: a preview like any other (the stack's rules apply), of reverting resolve-bot's newest commit. */
  private async undoCommand(typed: string, reason: string, ctx: CommandContext): Promise<CommandOutcome> {
    const room = await this.stackRoom(ctx);
    if (typeof room === "string") return { command: typed, kind: "error", ok: false, message: room };
    const undo = this.registry.get(UNDO_TOOL);
    if (!undo) return { command: typed, kind: "error", ok: false, message: UNDO_UNAVAILABLE };
    const outcome = await previewUndo(undo, reason, ctx, room);
    return { command: typed, kind: "preview", ok: outcome.ok, message: outcome.message, pushed: outcome.pushed };
  }

  /** How many more actions a preview may push, or why it may push none (`steering: strict`, a full stack). */
  private async stackRoom(ctx: CommandContext): Promise<number | string> {
    if (ctx.steering === "strict") {
      const top = await ctx.store.peek();
      if (top) return strictRefusal(top, ctx.phrasing);
    }
    const { maxPending } = ctx.limits ?? DEFAULT_COMMAND_LIMITS;
    const stack = await ctx.store.list();
    if (stack.length >= maxPending) return stackFull(stack.length, maxPending, ctx.phrasing);
    return maxPending - stack.length;
  }

  /** A tool this repository has on, by the name typed (`ast-edit`, `/ast_edit`). */
  private enabledTool(name: string, ctx?: CommandContext) {
    const tool = this.registry.command(normaliseCommandName(name.replace(/^\//, "")));
    return tool && (ctx?.isToolEnabled?.(tool.name) ?? true) ? tool : undefined;
  }

  private unknownCommand(typed: string, ctx: CommandContext): string {
    const known = [
      ...this.enabledTools(ctx).map((candidate) => commandName(candidate.name)),
      ...RESERVED_COMMANDS.map((name) => `/${name}`),
    ];
    return `Unknown command \`${typed}\`. Known commands: ${known.map((name) => `\`${name}\``).join(", ")}.`;
  }

  /** `/help`, or `/help <command>`: one tool's section alone. */
  private helpCommand(typed: string, args: string, ctx: CommandContext): CommandOutcome {
    const asked = (args.trim().split(/\s+/)[0] ?? "").replace(/^\//, "");
    // The reserved commands are explained in the whole help (they are no tools).
    if (asked === "" || (RESERVED_COMMANDS as readonly string[]).includes(normaliseCommandName(asked)))
      return { command: typed, kind: "help", ok: true, message: this.help(ctx) };
    const tool = this.enabledTool(asked, ctx);
    if (!tool) return { command: typed, kind: "error", ok: false, message: this.unknownCommand(`/${asked}`, ctx) };
    return { command: typed, kind: "help", ok: true, message: helpSection(tool, ctx.phrasing) };
  }

  /**
   * /help: the preview tools with their usage, and resolve explained on its own (it is no tool),
   * in the front end's words. Paragraphs, lists and examples are separated by blank lines, so
   * markdown keeps them apart.
   */
  help(ctx?: CommandContext): string {
    const tools = ctx ? this.enabledTools(ctx) : this.registry.list();
    const phrasing = ctx?.phrasing ?? COMMENT_PHRASING;
    return [
      "Preview tools compute a change without writing anything and push it onto the pending stack:",
      ...tools.map((tool) => helpSection(tool, phrasing)),
      `Resolving: ${phrasing.resolveCommands} takes the newest pending action (last in, first out) and commits it or drops it. The reason is required and goes into the commit message.`,
      `Undoing: ${phrasing.undoCommand} previews reverting the newest commit resolve-bot applied (as \`git revert\` would) as a new pending action; applying it commits the revert. If later commits changed the same lines, it says so and pushes nothing.`,
      `${phrasing.pendingCommand} lists the stack, newest first. ${phrasing.helpCommand()} shows this; ${phrasing.helpCommand("<command>")} shows one command.`,
    ].join("\n\n");
  }
}

/** /pending: the stack, newest first. */
export function renderStack(stack: PendingRecord[]): string {
  if (stack.length === 0) return "Nothing is pending.";
  const lines = stack.map(
    (record, position) => `${position + 1}. ${record.label} (#${record.seq}, \`${commandOf(record)}\` by ${record.requestedBy})`,
  );
  return [`${stack.length} pending, newest first (the first is resolved next):`, ...lines].join("\n");
}

/** The command that made a record: a rest's is its original action's. */
function commandOf(record: PendingRecord): string {
  const tool = record.tool === REST_TOOL ? (record.params as RestParams).of.tool : record.tool;
  return tool === UNDO_TOOL ? "/resolve undo" : commandName(tool);
}
