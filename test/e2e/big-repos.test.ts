/**
 * Big repositories through the real server: 40 and 100 copies of effect@3's src (14,521 files /
 * 308 MB and 36,301 files / 770 MB, test/helpers/big-repos.ts) served by the emulator's git server.
 * The bot fetches each once into its repository cache; /ast-edit answers with the ast-grep CLI's
 * replacement and file counts; /resolve apply commits exactly the tree `ast-grep -U` makes of a
 * checkout; a second command on the same head fetches nothing. /rename-symbol and /move load a
 * 2,179-file TypeScript project (6 copies, one tsconfig) in a worker with an editor's memory
 * (workers/limits.ts). Each command says early that it is working on so many files, and its reply
 * how long it took (pipeline/cost.ts).
 *
 * The CLI runs once, on the 100-copy checkout: the 40-copy repository's files are the same blobs
 * under the same paths (asserted below from git's own tree ids), and the CLI rewrites each file on
 * its own, so its answer for 40 copies is its answer for 100 restricted to `packages/p0`…`p39`.
 * That saves two CLI runs over 14,521 files (about 40 s of CI on two cores).
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { effectCopies, type BigRepo } from "../helpers/big-repos.js";
import { comment, useBot, withoutMarker, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const run = promisify(execFile);
const PATTERN = "Effect.succeed($A)";
const REWRITE = "Effect.succeedNow($A)";
const AST_GREP = path.resolve("node_modules/.bin/ast-grep");
/** A command on 36,301 files on a loaded 2-core machine: minutes (the time limit below, and a margin). */
const COMMAND_TIMEOUT_MS = 8 * 60_000;
const NOTES = "notes\n";

/** The repositories of the suite, by the number of effect copies in each. */
const SIZES = [
  { copies: 40, repo: "acme/mono", files: 14_521 },
  { copies: 100, repo: "acme/huge", files: 36_301 },
] as const;
const TS_REPO = "acme/effects";

let repos: Map<number, BigRepo>;
let project: BigRepo;
let bot: Bot;
const prs = new Map<string, { number: number; headSha: string }>();
/** What the CLI does to the biggest head: its matches, and the objects of the tree `-U` makes. */
let cli: { matches: Array<{ file: string }>; gitDir: string; tree: string };
let scratch: string;

function git(gitDir: string, args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, GIT_CONFIG_NOSYSTEM: "1", GIT_DIR: gitDir, ...opts.env };
  return new Promise((resolve, reject) => {
    const child = execFile("git", args, { env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error as Error) : resolve(stdout.trim()),
    );
    // git may exit before reading its input (ls-tree never reads it): that is not a failure.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(opts.input ?? "");
  });
}

beforeAll(
  async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "big-repo-cli-"));
    repos = new Map();
    for (const { copies } of SIZES) repos.set(copies, await effectCopies(copies));
    project = await effectCopies(6);
    const biggest = repos.get(100)!;
    // The head as a person would have it (a checkout plus the pull request's file), then the CLI on it.
    const dir = path.join(scratch, "checkout");
    await cp(biggest.checkout, dir, { recursive: true });
    await writeFile(path.join(dir, "NOTES.md"), NOTES);
    const { stdout } = await run(AST_GREP, ["run", "-p", PATTERN, "-r", REWRITE, "-l", "ts", "--json=stream", "."], {
      cwd: dir,
      maxBuffer: 1024 * 1024 * 1024,
    });
    const matches = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => ({ file: (JSON.parse(line) as { file: string }).file }));
    await run(AST_GREP, ["run", "-p", PATTERN, "-r", REWRITE, "-l", "ts", "-U", "."], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
    // The tree git makes of the rewritten checkout, in a scratch repository that borrows the big
    // repository's objects (only the rewritten files are new objects, and nothing is written there).
    const gitDir = path.join(scratch, "cli.git");
    await run("git", ["init", "-q", "--bare", gitDir]);
    await writeFile(path.join(gitDir, "objects", "info", "alternates"), `${path.join(biggest.gitDir, "objects")}\n`);
    const env = { GIT_WORK_TREE: dir, GIT_INDEX_FILE: path.join(scratch, "cli.index") };
    await git(gitDir, ["add", "-A"], { env });
    const tree = await git(gitDir, ["write-tree"], { env });
    await rm(dir, { recursive: true, force: true });
    cli = { matches, gitDir, tree };
  },
  patient(20 * 60_000),
);

