import { parseCommands } from "../../src/core/commands.js";

describe("parseCommands", () => {
  test("finds every command line, in order, and normalises - to _", () => {
    const body = "Thanks!\n/ast-edit --pat 'a' --out 'b'\nsome text\n/resolve apply looks good\n";
    expect(parseCommands(body).map((command) => [command.name, command.typed, command.args, command.line])).toEqual([
      ["ast_edit", "ast-edit", "--pat 'a' --out 'b'", 2],
      ["resolve", "resolve", "apply looks good", 4],
    ]);
  });

  test("ignores commands inside fenced code blocks and > quotes", () => {
    const body = ["> /resolve apply quoted", "```", "/resolve apply in code", "```", "~~~sh", "/help", "~~~", "/pending"].join("\n");
    expect(parseCommands(body).map((command) => command.name)).toEqual(["pending"]);
  });

  test("a line must start with the command; paths and mid-line slashes are not commands", () => {
    expect(parseCommands("see /help for more\n/usr/bin is a path\n  /help")).toEqual([{ name: "help", typed: "help", args: "", line: 3 }]);
  });

  test("a json or yaml block right after the command belongs to it", () => {
    const body = [
      "/ast-edit",
      "```json",
      '{"ops": [{"pat": "a", "out": "b"}]}',
      "```",
      "/rename-symbol a b",
      "```yaml",
      "file: x.ts",
      "```",
    ].join("\n");
    const commands = parseCommands(body);
    expect(commands).toHaveLength(2);
    expect(commands[0]!.block).toEqual({ language: "json", text: '{"ops": [{"pat": "a", "out": "b"}]}' });
    expect(commands[1]!.block).toEqual({ language: "yaml", text: "file: x.ts" });
  });

  test("a fenced block of another language after a command is ordinary code", () => {
    const commands = parseCommands("/help\n```ts\n/pending\n```");
    expect(commands.map((command) => [command.name, command.block])).toEqual([["help", undefined]]);
  });

  test("CRLF line endings", () => {
    expect(parseCommands("/help\r\n/pending\r\n").map((command) => command.name)).toEqual(["help", "pending"]);
  });
});
