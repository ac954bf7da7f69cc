/**
 * jscodeshift peers: the same three rewrites as transforms, applied in-process through
 * jscodeshift's API with its `ts` parser (babel), one file at a time on one thread.
 * (jscodeshift's own Runner uses os.cpus() - 1 workers, i.e. one worker on this 2-core machine, plus
 * process start-up: the in-process loop is the fastest honest way to run it here.)
 * The transforms are plain codemods: no text prefilter, every file is parsed, and only files with
 * a match are printed (recast) — what a codemod author would write.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

type J = any;
type Collection = any;

export type JscodeshiftTransform = (j: J, root: Collection) => number;

// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- jscodeshift ships no types here
let api: J | undefined;
export function jscodeshiftApi(): J {
  api ??= require("jscodeshift").withParser("ts");
  return api;
}

export function jscodeshiftVersion(): string {
  return (require("jscodeshift/package.json") as { version: string }).version;
}

/** `console.log($$$A)` → `logger.debug($$$A)` */
export const consoleLogToDebug: JscodeshiftTransform = (j, root) => {
  const calls = root.find(j.CallExpression, {
    callee: {
      type: "MemberExpression",
      computed: false,
      object: { type: "Identifier", name: "console" },
      property: { type: "Identifier", name: "log" },
    },
  });
  calls.forEach((p: any) => {
    p.node.callee = j.memberExpression(j.identifier("logger"), j.identifier("debug"));
  });
  return calls.length;
};

/** `new Error($$$A)` → `new BenchError($$$A)` */
export const newErrorToBenchError: JscodeshiftTransform = (j, root) => {
  const news = root.find(j.NewExpression, { callee: { type: "Identifier", name: "Error" } });
  news.forEach((p: any) => {
    p.node.callee = j.identifier("BenchError");
  });
  return news.length;
};

/** `$A === undefined` → `$A == null` */
export const strictUndefinedToLooseNull: JscodeshiftTransform = (j, root) => {
  const tests = root.find(j.BinaryExpression, { operator: "===", right: { type: "Identifier", name: "undefined" } });
  tests.forEach((p: any) => {
    p.replace(j.binaryExpression("==", p.node.left, j.nullLiteral()));
  });
  return tests.length;
};

export interface JscodeshiftRun {
  matches: number;
  changedFiles: number;
  parseErrors: number;
}

/** Runs `transform` over `files` (relative to `root`) like jscodeshift's Worker does: read, parse, transform, print if changed. */
export async function runJscodeshift(root: string, files: readonly string[], transform: JscodeshiftTransform): Promise<JscodeshiftRun> {
  const j = jscodeshiftApi();
  let matches = 0;
  let changedFiles = 0;
  let parseErrors = 0;
  for (const file of files) {
    const source = await readFile(path.join(root, file), "utf8");
    let tree: Collection;
    try {
      tree = j(source);
    } catch {
      parseErrors++;
      continue;
    }
    const found = transform(j, tree);
    if (found > 0) {
      matches += found;
      const out: string = tree.toSource();
      if (out !== source) changedFiles++;
    }
  }
  return { matches, changedFiles, parseErrors };
}
