/**
 * CLI parity on real code nobody here wrote, in the languages the issue names: Python's standard
 * library, Go's (golang-src), Rust crates (librust-regex-dev, librust-serde-dev), Java's
 * (openjdk-17-source), Ruby's (libruby3.1), and effect@3's TypeScript, a third of whose files hold
 * ERROR nodes (syntax the grammar lacks). .ci/run installs the Debian packages; where one is
 * missing, its cases are skipped outside CI with one line naming the package, and fail in CI. Each case asserts byte-identical trees after apply, that
 * the CLI changed files (nothing passes vacuously) and that no reply names skipped files; the
 * TypeScript cases also that files with ERROR nodes are among those changed.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  changedFiles,
  cliRewrite,
  cliScan,
  expectSameTrees,
  filesWithErrors,
  readTree,
  toolRewrite,
  type Op,
} from "../helpers/ast-grep-parity.js";
import { checkNeeds, debianCommand, debianPackage, type Need } from "../helpers/machine.js";

let scratch: string;

/** The newest directory matching `parent/prefix*` (a versioned Debian path), joined with `suffix`, if it exists. */
function versioned(parent: string, prefix: string, suffix: string): string | undefined {
  const found = existsSync(parent)
    ? readdirSync(parent)
        .filter((name) => name.startsWith(prefix))
        .sort()
    : [];
  const dir = found.length > 0 ? path.join(parent, found[found.length - 1]!, suffix) : undefined;
  return dir !== undefined && existsSync(dir) ? dir : undefined;
}

/** Copies the files under `from` whose relative path passes `keep` into scratch/name. */
function copyCorpus(name: string, from: string, keep: (relative: string) => boolean): string {
  const to = path.join(scratch, "corpus", name);
  cpSync(from, to, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(from, source);
      const stat = lstatSync(source);
      if (stat.isSymbolicLink()) return false;
      if (relative === "" || stat.isDirectory()) return !relative.split(path.sep).includes("__pycache__");
      return keep(relative.split(path.sep).join("/"));
    },
  });
  return to;
}

const find = {
  python: () => versioned("/usr/lib", "python3.", ""),
  go: () => versioned("/usr/share", "go-", "src"),
  regex: () => versioned("/usr/share/cargo/registry", "regex-1", "src"),
  serde: () => versioned("/usr/share/cargo/registry", "serde-1", "src"),
  java: () => ["/usr/lib/jvm/openjdk-17/lib/src.zip", "/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip"].find((file) => existsSync(file)),
  ruby: () => versioned("/usr/lib/ruby", "3.", ""),
};
const found = (what: keyof typeof find) => find[what]()!;

/** Each corpus: the Debian packages it comes from (.ci/run installs them), and how to lay it out in scratch. */
const corpora = new Map<string, { needs: Need[]; make: () => string }>([
  [
    "python",
    {
      needs: [debianPackage("libpython3.11-stdlib", find.python)],
      make: () => copyCorpus("python", found("python"), (f) => /^(\w+\.py|(json|email|asyncio|http|logging)\/\w+\.py)$/.test(f)),
    },
  ],
  [
    "go",
    {
      needs: [debianPackage("golang-src", find.go)],
      make: () => copyCorpus("go", found("go"), (f) => /^(fmt|strings|bufio|net\/http|encoding\/json|go\/parser)\/[\w.]+\.go$/.test(f)),
    },
  ],
  [
    "rust",
    {
      needs: [debianPackage("librust-regex-dev", find.regex), debianPackage("librust-serde-dev", find.serde)],
      make: () => {
        const dir = path.join(scratch, "corpus", "rust");
        cpSync(found("regex"), path.join(dir, "regex-1"), { recursive: true });
        cpSync(found("serde"), path.join(dir, "serde-1"), { recursive: true });
        return dir;
      },
    },
  ],
  [
    "java",
    {
      needs: [debianPackage("openjdk-17-source", find.java), debianCommand("unzip", "unzip", "-v")],
      make: () => {
        const dir = path.join(scratch, "corpus", "java");
        mkdirSync(dir, { recursive: true });
        // java.util's own files (-W: * stops at a /), 354 files
        execFileSync("unzip", ["-q", "-W", found("java"), "java.base/java/util/*.java", "-d", dir]);
        return dir;
      },
    },
  ],
  [
    "ruby",
    {
      needs: [debianPackage("libruby3.1", find.ruby)],
      make: () => copyCorpus("ruby", found("ruby"), (f) => /^(\w+\.rb|(net|json|uri)\/[\w/]+\.rb)$/.test(f)),
    },
  ],
  [
    "effect",
    { needs: [], make: () => copyCorpus("effect", path.join(process.cwd(), "node_modules/effect/src"), (f) => f.endsWith(".ts")) },
  ],
]);

