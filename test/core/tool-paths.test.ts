/** A tool's declared path parameters go through the front end's reader; nothing else does. */
import { Type } from "@sinclair/typebox";
import { readToolPaths } from "../../src/core/tool-paths.js";
import type { AnyToolDefinition } from "../../src/core/tool.js";

const tool: AnyToolDefinition = {
  name: "demo",
  label: "Demo",
  description: "demo",
  parameters: Type.Object({}),
  pathParameters: { paths: "path", file: "path", at: "position" },
  execute: async () => ({ content: [] }),
};
const fromSub = (typed: string) => `sub/${typed}`;

test("paths, lists of paths and the path of a position are read; other parameters and absent ones are not", () => {
  expect(readToolPaths(tool, { paths: ["a.ts", "b"], file: "c.ts", at: "d.ts:12:5", pat: "x.ts" }, fromSub)).toEqual({
    paths: ["sub/a.ts", "sub/b"],
    file: "sub/c.ts",
    at: "sub/d.ts:12:5",
    pat: "x.ts",
  });
  expect(readToolPaths(tool, { at: "d.ts:3" }, fromSub)).toEqual({ at: "sub/d.ts:3" });
  // A position without a line is a path all the same (the tool then says what it lacks).
  expect(readToolPaths(tool, { at: "d.ts" }, fromSub)).toEqual({ at: "sub/d.ts" });
  expect(readToolPaths({ ...tool, pathParameters: undefined }, { paths: ["a"] }, fromSub)).toEqual({ paths: ["a"] });
});
