/** Command-line flags of `npm run bench` (node bench/.work/dist/bench/main.js [flags]). */
import { parseArgs } from "node:util";

export type CorpusName = "tiny" | "rxjs" | "effect" | "large";
export type Section = "ast-edit" | "ts" | "api" | "memory" | "intake" | "repo-size" | "action" | "mcp";
export const SECTIONS: readonly Section[] = ["ast-edit", "ts", "api", "memory", "intake", "repo-size", "action", "mcp"];

export interface BenchOptions {
  /** Corpus the ast-edit headline and memory use: tiny (generated, for the smoke test) or large. */
  corpus: "tiny" | "large";
  /** Timed runs per peer (median reported). */
  runs: number;
  /** Runs of jscodeshift (it is ~50× slower than the rest; its ratio is not close to any target). */
  jscodeshiftRuns: number;
  /** Sections to run. */
  sections: Section[];
  /** File counts for the GitHub API cost section. */
  apiSizes: number[];
  /** Where results.json goes. */
  out: string;
  /** Scratch directory for corpus copies (outside any git repository: the ast-grep CLI honours .gitignore). */
  workDir?: string;
  /** Also run the ast-edit peers on rxjs/src alone (extra rows; off by default to keep the run short). */
  smallCorpus: boolean;
  /** Timed runs of the TypeScript peers (default 2 × runs: they are short and noisy). */
  tsRuns: number;
  /** Copies of effect's src per repository-size row (1, 10, 40, 100 → 364 … 36,301 files). */
  repoSizes: number[];
}

export const USAGE = `usage: npm run bench -- [--corpus large|tiny] [--runs N] [--jscodeshift-runs N]
       [--only ast-edit,ts,api,memory,intake,repo-size,action,mcp] [--api-sizes 1,10,100,1000] [--repo-sizes 1,10,40,100]
       [--out bench/results.json] [--small] [--ts-runs N]`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      corpus: { type: "string", default: "large" },
      runs: { type: "string", default: "5" },
      "jscodeshift-runs": { type: "string", default: "1" },
      only: { type: "string" },
      "api-sizes": { type: "string" },
      "repo-sizes": { type: "string" },
      out: { type: "string", default: "bench/results.json" },
      "work-dir": { type: "string" },
      small: { type: "boolean", default: false },
      "ts-runs": { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) throw new Error(USAGE);
  const corpus = values.corpus;
  if (corpus !== "large" && corpus !== "tiny") throw new Error(`--corpus must be large or tiny\n${USAGE}`);
  const positive = (name: string, text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer\n${USAGE}`);
    return n;
  };
  const sections = values.only === undefined ? [...SECTIONS] : values.only.split(",").map((s) => s.trim());
  for (const section of sections) if (!SECTIONS.includes(section as Section)) throw new Error(`unknown section ${section}\n${USAGE}`);
  const apiSizes = (values["api-sizes"] ?? (corpus === "tiny" ? "1" : "1,10,100,1000")).split(",").map((s) => positive("api-sizes", s));
  const repoSizes = (values["repo-sizes"] ?? (corpus === "tiny" ? "1" : "1,10,40,100")).split(",").map((s) => positive("repo-sizes", s));
  return {
    repoSizes,
    corpus,
    runs: positive("runs", values.runs),
    jscodeshiftRuns: positive("jscodeshift-runs", values["jscodeshift-runs"]),
    sections: sections as Section[],
    apiSizes,
    out: values.out,
    workDir: values["work-dir"],
    smallCorpus: corpus === "large" && values.small,
    tsRuns: values["ts-runs"] === undefined ? 2 * positive("runs", values.runs) : positive("ts-runs", values["ts-runs"]),
  };
}