// The corpora whose packages are missing: their cases are skipped outside CI (one line says what to
// install) and fail the suite in CI.
const missing = checkNeeds(
  "the cases of test/tools/ast-edit-languages-parity.test.ts on Debian's sources",
  [...corpora.values()].flatMap((corpus) => corpus.needs),
);

/** One test per row whose corpus is here; the others are listed as skipped (after checkNeeds's line). */
function eachWithCorpus<T>(rows: Array<readonly [string, T]>, corpusOf: (row: T) => string, run: (name: string, row: T) => Promise<void>) {
  const here = (row: readonly [string, T]) => corpora.get(corpusOf(row[1]))!.needs.every((need) => !missing.includes(need));
  const [present, absent] = [rows.filter(here), rows.filter((row) => !here(row))];
  if (present.length > 0) test.each(present)("%s", run);
  if (absent.length > 0) test.skip.each(absent)("%s", run);
}

const prepared = new Map<string, { dir: string; files: Map<string, Buffer> }>();
function corpus(name: string): { dir: string; files: Map<string, Buffer> } {
  let entry = prepared.get(name);
  if (entry === undefined) {
    const dir = corpora.get(name)!.make();
    entry = { dir, files: readTree(dir) };
    prepared.set(name, entry);
  }
  return entry;
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "ast-edit-langs-"));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

interface Case {
  corpus: string;
  ops: Op[];
  lang?: string;
}

const CASES: Case[] = [
  { corpus: "python", ops: [{ pat: "print($$$A)", out: "log($$$A)" }] },
  { corpus: "python", ops: [{ pat: "$A is not None", out: "$A != None" }] },
  { corpus: "python", ops: [{ pat: "raise $E($$$A)", out: "raise wrap(\n    $E($$$A)\n)" }] },
  {
    corpus: "python",
    ops: [
      { pat: "isinstance($A, str)", out: "is_text($A)" },
      { pat: "not is_text($A)", out: "is_not_text($A)" },
    ],
  },
  { corpus: "go", ops: [{ pat: "fmt.Errorf($F, $$$A)", out: "errors.New(fmt.Sprintf($F, $$$A))" }] },
  { corpus: "go", ops: [{ pat: "if err != nil { return $$$R }", out: "if err != nil {\n\treturn wrap($$$R)\n}" }] },
  { corpus: "go", ops: [{ pat: "len($A) == 0", out: "isEmpty($A)" }], lang: "go" },
  { corpus: "rust", ops: [{ pat: "$A.unwrap()", out: '$A.expect("checked")' }] },
  { corpus: "rust", ops: [{ pat: "Some($A)", out: "Option::Some($A)" }] },
  { corpus: "rust", ops: [{ pat: "match $X { $$$ARMS }", out: "match ($X) {\n    $$$ARMS\n}" }] },
  { corpus: "java", ops: [{ pat: "$A.size() == 0", out: "$A.isEmpty()" }] },
  { corpus: "java", ops: [{ pat: "throw new $E($$$A);", out: "throw fail(new $E($$$A));" }] },
  { corpus: "java", ops: [{ pat: "if ($C) { $$$B }", out: "if ($C) {\n    trace();\n    $$$B\n}" }], lang: "java" },
  { corpus: "ruby", ops: [{ pat: "raise $E, $M", out: "raise $E.new($M)" }] },
  { corpus: "ruby", ops: [{ pat: "$A.nil?", out: "($A == nil)" }] },
  { corpus: "ruby", ops: [{ pat: "def $N($$$P)\n  $$$B\nend", out: "def $N($$$P)\n  trace\n  $$$B\nend" }] },
  { corpus: "effect", ops: [{ pat: "new Error($$$A)", out: "new BenchError($$$A)" }] },
  { corpus: "effect", ops: [{ pat: "return $X", out: "return ($X)" }] },
  { corpus: "effect", ops: [{ pat: "$A !== undefined", out: "$A != null" }] },
  {
    corpus: "effect",
    ops: [
      { pat: "Option.none()", out: "Option.none(\n)" },
      { pat: "Option.some($A)", out: "Option.some(\n  $A\n)" },
    ],
  },
];

