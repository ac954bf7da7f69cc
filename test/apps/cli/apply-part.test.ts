/** `resolve-bot resolve apply --only PATH "<reason>"` as a user runs it: each step a separate process (dist/src/apps/bin.js). */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { git, makeRepo, treeAt } from "../../helpers/git-repo.js";

const CLI = path.resolve("dist/src/apps/bin.js");

function cli(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "--cwd", cwd, ...args], { encoding: "utf8" });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const SOURCES = {
  "src/a.ts": 'export function greet(name: string) {\n  console.log("hi", name);\n}\n',
  "src/b.ts": 'import { greet } from "./a";\n\nconsole.log(greet("b"));\n',
};
const LABEL = "AST Edit: 2 replacements in 2 files";
/** A usage error's last lines: the resolve verb's usage, and where the rest is. */
const USAGE = [
  'Usage: resolve-bot resolve apply|discard|undo "<reason>" [--cwd DIR] [--no-commit]',
  '  resolve-bot resolve apply --only PATH [--only PATH…] "<reason>"   apply those files, keep the rest pending',
  "Every command: resolve-bot --help",
].join("\n");
const RESOLVE_WITH = 'Resolve it with resolve-bot resolve apply "<reason>" or resolve-bot resolve discard "<reason>".';

describe("resolve-bot resolve apply --only", () => {
  test("commits the named file only; the rest is pending as (rest) and applies after; bad --only changes nothing (exit 1); options it does not take are usage errors (exit 2)", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src"]).code).toBe(0);
    const head = git(repo, "rev-parse", "HEAD").trim();

    expect(cli(repo, ["resolve", "apply", "--only", "src/nope.ts", "keep"])).toEqual({
      code: 1,
      out: "",
      err: `--only names src/nope.ts, which ${LABEL} does not change. Its files: src/a.ts, src/b.ts. Nothing was applied.\n`,
    });
    expect(cli(repo, ["resolve", "apply", "--only", "src/a.ts", "--only", "src/b.ts", "all"])).toEqual({
      code: 1,
      out: "",
      err: `--only names every file of ${LABEL} (src/a.ts, src/b.ts), so nothing would be left pending: apply it whole, without --only. Nothing was applied.\n`,
    });
    expect(cli(repo, ["resolve", "apply", "--force", "it"])).toEqual({
      code: 2,
      out: "",
      err: `resolve apply has no option --force (it takes --only PATH, --cwd DIR and --no-commit). To begin the reason with "--", put -- before it: resolve-bot resolve apply -- "--force …"\n${USAGE}\n`,
    });
    expect(cli(repo, ["resolve", "discard", "--only", "src/a.ts", "no"])).toEqual({
      code: 2,
      out: "",
      err: `--only goes with resolve apply alone: resolve-bot resolve apply --only PATH [--only PATH…] "<reason>"\n${USAGE}\n`,
    });
    expect(git(repo, "rev-parse", "HEAD").trim()).toBe(head);

    const part = cli(repo, ["resolve", "apply", "--only", "src/a.ts", "the logger first"]);
    const first = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    expect(part).toEqual({
      code: 0,
      err: "",
      out: [
        `Applied ${LABEL} to src/a.ts only. The rest (src/b.ts) is pending as ${LABEL} (rest).`,
        `Committed ${first}.`,
        `Pending: ${LABEL} (rest)`,
        "diff --git a/src/b.ts b/src/b.ts",
        "--- a/src/b.ts",
        "+++ b/src/b.ts",
        "@@ -1,3 +1,3 @@",
        ' import { greet } from "./a";',
        " ",
        '-console.log(greet("b"));',
        '+logger.debug(greet("b"));',
        "",
        `Pending: ${LABEL} (rest). ${RESOLVE_WITH}`,
        "",
      ].join("\n"),
    });
    expect(git(repo, "show", "--name-only", "--format=%s", "HEAD")).toBe(`${LABEL} (part: src/a.ts)\n\nsrc/a.ts\n`);
    expect(cli(repo, ["pending"]).out).toBe(
      `1 pending, newest first (the first is resolved next):\n1. ${LABEL} (rest) (#2, /ast-edit by Test User)\n\nPending: ${LABEL} (rest). ${RESOLVE_WITH}\n`,
    );

    const rest = cli(repo, ["resolve", "apply", "--", "--and the rest"]);
    const second = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    expect(rest).toEqual({ code: 0, err: "", out: `Applied the rest of ${LABEL} (src/b.ts).\nCommitted ${second}.\n` });
    expect(git(repo, "show", "--name-only", "--format=%B", "HEAD")).toMatch(
      new RegExp(`^${LABEL} \\(rest\\)\\n\\n--and the rest\\n\\nResolve-Action: [0-9a-f-]{36}\\n+src/b.ts\\n$`),
    );
    expect(treeAt(repo)).toEqual({
      "src/a.ts": 'export function greet(name: string) {\n  logger.debug("hi", name);\n}\n',
      "src/b.ts": 'import { greet } from "./a";\n\nlogger.debug(greet("b"));\n',
    });
    expect(cli(repo, ["pending"]).out).toBe("Nothing is pending.\n");
  });

  test("an undo splits by file too (paths read from the current directory): each part's commit keeps why the undo was asked for", () => {
    const repo = makeRepo(SOURCES);
    expect(cli(repo, ["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)' src"]).code).toBe(0);
    expect(cli(repo, ["resolve", "apply", "use the logger"]).code).toBe(0);
    const edit = git(repo, "rev-parse", "--short=7", "HEAD").trim();
    expect(cli(repo, ["resolve", "undo", "too early"]).code).toBe(0);
    const undo = `Undo: ${LABEL} (${edit})`;
    expect(cli(path.join(repo, "src"), ["resolve", "apply", "--only", "b.ts", "b first"]).out.split("\n")[0]).toBe(
      `Applied ${undo} to src/b.ts only. The rest (src/a.ts) is pending as ${undo} (rest).`,
    );
    expect(cli(repo, ["resolve", "apply", "then a"]).out.split("\n")[0]).toBe(`Applied the rest of ${undo} (src/a.ts).`);
    expect(git(repo, "log", "-2", "--format=%s%n%n%b--")).toMatch(
      new RegExp(
        `^Undo: AST Edit: 2 replacements in 2 files \\(${edit}\\) \\(rest\\)\n\nthen a\n\nUndo asked for: too early\n\nResolve-Action: [0-9a-f-]{36}\n--\n` +
          `Undo: AST Edit: 2 replacements in 2 files \\(${edit}\\) \\(part: src/b.ts\\)\n\nb first\n\nUndo asked for: too early\n\nResolve-Action: [0-9a-f-]{36}\n--\n$`,
      ),
    );
    expect(treeAt(repo)).toEqual(SOURCES);
  });
});
