/**
 * Paths as typed, made paths from the repository's root before a tool runs: the parameters a tool
 * declares in `pathParameters` go through the front end's reader (the CLI reads them from the
 * current directory). Other parameters, and tools that declare none, are left as they are.
 */
import type { AnyToolDefinition } from "./tool.js";

/** How a front end reads one typed path: the path from the repository root, or a UserError. */
export type PathReader = (typed: string) => string;

/** `src/a.ts:12:5` → `["src/a.ts", ":12:5"]`; a value without a line keeps it all as the path. */
function splitPosition(value: string): [string, string] {
  const match = /^(.*?)(:\d+(?::\d+)?)$/.exec(value);
  return match ? [match[1]!, match[2]!] : [value, ""];
}

export function readToolPaths(tool: AnyToolDefinition, params: Record<string, unknown>, read: PathReader): Record<string, unknown> {
  const declared = Object.entries(tool.pathParameters ?? {});
  if (declared.length === 0) return params;
  const result = { ...params };
  const one = (kind: "path" | "position", value: unknown): unknown => {
    if (typeof value !== "string" || value === "") return value;
    if (kind === "path") return read(value);
    const [file, at] = splitPosition(value);
    return file === "" ? value : `${read(file)}${at}`;
  };
  for (const [name, kind] of declared) {
    const value = result[name];
    if (value === undefined) continue;
    result[name] = Array.isArray(value) ? value.map((item) => one(kind, item)) : one(kind, value);
  }
  return result;
}
