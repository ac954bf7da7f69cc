/**
 * The repository cache against the GitHub emulator's git server (git http-backend over HTTP,
 * installation tokens): what is fetched, when, and what eviction removes.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GitCache, type GitRemote } from "../../src/workspace/git-cache.js";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";
import { GitHubEmulator } from "../e2e/emulator/index.js";

const REPO = "acme/widgets";
const LIMITS = { maxFiles: 1000, maxFileBytes: 1024 * 1024, maxTotalBytes: 100 * 1024 * 1024 };

let gh: GitHubEmulator;
let root: string;

/** 200 files of 1 KB of randomness (as hex): a pack of all of them is over 200 KB. */
function incompressibleFiles(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`src/f${index}.ts`, `// ${randomBytes(1024).toString("hex")}\n`]));
}

function remote(fullName: string, token = gh.auth.issueToken(gh.installationId).token): GitRemote {
  const [owner, name] = fullName.split("/") as [string, string];
  return {
    url: gh.gitUrl(fullName),
    location: [gh.host, owner, name],
    authorization: async () => `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`,
  };
}

function uploadPacks() {
  return gh.gitRequests().filter((entry) => entry.method === "POST");
}

beforeAll(async () => {
  gh = await GitHubEmulator.start();
  await gh.createRepo("acme", "widgets", incompressibleFiles());
  await gh.createRepo("acme", "gadgets", incompressibleFiles());
});

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "git-cache-"));
  gh.clearLog();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

afterAll(async () => {
  await gh.stop();
});

test("a commit is fetched once; asking again fetches nothing; a push fetches only the new objects", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const first = (await gh.branchSha(REPO, "main"))!;
  const fetched = await cache.commit(remote(REPO), first);
  expect(fetched).toEqual({ gitDir: path.join(root, "repos", gh.host, "acme", "widgets.git"), sha: first, fetched: true });
  expect(uploadPacks()).toHaveLength(1);
  const fullPack = uploadPacks()[0]!.git!.responseBytes;
  expect(fullPack).toBeGreaterThan(200 * 1000);
  const workspace = new GitWorkspace(fetched.gitDir, first, LIMITS);
  expect(await workspace.list()).toHaveLength(200);

  gh.clearLog();
  expect(await cache.commit(remote(REPO), first)).toEqual({ ...fetched, fetched: false });
  expect(gh.gitRequests()).toEqual([]);

  const pushed = await gh.pushCommit(REPO, "main", { files: { "src/f0.ts": "export const changed = true;\n" } });
  const again = await cache.commit(remote(REPO), pushed);
  expect(again).toEqual({ ...fetched, sha: pushed, fetched: true });
  expect(uploadPacks()).toHaveLength(1);
  expect(uploadPacks()[0]!.git!.responseBytes).toBeLessThan(fullPack / 20);
  expect(await new GitWorkspace(again.gitDir, pushed, LIMITS).readText("src/f0.ts")).toBe("export const changed = true;\n");
  expect((await new GitWorkspace(again.gitDir, pushed, LIMITS).readText("src/f1.ts")).length).toBe(2052);
});

test("a branch is fetched by name every time (it may have moved)", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const main = await cache.commit(remote(REPO), "main");
  expect(main.sha).toBe(await gh.branchSha(REPO, "main"));
  gh.clearLog();
  expect((await cache.commit(remote(REPO), "main")).fetched).toBe(true);
  expect(uploadPacks().length).toBeGreaterThan(0);
  await expect(cache.commit(remote(REPO), "--upload-pack=touch /tmp/x")).rejects.toThrow("not a branch name");
  await expect(cache.commit(remote(REPO), "a:b")).rejects.toThrow("not a branch name");
});

test("several fetches of one commit at once: one fetch, the others wait for it and fetch nothing", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const sha = (await gh.branchSha(REPO, "main"))!;
  const results = await Promise.all([1, 2, 3].map(() => new GitCache(cache.options).commit(remote(REPO), sha)));
  expect(results.filter((result) => result.fetched)).toHaveLength(1);
  expect(uploadPacks()).toHaveLength(1);
});

test("a token the server did not issue fetches nothing", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const sha = (await gh.branchSha(REPO, "main"))!;
  await expect(cache.commit(remote(REPO, "ghs_forged"), sha)).rejects.toThrow(/git fetch failed/);
  expect(gh.gitRequests().map((entry) => entry.status)).toEqual([401]);
});