/** Languages of the ERROR-node check per corpus (only the TypeScript corpus is asserted to hold some). */
const ERROR_LANGS: Record<string, string[]> = { effect: ["typescript"] };

describe("ast_edit is byte-identical to ast-grep run -U on real code in other languages", () => {
  eachWithCorpus(
    CASES.map((c) => [`${c.corpus}: ${c.ops.map((op) => op.pat).join(" then ")}${c.lang ? ` (--lang ${c.lang})` : ""}`, c] as const),
    (c) => c.corpus,
    async (_name, testCase) => {
      const { dir, files } = corpus(testCase.corpus);
      const expected = await cliRewrite(scratch, dir, testCase.ops, testCase.lang);
      const params = { ops: testCase.ops, ...(testCase.lang ? { lang: testCase.lang } : {}) };
      const { after, details, actions, text } = await toolRewrite(files, params);
      const changed = changedFiles(files, expected);
      expect(changed.length).toBeGreaterThan(0);
      expect(actions).toHaveLength(1);
      expect(details?.skipped).toBeUndefined();
      expect(text).not.toContain("Not searched");
      expectSameTrees(after, expected);
      const errorLangs = ERROR_LANGS[testCase.corpus];
      if (errorLangs !== undefined) {
        const withErrors = await filesWithErrors(dir, errorLangs);
        // the files the old in-process engine skipped are rewritten, as the CLI rewrites them
        expect(changed.filter((file) => withErrors.has(file)).length).toBeGreaterThan(0);
      }
    },
  );
});

describe("language injection and sequences of ops", () => {
  test("JavaScript and TypeScript inside HTML are rewritten as the CLI rewrites them", async () => {
    const dir = path.join(scratch, "html");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "page.html"),
      '<html>\n<p onclick="x">alert(3)</p>\n<script>\n  alert(1); alert("é")\n  alert(\n    5)\n</script>\n</html>\n',
    );
    writeFileSync(path.join(dir, "typed.html"), '<div>\n<script lang="ts">let n: number = alert(2)</script>\n</div>\n');
    writeFileSync(path.join(dir, "app.js"), "alert(4);\n");
    const files = readTree(dir);
    for (const lang of [undefined, "js", "ts"]) {
      const ops = [{ pat: "alert($A)", out: "alert(456)" }];
      const expected = await cliRewrite(scratch, dir, ops, lang);
      const { after, text } = await toolRewrite(files, { ops, ...(lang ? { lang } : {}) });
      expect(changedFiles(files, expected)).toContain(lang === "ts" ? "typed.html" : "page.html");
      expect(text).toContain(lang === "ts" ? "- typed.html: 1 replacement" : "- page.html: 3 replacements");
      expectSameTrees(after, expected);
    }
  });

  test("matches in several <script> regions of one HTML file: every match the CLI reports is applied (its -U keeps the last region's)", async () => {
    const dir = path.join(scratch, "html-two");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "two-langs.html"), '<script>alert(1)</script>\n<script lang="ts">alert(2)</script>\n');
    writeFileSync(path.join(dir, "two-scripts.html"), "<script>alert(1)</script>\n<script>alert(2)</script>\n");
    const ops = [{ pat: "alert($A)", out: "alert(456)" }];
    // ast-grep 0.51.1's -U writes an HTML file once per injected region, each time from the original text
    const cli = await cliRewrite(scratch, dir, ops);
    expect(cli.get("two-langs.html")!.toString()).toBe('<script>alert(1)</script>\n<script lang="ts">alert(456)</script>\n');
    expect(cli.get("two-scripts.html")!.toString()).toBe("<script>alert(1)</script>\n<script>alert(456)</script>\n");
    const { after, text } = await toolRewrite(readTree(dir), { ops });
    expect(text).toBe("AST Edit: 4 replacements in 2 files\n- two-langs.html: 2 replacements\n- two-scripts.html: 2 replacements");
    expect(after.get("two-langs.html")!.toString()).toBe('<script>alert(456)</script>\n<script lang="ts">alert(456)</script>\n');
    expect(after.get("two-scripts.html")!.toString()).toBe("<script>alert(456)</script>\n<script>alert(456)</script>\n");
  });

  test("ops whose intermediate text does not parse go on as the CLI goes on", async () => {
    const { dir, files } = corpus("effect");
    // op 1 leaves `= =` behind (a syntax error in every file it touches); op 2 still edits those files
    const ops = [
      { pat: "const $A = $B.pipe($$$C)", out: "const $A = = $B.pipe($$$C)" },
      { pat: "pipe($$$A)", out: "flow($$$A)" },
    ];
    const expected = await cliRewrite(scratch, dir, ops);
    const { after, details } = await toolRewrite(files, { ops });
    expect(details?.replacements ?? 0).toBeGreaterThan(0);
    expectSameTrees(after, expected);
  });
});

