/**
 * Finds slash commands in a comment body. A command is a line that starts with `/name`, outside
 * fenced code blocks and `>` quotes. A fenced ```json or ```yaml block right after the command
 * line belongs to that command (complex parameters).
 */
import { createHash } from "node:crypto";

export interface SlashCommand {
  /** Normalised tool name: `ast-edit` and `ast_edit` both become `ast_edit`. */
  name: string;
  /** The name as typed, for replies. */
  typed: string;
  /** Everything after the name on the command line. */
  args: string;
  /** The fenced block right after the command line, if any. */
  block?: { language: "json" | "yaml"; text: string };
  /** 1-based line number in the comment. */
  line: number;
}

const COMMAND_LINE = /^\s{0,3}\/([A-Za-z][A-Za-z0-9_-]*)(?=\s|$)(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)/;

export function normaliseCommandName(name: string): string {
  return name.toLowerCase().replace(/-/g, "_");
}

export function parseCommands(body: string): SlashCommand[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const commands: SlashCommand[] = [];
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence[0]!) && fenceMatch[1]!.length >= fence.length && !fenceMatch[2]) {
        fence = undefined;
      }
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) continue;
    const match = COMMAND_LINE.exec(line);
    if (!match) continue;
    const command: SlashCommand = {
      name: normaliseCommandName(match[1]!),
      typed: match[1]!,
      args: match[2]!.trim(),
      line: index + 1,
    };
    const block = readParameterBlock(lines, index + 1);
    if (block) {
      command.block = block.block;
      index = block.end;
    }
    commands.push(command);
  }
  return commands;
}

/** A ```json / ```yaml block starting exactly on line `start`, and the index of its closing fence. */
function readParameterBlock(lines: string[], start: number): { block: NonNullable<SlashCommand["block"]>; end: number } | undefined {
  const opening = FENCE.exec(lines[start] ?? "");
  if (!opening) return undefined;
  const info = opening[2]!.toLowerCase();
  const language = info === "json" ? "json" : info === "yaml" || info === "yml" ? "yaml" : undefined;
  if (!language) return undefined;
  const fence = opening[1]!;
  for (let end = start + 1; end < lines.length; end++) {
    const closing = FENCE.exec(lines[end]!);
    if (closing && closing[1]!.startsWith(fence[0]!) && closing[1]!.length >= fence.length && !closing[2]) {
      return { block: { language, text: lines.slice(start + 1, end).join("\n") }, end };
    }
  }
  return undefined;
}

/** What makes two commands the same command: name as typed, arguments and parameter block. */
function commandText(command: SlashCommand): string {
  return [command.typed, command.args, command.block?.language ?? "", command.block?.text ?? ""].join("\0");
}

/**
 * Each command of a comment named by its text and its occurrence among commands of the same text
 * (a digest of `<text>#<n>`: short, and safe in a reply's hidden marker), so moving it to another
 * line does not make it another command.
 */
export function commandKeys(commands: readonly SlashCommand[]): string[] {
  const seen = new Map<string, number>();
  return commands.map((command) => {
    const text = commandText(command);
    const occurrence = seen.get(text) ?? 0;
    seen.set(text, occurrence + 1);
    return createHash("sha256").update(`${text}#${occurrence}`).digest("hex").slice(0, 16);
  });
}

/** The commands of `after` that `before` did not hold (by `commandKeys`), with their keys. */
export function addedCommands(before: string, after: string): Array<{ command: SlashCommand; key: string }> {
  const earlier = new Set(commandKeys(parseCommands(before)));
  const commands = parseCommands(after);
  const keys = commandKeys(commands);
  return commands.map((command, index) => ({ command, key: keys[index]! })).filter(({ key }) => !earlier.has(key));
}