test("over its budget, the least recently used repository not in use is evicted", async () => {
  const widgets = (await gh.branchSha(REPO, "main"))!;
  const gadgets = (await gh.branchSha("acme/gadgets", "main"))!;
  // Room for one repository: each is over 200 KB.
  const cache = new GitCache({ root, budgetBytes: 300 * 1024, inUseMs: 0 });
  const first = await cache.commit(remote(REPO), widgets);
  const second = await cache.commit(remote("acme/gadgets"), gadgets);
  await cache.idle(); // eviction runs after the fetch, off the command's way
  expect(existsSync(first.gitDir)).toBe(false);
  expect(existsSync(second.gitDir)).toBe(true);
  expect((await cache.usage()).map((repo) => repo.gitDir)).toEqual([second.gitDir]);
  // In use (used within inUseMs): kept, over budget.
  const busy = new GitCache({ root, budgetBytes: 300 * 1024, inUseMs: 60_000 });
  const back = await busy.commit(remote(REPO), widgets);
  await busy.idle();
  expect(back.fetched).toBe(true);
  expect(existsSync(back.gitDir) && existsSync(second.gitDir)).toBe(true);
});

test("checkouts for runs: below the cache, only while they fit the budget beside the repositories and the other checkouts; a crash's leftovers swept", async () => {
  const widgets = (await gh.branchSha(REPO, "main"))!;
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  await cache.commit(remote(REPO), widgets);
  const repositories = (await cache.usage()).reduce((sum, repo) => sum + repo.bytes, 0);
  const room = 1024 * 1024 * 1024 - repositories;
  const dir = cache.checkouts.directory();
  expect(path.dirname(dir)).toBe(path.join(root, "checkouts"));
  expect(cache.checkouts.directory()).not.toBe(dir);
  expect(await cache.checkouts.reserve(cache.checkouts.directory(), room + 1)).toBeUndefined();
  const all = await cache.checkouts.reserve(dir, room);
  expect(all).toBeDefined();
  // While it is held, not a byte more; once released, the room is there again.
  expect(await cache.checkouts.reserve(cache.checkouts.directory(), 1)).toBeUndefined();
  await all!.release();
  expect(await cache.reservedBytes()).toBe(0);
  const again = await cache.checkouts.reserve(cache.checkouts.directory(), room);
  expect(again).toBeDefined();
  await again!.release();
  // One left by a killed run (its directory and its reservation), one of a run still going: the
  // next eviction sweeps only what is older than inUseMs, and the swept reservation no longer counts.
  const left = cache.checkouts.directory();
  const running = cache.checkouts.directory();
  await cache.checkouts.reserve(left, 1000);
  await cache.checkouts.reserve(running, 24);
  mkdirSync(left, { recursive: true });
  mkdirSync(running, { recursive: true });
  const old = new Date(Date.now() - 120_000);
  utimesSync(left, old, old);
  utimesSync(`${left}.reserved`, old, old);
  expect(await cache.reservedBytes()).toBe(1024);
  await cache.evict("");
  expect([existsSync(left), existsSync(running)]).toEqual([false, true]);
  expect(await cache.reservedBytes()).toBe(24);
});

test("two checkouts that each fit alone but not together, asked for at once by two processes sharing the cache: one is made, the other refused", async () => {
  const widgets = (await gh.branchSha(REPO, "main"))!;
  const fetching = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const { gitDir } = await fetching.commit(remote(REPO), widgets);
  const repositories = (await fetching.usage()).reduce((sum, repo) => sum + repo.bytes, 0);
  const sizing = new GitWorkspace(gitDir, widgets, LIMITS);
  await sizing.list();
  const checkout = sizing.totalBytes;
  // Room for one checkout and a half; each process has a cache object of its own: they share only the disk.
  const budgetBytes = repositories + Math.floor(checkout * 1.5);
  const [first, second] = [1, 2].map(() => new GitCache({ root, budgetBytes, inUseMs: 60_000 }));
  const disks = [first!, second!].map((cache) => new GitWorkspace(gitDir, widgets, LIMITS, cache.checkouts).onDisk()!);
  const opened = await Promise.allSettled(disks.map((disk) => disk.open!()));
  const made = opened.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const refused = opened.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
  expect(made).toHaveLength(1);
  expect(refused).toEqual(["Error: a checkout would not fit within the cache's disk budget"]);
  const kept = disks[opened.findIndex((result) => result.status === "fulfilled")]!;
  expect(existsSync(path.join(kept.root, "src/f0.ts"))).toBe(true);
  expect(await first!.reservedBytes()).toBe(checkout);
  // The run ends: its checkout and its reservation are gone, and the next run gets one.
  await made[0]!.release();
  expect(existsSync(kept.root)).toBe(false);
  expect(await second!.reservedBytes()).toBe(0);
  const next = new GitWorkspace(gitDir, widgets, LIMITS, second!.checkouts).onDisk()!;
  const lease = await next.open!();
  await lease.release();
  expect(readdirSync(path.join(root, "checkouts"))).toEqual([]);
});