describe("YAML rules are byte-identical to ast-grep scan --rule --update-all", () => {
  const RULES: Array<{ name: string; corpus: string; rules: string }> = [
    {
      name: "relational (inside, has, stopBy) and composite (all, any, not) rules",
      corpus: "effect",
      rules: [
        "id: throw-in-function",
        "language: typescript",
        "rule:",
        "  all:",
        "    - pattern: throw $E",
        "    - inside: { kind: function_declaration, stopBy: end }",
        "    - not: { has: { kind: string, stopBy: end } }",
        "    - any: [{ has: { kind: new_expression } }, { has: { kind: call_expression } }]",
        "fix: throw report($E)",
      ].join("\n"),
    },
    {
      name: "constraints, utils and transform (replace, substring, convert)",
      corpus: "effect",
      rules: [
        "id: rename-exported-functions",
        "language: typescript",
        "utils:",
        "  exported: { inside: { kind: export_statement, stopBy: end } }",
        "rule:",
        "  kind: identifier",
        "  pattern: $NAME",
        "  inside: { kind: function_declaration, field: name }",
        "  matches: exported",
        "constraints:",
        "  NAME: { regex: '^[a-z]+[A-Z]' }",
        "transform:",
        "  UPPER: { convert: { source: $NAME, toCase: upperCase } }",
        "  SHORT: { substring: { source: $NAME, startChar: 0, endChar: 3 } }",
        "  SNAKE: { replace: { source: $NAME, replace: '([A-Z])', by: '_$1' } }",
        "fix: $SNAKE$SHORT$UPPER",
      ].join("\n"),
    },
    {
      name: "rewriters, and several rules (two languages) separated by ---",
      corpus: "python",
      rules: [
        "id: dict-keys",
        "language: python",
        "rule: { pattern: 'dict($$$ARGS)' }",
        "rewriters:",
        "  - id: kw-to-pair",
        "    rule: { kind: keyword_argument, has: { field: name, pattern: $K } , all: [{ has: { field: value, pattern: $V } }] }",
        "    fix: \"'$K': $V\"",
        "transform:",
        "  PAIRS: { rewrite: { rewriters: [kw-to-pair], source: $$$ARGS, joinBy: ', ' } }",
        "fix: '{$PAIRS}'",
        "---",
        "id: none-compare",
        "language: python",
        "rule: { pattern: $A != None }",
        "fix: $A is not None",
        "---",
        "id: ts-only",
        "language: typescript",
        "rule: { pattern: console.log($$$A) }",
        "fix: logger.debug($$$A)",
      ].join("\n"),
    },
    {
      name: "a rule with files/ignores globs and expandEnd",
      corpus: "go",
      rules: [
        "id: drop-panics",
        "language: go",
        "files: ['fmt/**', 'strings/**']",
        "ignores: ['**/*_test.go']",
        "rule: { pattern: 'panic($$$A)', inside: { kind: expression_statement } }",
        "fix:",
        "  template: ''",
        "  expandEnd: { regex: '\\n' }",
      ].join("\n"),
    },
  ];

  eachWithCorpus(
    RULES.map((r) => [r.name, r] as const),
    (r) => r.corpus,
    async (_name, { corpus: name, rules }) => {
      const { dir, files } = corpus(name);
      const expected = await cliScan(scratch, dir, rules);
      const { after, details, actions } = await toolRewrite(files, { rules });
      expect(changedFiles(files, expected).length).toBeGreaterThan(0);
      expect(actions).toHaveLength(1);
      expect(details?.skipped).toBeUndefined();
      expectSameTrees(after, expected);
    },
  );
});
