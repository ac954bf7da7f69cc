/**
 * The release, rehearsed as far as this machine allows (.github/workflows/release.yml runs the same
 * script with --push on GitHub): scripts/release-action.sh in a clone of this checkout makes the
 * release commit — this commit plus dist/action, the bundle `npm run build` made for the suite (built
 * once, shared) — tags it vX.Y.Z and moves vX there; the Action then runs from that commit's tree
 * (`uses: <owner>/resolve-bot@v1` checks out exactly it); and `npm pack --dry-run` lists what npm
 * publish would ship.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commentAndRun, startActionRunner, type ActionRunner } from "../e2e/action-harness.js";
import { git } from "../helpers/git-repo.js";
import { patient } from "../helpers/patience.js";

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const TAG = `v${VERSION}`;
const MAJOR = `v${VERSION.split(".")[0]}`;
const SCRIPT = "scripts/release-action.sh";

let work: string;
let clone: string;
let tree: string;

function release(...args: string[]) {
  return spawnSync("bash", [SCRIPT, ...args], {
    cwd: clone,
    encoding: "utf8",
    env: { ...process.env, GIT_COMMITTER_NAME: "Release", GIT_COMMITTER_EMAIL: "release@example.com" },
  });
}

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-release-"));
  clone = path.join(work, "clone");
  tree = path.join(work, "tree");
  git(process.cwd(), "clone", "--quiet", "--shared", "--no-checkout", process.cwd(), clone);
  git(clone, "checkout", "--quiet", "--detach", git(process.cwd(), "rev-parse", "HEAD").trim());
  cpSync("dist/action", path.join(clone, "dist/action"), { recursive: true });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("refuses what is not the package's version as vX.Y.Z", () => {
  expect(release("--no-build", MAJOR)).toMatchObject({ status: 1, stderr: `not a release tag (vX.Y.Z): ${MAJOR}\n` });
  const other = `v${VERSION.split(".")[0]}.99.0`;
  expect(release("--no-build", other)).toMatchObject({
    status: 1,
    stderr: `package.json says ${VERSION}, the tag ${other}: bump the version first\n`,
  });
});

test("the release commit: this commit plus dist/action, tagged vX.Y.Z, with vX moved onto it", () => {
  const head = git(clone, "rev-parse", "HEAD").trim();
  const made = release("--no-build", TAG);
  expect([made.status, made.stderr]).toEqual([0, ""]);
  const commit = git(clone, "rev-parse", `${TAG}^{commit}`).trim();
  expect(made.stdout).toMatch(new RegExp(`^tagged ${TAG} and ${MAJOR} at ${commit} \\(dist/action: .+\\)\\n$`));
  expect(git(clone, "rev-parse", `${MAJOR}^{commit}`).trim()).toBe(commit);
  expect(git(clone, "rev-parse", `${commit}^`).trim()).toBe(head);
  // Only dist/action added; the branch is left as it was.
  expect(
    git(clone, "diff", "--name-only", head, commit)
      .split("\n")
      .filter(Boolean)
      .every((file) => file.startsWith("dist/action/")),
  ).toBe(true);
  expect(git(clone, "rev-parse", "HEAD").trim()).toBe(head);
  const files = git(clone, "ls-tree", "-r", "--name-only", commit).split("\n");
  expect(files).toEqual(
    expect.arrayContaining([
      "action.yml",
      "dist/action/index.js",
      "dist/action/package.json",
      "dist/action/node_modules/@ast-grep/napi/index.js",
      "dist/action/node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep",
    ]),
  );
  // Made again (a published release, then its tag's push): both tags move, nothing fails.
  expect(release("--no-build", TAG).status).toBe(0);
  // The tree a runner checks out for `uses: <owner>/resolve-bot@v1`, executable bits included.
  spawnSync("mkdir", ["-p", tree]);
  const archive = spawnSync("sh", ["-c", `git -C "${clone}" archive ${MAJOR} | tar -x -C "${tree}"`], { encoding: "utf8" });
  expect([archive.status, archive.stderr]).toEqual([0, ""]);
});

describe("the Action from the release tree", () => {
  let runner: ActionRunner & { stop(): Promise<void> };
  beforeAll(async () => {
    runner = await startActionRunner(path.join(tree, "dist/action/index.js"));
    await runner.gh.createRepo("acme", "released", { "src/a.ts": 'console.log("a");\n' });
    runner.gh.setPermission("acme/released", "alice", "write");
  }, patient(60_000));
  afterAll(async () => runner?.stop());

  test(
    "previews, then applies one commit",
    async () => {
      const pr = await runner.gh.createPullRequest({
        repo: "acme/released",
        head: "topic",
        user: "alice",
        commits: [{ files: { "docs/x.md": "x\n" } }],
      });
      const previewed = await commentAndRun(
        runner,
        "acme/released",
        pr.number,
        "alice",
        "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'",
      );
      expect([previewed.code, previewed.reactions]).toEqual([0, ["eyes", "rocket"]]);
      expect(previewed.reply).toContain("**AST Edit: 1 replacement in 1 file** — pending, nothing written yet");
      const applied = await commentAndRun(runner, "acme/released", pr.number, "alice", "/resolve apply released");
      expect(applied.code).toBe(0);
      expect(applied.reply).toMatch(/^Applied 1 replacement in 1 file\./);
      const head = (await runner.gh.branchSha("acme/released", "topic"))!;
      expect((await runner.gh.filesAt("acme/released", head))["src/a.ts"]).toBe('logger.info("a");\n');
      expect(runner.gh.validateLog()).toEqual([]);
    },
    patient(120_000),
  );
});

test(
  "the Action's whole e2e suite passes against the release tree's dist/action",
  () => {
    // The same tests as test/e2e/action.test.ts, run by the bundle a runner checks out for `@v1`.
    const suite = spawnSync(
      process.execPath,
      ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", "--runInBand", "test/e2e/action.test.ts"],
      { encoding: "utf8", env: { ...process.env, RESOLVE_BOT_ACTION_ENTRY: path.join(tree, "dist/action/index.js") } },
    );
    expect([suite.status, /^Tests:.*$/m.exec(suite.stderr)?.[0]]).toEqual([0, expect.stringMatching(/^Tests: +\d+ passed, \d+ total$/)]);
  },
  patient(600_000),
);

test("npm pack --dry-run: the CLI, the server, the types for custom tools; not the Action's bundle", () => {
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { encoding: "utf8" });
  expect(packed.status).toBe(0);
  const [info] = JSON.parse(packed.stdout) as [{ name: string; version: string; files: { path: string }[] }];
  expect([info.name, info.version]).toEqual(["resolve-bot", VERSION]);
  const files = info.files.map((file) => file.path);
  const bin = (JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> }).bin["resolve-bot"]!;
  expect(files).toEqual(expect.arrayContaining(["package.json", "app.yml", bin, "dist/src/api.js", "dist/src/api.d.ts"]));
  expect(files.filter((file) => file.startsWith("dist/action/"))).toEqual([]);
});