test("a checkout that fails to be written gives its reservation back", async () => {
  const widgets = (await gh.branchSha(REPO, "main"))!;
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const { gitDir } = await cache.commit(remote(REPO), widgets);
  // A commit whose tree names a blob the repository lacks: git's checkout-index fails mid-way.
  const broken = new GitWorkspace(gitDir, widgets, LIMITS, cache.checkouts);
  await broken.list();
  const disk = broken.onDisk()!;
  rmSync(path.join(gitDir, "objects", "pack"), { recursive: true, force: true });
  await expect(disk.open!()).rejects.toThrow();
  expect(existsSync(disk.root)).toBe(false);
  expect(await cache.reservedBytes()).toBe(0);
  expect(readdirSync(path.join(root, "checkouts"))).toEqual([]);
});

test("eviction counts the checkouts of running runs: a repository not in use goes to make room for them", async () => {
  const widgets = (await gh.branchSha(REPO, "main"))!;
  const first = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const unused = await first.commit(remote(REPO), widgets);
  const old = new Date(Date.now() - 120_000);
  utimesSync(path.join(unused.gitDir, "resolve-bot-used"), old, old);
  const repositories = (await first.usage()).reduce((sum, repo) => sum + repo.bytes, 0);
  // Room for three repositories of its size (the other is about as large): with a checkout of two
  // running, another fetch makes room by evicting it (not used for a while); without one it stays.
  const cache = new GitCache({ root, budgetBytes: repositories * 3, inUseMs: 60_000 });
  const reservation = await cache.checkouts.reserve(cache.checkouts.directory(), repositories * 2);
  expect(reservation).toBeDefined();
  const gadgets = await cache.commit(remote("acme/gadgets"), (await gh.branchSha("acme/gadgets", "main"))!);
  await cache.idle();
  expect([existsSync(unused.gitDir), existsSync(gadgets.gitDir)]).toEqual([false, true]);
  await reservation!.release();
});

test("a pull request's head is fetched by its ref while the cache does not hold the repository; then by SHA, and a head already here fetches nothing", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const pr = await gh.createPullRequest({ repo: REPO, head: "warm-topic", user: "alice", commits: [{ files: { "NOTES.md": "n\n" } }] });
  const warmed = await cache.warm(remote(REPO), pr.number);
  expect(warmed).toEqual({ gitDir: path.join(root, "repos", gh.host, "acme", "widgets.git"), sha: pr.headSha, fetched: true });
  expect(uploadPacks().length).toBeGreaterThan(0);
  gh.clearLog();
  // The head is here: asking for it by SHA fetches nothing; warming a repository the cache holds neither.
  expect(await cache.commit(remote(REPO), pr.headSha)).toMatchObject({ sha: pr.headSha, fetched: false });
  expect(await cache.warm(remote(REPO), pr.number)).toBeUndefined();
  expect(gh.gitRequests()).toEqual([]);
  await expect(cache.warm(remote(REPO), 0)).rejects.toThrow("not a pull request number: 0");
});

test("a warm that fails leaves the command's own fetch to say why: the repository is fetched by SHA as before", async () => {
  const cache = new GitCache({ root, budgetBytes: 1024 * 1024 * 1024, inUseMs: 60_000 });
  const head = (await gh.branchSha(REPO, "main"))!;
  await expect(cache.warm(remote(REPO), 999)).rejects.toThrow(/git fetch failed/);
  expect(await cache.commit(remote(REPO), head)).toMatchObject({ sha: head, fetched: true });
});
