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

/** `use `x`` → `use x`; `**bold**` → `bold`; entity-free (the runtime's texts are not HTML-escaped). */
export function plain(markdown: string, style: Style = noStyle): string {
  return (
    markdown
      // A code span as CommonMark reads one: a run of backticks closed by a run of the same length; an
      // unclosed run (a "```yaml block" in a sentence) stays as it is, as GitHub shows it.
      .replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (_match, _fence: string, content: string) =>
        style("cyan", content.replace(/^ (.*) $/, "$1")),
      )
      .replace(/\*\*([^*\n]+)\*\*/g, (_match, content: string) => style("bold", content))
  );
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

/** A preview on a terminal: the pending label first, what the tool said beyond it, then the diff. */
function renderOutcome(outcome: CommandOutcome, stack: PendingRecord[], style: Style): string {
  const pushed = outcome.pushed ?? [];
  if (pushed.length === 0) return plain(outcome.message, style);
  const lines = outcome.message.split("\n");
  // The tool's first line usually is the label; say it once.
  const said = pushed.some(({ record }) => record.label === lines[0]) ? lines.slice(1) : lines;
  const parts: string[] = [];
  for (const [index, { record, diff }] of pushed.entries()) {
    parts.push(style("bold", `Pending${stackPlace(record, stack)}: ${record.label}`));
    if (index === 0 && said.join("\n").trim() !== "") parts.push(plain(said.join("\n").trim(), style));
    if (diff) parts.push(colourDiff(diff.trimEnd(), style));
  }
  return parts.join("\n");
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
    if (outcome.resolved?.commit) output.out(`Committed ${shortSha(outcome.resolved.commit)}.`);
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
