/**
 * A big repository through the real server: 40 copies of effect@3's src (14,521 files, 308 MB,
 * test/helpers/big-repos.ts) served by the emulator's git server. The bot fetches it once into its
 * repository cache; /ast-edit answers with the ast-grep CLI's replacement and file counts;
 * /resolve apply commits exactly the tree `ast-grep -U` makes of a checkout; a second command on
 * the same head fetches nothing. /rename-symbol and /move load a 2,179-file TypeScript project
 * (6 copies, one tsconfig) in a worker with an editor's memory (workers/limits.ts). Each command
 * says early that it is working on so many files, and its reply how long it took (pipeline/cost.ts).
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
const REPO = "acme/mono";
const PATTERN = "Effect.succeed($A)";
const REWRITE = "Effect.succeedNow($A)";
const AST_GREP = path.resolve("node_modules/.bin/ast-grep");
/** A command on 14,521 files on a loaded 2-core machine: minutes (the time limit below, and a margin). */
const COMMAND_TIMEOUT_MS = 8 * 60_000;

const TS_REPO = "acme/effects";

let big: BigRepo;
let project: BigRepo;
let bot: Bot;
let pr: { number: number; headSha: string };
let tsPr: { number: number; headSha: string };

beforeAll(
  async () => {
    big = await effectCopies(40);
    project = await effectCopies(6);
  },
  patient(15 * 60_000),
);

useBot(
  async (started) => {
    bot = started;
    await bot.gh.importRepo("acme", "mono", big.gitDir);
    await bot.gh.importRepo("acme", "effects", project.gitDir);
    bot.gh.setPermission(REPO, "alice", "write");
    bot.gh.setPermission(TS_REPO, "alice", "write");
    pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": "notes\n" } }] });
    tsPr = await bot.gh.createPullRequest({ repo: TS_REPO, head: "topic", user: "alice", commits: [{ files: { "NOTES.md": "notes\n" } }] });
    // The default time limit of a command (120 s) is the server's; this suite checks what the bot
    // answers, so a CPU hog must not turn a slow answer into "was stopped".
  },
  // Every command here runs long: each says so early (at once, so the test does not rest on a clock).
  { RESOLVE_BOT_TOOL_TIME_LIMIT_SECONDS: String(patient(120)), RESOLVE_BOT_STATUS_AFTER_SECONDS: "0" },
);

/** The bot's comments on the pull request as people read them (no hidden markers). */
function botComments(): string[] {
  return bot.gh
    .comments(REPO, pr.number)
    .filter((entry) => entry.user === bot.gh.botLogin)
    .map((entry) => withoutMarker(entry.body).replace(/\n\n<!-- resolve-bot:working:\S+ -->$/, ""));
}

/** A command as alice, waited for as long as a big repository takes. */
function command(body: string, repo = REPO, number = pr.number) {
  return comment(bot, repo, number, "alice", body, COMMAND_TIMEOUT_MS);
}

/** The head's files in a scratch directory, as a person would have them (a checkout plus the PR's file). */
async function headCheckout(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "big-repo-cli-"));
  await cp(big.checkout, dir, { recursive: true });
  await writeFile(path.join(dir, "NOTES.md"), "notes\n");
  return dir;
}

async function cliCounts(dir: string): Promise<{ replacements: number; files: number }> {
  const { stdout } = await run(AST_GREP, ["run", "-p", PATTERN, "-r", REWRITE, "-l", "ts", "--json=stream", "."], {
    cwd: dir,
    maxBuffer: 512 * 1024 * 1024,
  });
  const matches = stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { file: string });
  return { replacements: matches.length, files: new Set(matches.map((match) => match.file)).size };
}