afterAll(() => rm(scratch, { recursive: true, force: true }));

useBot(
  async (started) => {
    bot = started;
    for (const { copies, repo } of SIZES) {
      const [owner, name] = repo.split("/") as [string, string];
      await bot.gh.importRepo(owner, name, repos.get(copies)!.gitDir);
    }
    await bot.gh.importRepo("acme", "effects", project.gitDir);
    for (const repo of [...SIZES.map((size) => size.repo), TS_REPO]) {
      bot.gh.setPermission(repo, "alice", "write");
      prs.set(repo, await bot.gh.createPullRequest({ repo, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": NOTES } }] }));
    }
    // The default time limit of a command (120 s) is the server's; this suite checks what the bot
    // answers, so a CPU hog must not turn a slow answer into "was stopped".
  },
  // Every command here runs long: each says so early (at once, so the test does not rest on a clock).
  { RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: String(patient(120)), RESOLVE_BOT_STATUS_AFTER_SECONDS: "0" },
);

/** The bot's comments on a pull request as people read them (no hidden markers). */
function botComments(repo: string): string[] {
  return bot.gh
    .comments(repo, prs.get(repo)!.number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => withoutMarker(entry.body).replace(/\n\n<!-- resolve-bot:working:\S+ -->$/, ""));
}

/** A command as alice, waited for as long as a big repository takes. */
function command(repo: string, body: string) {
  return comment(bot, repo, prs.get(repo)!.number, "alice", body, COMMAND_TIMEOUT_MS);
}

/** The copy a path of the CLI's checkout belongs to (`packages/p<N>/…`), or undefined. */
function copyOf(file: string): number | undefined {
  const match = /^packages\/p(\d+)\//.exec(file);
  return match ? Number(match[1]) : undefined;
}

/** The CLI's replacement and file counts on the first `copies` copies. */
function cliCounts(copies: number): { replacements: number; files: number } {
  const matches = cli.matches.filter((match) => (copyOf(match.file) ?? Infinity) < copies);
  return { replacements: matches.length, files: new Set(matches.map((match) => match.file)).size };
}

/** `tree`'s entries whose name passes `keep`, as a new tree (git's mktree) in the CLI's scratch repository. */
async function treeWith(tree: string, keep: (name: string) => boolean, replace: Record<string, string> = {}): Promise<string> {
  const entries = (await git(cli.gitDir, ["ls-tree", tree])).split("\n").filter((line) => keep(line.slice(line.indexOf("\t") + 1)));
  const rewritten = entries.map((line) => {
    const name = line.slice(line.indexOf("\t") + 1);
    return name in replace ? line.replace(/ tree [0-9a-f]+\t/, ` tree ${replace[name]}\t`) : line;
  });
  return git(cli.gitDir, ["mktree"], { input: `${rewritten.join("\n")}\n` });
}

/** The tree `ast-grep -U` makes of the head with the first `copies` copies. */
async function cliTree(copies: number): Promise<string> {
  if (copies === 100) return cli.tree;
  const packages = await treeWith(`${cli.tree}:packages`, (name) => (copyOf(`packages/${name}/`) ?? Infinity) < copies);
  return treeWith(cli.tree, () => true, { packages });
}

test("the 40-copy repository's files are the 100-copy one's first 40 copies (so the CLI's answer carries over)", async () => {
  const entries = async (copies: number, tree: string) => {
    const repo = repos.get(copies)!;
    return (await git(repo.gitDir, ["ls-tree", `${repo.sha}:${tree}`])).split("\n");
  };
  const besidePackages = (lines: string[]) => lines.filter((line) => !line.endsWith("\tpackages"));
  expect(besidePackages(await entries(40, ""))).toEqual(besidePackages(await entries(100, "")));
  const firstForty = (await entries(100, "packages")).filter((line) => (copyOf(`packages/${line.split("\t")[1]}/`) ?? Infinity) < 40);
  expect(firstForty).toHaveLength(40);
  expect(await entries(40, "packages")).toEqual(firstForty);
});

describe.each(SIZES)("/ast-edit on $files files", ({ copies, repo, files }) => {
  test(
    "answers with the CLI's counts; apply commits the CLI's -U tree; the apply fetches nothing",
    async () => {
      expect(repos.get(copies)!.files).toBe(files);
      const expected = cliCounts(copies);
      expect(expected.files).toBeGreaterThan(copies * 10);
      const pr = prs.get(repo)!;
      const headFiles = (files + 1).toLocaleString("en-US");

      bot.gh.clearLog();
      // What the conversation showed just before the early status was edited: the status, then the reply.
      const shown = new Promise<string[]>((resolve) =>
        bot.gh.onceBefore("PATCH /repos/:o/:r/issues/comments/:id", () => resolve(botComments(repo))),
      );
      const previewed = await command(repo, `/ast-edit --lang ts --pat '${PATTERN}' --out '${REWRITE}'`);
      expect(previewed.done).toBe("rocket");
      expect(previewed.reply).toContain(`**AST Edit: ${expected.replacements} replacements in ${expected.files} files**`);
      const [status, reply] = await shown;
      expect(status).toBe(`Working on \`/ast-edit\` (${headFiles} files)…`);
      expect(reply).toBe(previewed.reply);
      expect(reply).toMatch(/\n\n<sub>Took (\d+ min )?[\d.]+ s\.<\/sub>$/);
      expect(botComments(repo)).toEqual([`~~Working on \`/ast-edit\` (${headFiles} files)…~~ Finished: the reply is below.`, reply]);
      // The first command on the head fetched it over git, and only over git.
      expect(bot.gh.gitRequests().filter((entry) => entry.method === "POST").length).toBeGreaterThan(0);
      expect(bot.gh.log().filter((entry) => entry.path.includes("/tarball/"))).toEqual([]);

      bot.gh.clearLog();
      const applied = await command(repo, "/resolve apply use succeedNow");
      expect({ done: applied.done, reply: applied.reply.slice(0, 500) }).toMatchObject({ done: "rocket" });
      expect(bot.gh.gitRequests()).toEqual([]);

      const head = await bot.gh.branchSha(repo, "topic");
      const committed = await bot.gh.commit(repo, head!);
      expect(committed.parents).toEqual([pr.headSha]);
      expect(committed.tree).toBe(await cliTree(copies));
    },
    3 * COMMAND_TIMEOUT_MS,
  );
});

test(
  "a second command on the same head fetches nothing",
  async () => {
    const repo = SIZES[0].repo;
    const head = (await bot.gh.branchSha(repo, "topic"))!;
    const first = await command(repo, "/ast-edit --lang ts --pat 'Option.none()' --out 'Option.none<never>()' --paths packages/p1");
    expect(first.done).toBe("rocket");
    bot.gh.clearLog();
    const second = await command(repo, "/ast-edit --lang ts --pat 'Option.none()' --out 'Option.none<never>()' --paths packages/p2");
    expect(second.done).toBe("rocket");
    expect(await bot.gh.branchSha(repo, "topic")).toBe(head);
    expect(bot.gh.gitRequests()).toEqual([]);
    expect(bot.gh.log().filter((entry) => entry.path.includes("/tarball/"))).toEqual([]);
  },
  3 * COMMAND_TIMEOUT_MS,
);

test(
  "/rename-symbol and /move on a 2,179-file TypeScript project (6 × effect src, one tsconfig) succeed",
  async () => {
    expect(project.files).toBe(2179);
    const renamed = await command(TS_REPO, "/rename-symbol dual dualFn --file packages/p1/src/Function.ts");
    expect(renamed.done).toBe("rocket");
    expect(renamed.reply).toMatch(/^\*\*Rename Symbol: .*\*\* — pending, nothing written yet/);
    const moved = await command(TS_REPO, "/move packages/p1/src/Function.ts packages/p1/src/Fn.ts");
    expect(moved.done).toBe("rocket");
    expect(moved.reply).toMatch(/^\*\*Move: .*\*\* — pending \(1 of 2, newest first\), nothing written yet/);
    expect(await bot.gh.branchSha(TS_REPO, "topic")).toBe(prs.get(TS_REPO)!.headSha);
  },
  3 * COMMAND_TIMEOUT_MS,
);
