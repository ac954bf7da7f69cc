/**
 * Plain text for a terminal. The runtime's messages are written for GitHub (code spans, bold, lists);
 * on a terminal the markup goes and, only when the output is a TTY, turns into colour.
 * Hand-written rather than a markdown-to-terminal library: the messages use only code spans and
 * bold, and a library would re-wrap and indent text that users copy (commands, paths).
 */
import type { CommandOutcome } from "../../core/runtime.js";
import { stackPlace, type Reply } from "../../pipeline/reply.js";
import type { PendingRecord } from "../../core/store.js";
import type { ReplySink } from "./ports.js";
import { shortSha } from "../../core/revision.js";
import { tookText } from "../../pipeline/cost.js";

/** Where the command line writes: stdout and stderr, and how stdout shows emphasis. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Colour on a TTY, nothing otherwise. */
  style?: Style;
  /** stderr is a terminal: a long command says early that it is working (as git shows progress only there). */
  interactive?: boolean;
}

/** SGR codes, written out: node's util.styleText decides by itself whether to colour, differently across Node lines. */
const FORMATS = { bold: [1, 22], red: [31, 39], green: [32, 39], cyan: [36, 39], dim: [2, 22] } as const;
type Format = keyof typeof FORMATS;

function paint(format: Format, value: string): string {
  const [on, off] = FORMATS[format];
  return `\u001b[${on}m${value}\u001b[${off}m`;
}

export interface Style {
  (format: Format, value: string): string;
  readonly colour: boolean;
}

/** Colour when the stream is a TTY, unless NO_COLOR is set; FORCE_COLOR turns it on anyway. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  const colour = force || (stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== "dumb");
  return Object.assign((format: Format, value: string) => (colour ? paint(format, value) : value), { colour });
}

export const noStyle: Style = styleFor({}, {});

/**
 * Code spans as CommonMark reads them: a run of backticks up to the next run of the same length;
 * a run with no such partner (the "```yaml" of a sentence) is text, as GitHub shows it.
 */
function codeSpans(markdown: string, style: Style): string {
  let result = "";
  let at = 0;
  const runs = /`+/g;
  for (let run = runs.exec(markdown); run !== null; run = runs.exec(markdown)) {
    const fence = run[0];
    const close = new RegExp(`(?<!\`)${fence}(?!\`)`, "g");
    close.lastIndex = run.index + fence.length;
    const end = close.exec(markdown);
    if (end === null) continue; // text: the next run is looked at from here
    const content = markdown.slice(run.index + fence.length, end.index);
    result += markdown.slice(at, run.index) + style("cyan", /^ .*[^ ].* $/s.test(content) ? content.slice(1, -1) : content);
    at = runs.lastIndex = end.index + fence.length;
  }
  return result + markdown.slice(at);
}

/**
 * `use `x`` → `use x`; `**bold**` → `bold`; a fenced block's lines as they are, its fences blank;
 * entity-free (the runtime's texts are not HTML-escaped). Line by line: a span never runs from one
 * paragraph or list item into the next.
 */
export function plain(markdown: string, style: Style = noStyle): string {
  let fence: string | undefined;
  const lines = markdown.split("\n").map((line) => {
    const opens = /^\s*(`{3,}|~{3,})[^`]*$/.exec(line);
    if (fence === undefined && opens) {
      fence = opens[1]!;
      return "";
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = undefined;
      return fence === undefined ? "" : line;
    }
    return codeSpans(line, style).replace(/\*\*([^*\n]+)\*\*/g, (_match, content: string) => style("bold", content));
  });
  return lines.join("\n");
}

/** A git diff with removed lines red, added lines green and hunk headers cyan (TTY only). */
export function colourDiff(diff: string, style: Style = noStyle): string {
  if (!style.colour) return diff;
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff --git")) return style("bold", line);
      if (line.startsWith("+")) return style("green", line);
      if (line.startsWith("-")) return style("red", line);
      if (line.startsWith("@@")) return style("cyan", line);
      return line;
    })
    .join("\n");
}

/**
 * A preview on a terminal: the pending label first, what the tool said beyond it, then the diff.
 * An apply of part says what it committed, then the rest it left pending, as a preview reads.
 */
function renderOutcome(outcome: CommandOutcome, stack: PendingRecord[], style: Style): string {
  const pushed = outcome.pushed ?? [];
  const commit = outcome.resolved?.commit !== undefined ? `Committed ${shortSha(outcome.resolved.commit)}.` : undefined;
  if (pushed.length === 0 || outcome.kind === "resolve") {
    return [plain(outcome.message, style), ...(commit !== undefined ? [commit] : []), ...renderPushed(pushed, [], stack, style)].join("\n");
  }
  const lines = outcome.message.split("\n");
  // The tool's first line usually is the label; say it once.
  const said = pushed.some(({ record }) => record.label === lines[0]) ? lines.slice(1) : lines;
  return renderPushed(pushed, said, stack, style).join("\n");
}

function renderPushed(pushed: NonNullable<CommandOutcome["pushed"]>, said: string[], stack: PendingRecord[], style: Style): string[] {
  const parts: string[] = [];
  for (const [index, { record, diff }] of pushed.entries()) {
    parts.push(style("bold", `Pending${stackPlace(record, stack)}: ${record.label}`));
    if (index === 0 && said.join("\n").trim() !== "") parts.push(plain(said.join("\n").trim(), style));
    if (diff) parts.push(colourDiff(diff.trimEnd(), style));
  }
  return parts;
}

/**
 * A request's reply (pipeline/reply.ts) on the terminal: what worked on stdout, what failed on
 * stderr, and the next command once while something is pending. A bot failure says nothing more
 * here: its cause was already written to stderr.
 */
export function writeReply(reply: Reply, output: Output): void {
  const style = output.style ?? noStyle;
  for (const outcome of reply.outcomes) {
    if (!outcome.ok) {
      output.err(plain(outcome.message));
      continue;
    }
    output.out(renderOutcome(outcome, reply.stack, style));
  }
  if (reply.skipped.length > 0) output.err(`Not run, because an earlier command failed: ${reply.skipped.join(", ")}`);
  if (reply.notice && reply.status === "ok") output.out(plain(reply.notice, style));
  else if (reply.notice) output.err(plain(reply.notice));
  if (reply.status === "ok" && reply.steering) output.out(`\n${plain(reply.steering, style)}`);
  // Beside the working status on stderr: stdout stays the result.
  if (reply.took !== undefined) output.err(tookText(reply.took));
}

/** The CLI's reply sink (forges/local/ports.ts): replies and notes on the terminal. */
export function terminalSink(output: Output): ReplySink {
  return { reply: (reply) => writeReply(reply, output), note: (text) => output.err(plain(text)), watched: output.interactive === true };
}