/** The tree git makes of a directory: equal trees, equal files. */
async function treeOf(dir: string): Promise<string> {
  const env = { PATH: process.env.PATH ?? "", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };
  await run("git", ["init", "-q"], { cwd: dir, env });
  await run("git", ["add", "-A"], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
  return (await run("git", ["write-tree"], { cwd: dir, env })).stdout.trim();
}

test(
  "/ast-edit on 14,521 files answers with the CLI's counts; apply commits the CLI's -U tree; the apply fetches nothing",
  async () => {
    expect(big.files).toBe(14_521);
    const dir = await headCheckout();
    try {
      const cli = await cliCounts(dir);
      expect(cli.files).toBeGreaterThan(500);

      bot.gh.clearLog();
      // What the conversation showed just before the early status was edited: the status, then the reply.
      const shown = new Promise<string[]>((resolve) =>
        bot.gh.onceBefore("PATCH /repos/:o/:r/issues/comments/:id", () => resolve(botComments())),
      );
      const previewed = await command(`/ast-edit --lang ts --pat '${PATTERN}' --out '${REWRITE}'`);
      expect(previewed.done).toBe("rocket");
      expect(previewed.reply).toContain(`**AST Edit: ${cli.replacements} replacements in ${cli.files} files**`);
      const [status, reply] = await shown;
      expect(status).toBe("Working on `/ast-edit` (14,522 files)…");
      expect(reply).toBe(previewed.reply);
      expect(reply).toMatch(/\n\n<sub>Took (\d+ min )?[\d.]+ s\.<\/sub>$/);
      expect(botComments()).toEqual(["~~Working on `/ast-edit` (14,522 files)…~~ Finished: the reply is below.", reply]);
      // The first command on the head fetched it over git, and only over git.
      expect(bot.gh.gitRequests().filter((entry) => entry.method === "POST").length).toBeGreaterThan(0);
      expect(bot.gh.log().filter((entry) => entry.path.includes("/tarball/"))).toEqual([]);

      bot.gh.clearLog();
      const applied = await command("/resolve apply use succeedNow");
      expect({ done: applied.done, reply: applied.reply.slice(0, 500) }).toMatchObject({ done: "rocket" });
      expect(bot.gh.gitRequests()).toEqual([]);

      await run(AST_GREP, ["run", "-p", PATTERN, "-r", REWRITE, "-l", "ts", "-U", "."], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
      const head = await bot.gh.branchSha(REPO, "topic");
      const committed = await bot.gh.commit(REPO, head!);
      expect(committed.parents).toEqual([pr.headSha]);
      expect(committed.tree).toBe(await treeOf(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  3 * COMMAND_TIMEOUT_MS,
);

test(
  "a second command on the same head fetches nothing",
  async () => {
    const head = (await bot.gh.branchSha(REPO, "topic"))!;
    const first = await command("/ast-edit --lang ts --pat 'Option.none()' --out 'Option.none<never>()' --paths packages/p1");
    expect(first.done).toBe("rocket");
    bot.gh.clearLog();
    const second = await command("/ast-edit --lang ts --pat 'Option.none()' --out 'Option.none<never>()' --paths packages/p2");
    expect(second.done).toBe("rocket");
    expect(await bot.gh.branchSha(REPO, "topic")).toBe(head);
    expect(bot.gh.gitRequests()).toEqual([]);
    expect(bot.gh.log().filter((entry) => entry.path.includes("/tarball/"))).toEqual([]);
  },
  3 * COMMAND_TIMEOUT_MS,
);

test(
  "/rename-symbol and /move on a 2,179-file TypeScript project (6 × effect src, one tsconfig) succeed",
  async () => {
    expect(project.files).toBe(2179);
    const renamed = await command("/rename-symbol dual dualFn --file packages/p1/src/Function.ts", TS_REPO, tsPr.number);
    expect(renamed.done).toBe("rocket");
    expect(renamed.reply).toMatch(/^\*\*Rename Symbol: .*\*\* — pending #1, nothing written yet/);
    const moved = await command("/move packages/p1/src/Function.ts packages/p1/src/Fn.ts", TS_REPO, tsPr.number);
    expect(moved.done).toBe("rocket");
    expect(moved.reply).toMatch(/^\*\*Move: .*\*\* — pending #2, nothing written yet/);
    expect(await bot.gh.branchSha(TS_REPO, "topic")).toBe(tsPr.headSha);
  },
  3 * COMMAND_TIMEOUT_MS,
);
