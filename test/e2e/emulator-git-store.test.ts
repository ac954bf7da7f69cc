/**
 * The emulator's git store reads refs from the repository's files (loose, symbolic, packed) and
 * keeps what it learnt of objects: each answer must be git's own.
 */
import { execFileSync } from "node:child_process";
import { GitStore } from "./emulator/git-store.js";

let store: GitStore;
let gitDir: string;

function git(...args: string[]): string {
  return execFileSync("git", args, { env: { PATH: process.env.PATH ?? "", GIT_DIR: gitDir, HOME: gitDir } })
    .toString("utf8")
    .trim();
}

/** What `git rev-parse --verify --quiet` says of `ref` (undefined: no such ref). */
function revParse(ref: string): string | undefined {
  try {
    return git("rev-parse", "--verify", "--quiet", ref);
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  store = await GitStore.create();
  gitDir = store.repoDir("acme/refs");
  await store.init(gitDir, "main");
});

afterAll(() => store.dispose());

test("refs read from files equal git's answers: loose, packed, symbolic, missing, and names git is asked about", async () => {
  const identity = { name: "t", email: "t@example.com", date: "2026-01-01T00:00:00Z" };
  const first = await store.commitFiles(gitDir, { files: { "a.txt": "a\n" }, message: "first", author: identity });
  const second = await store.commitFiles(gitDir, { parent: first, files: { "b.txt": "b\n" }, message: "second", author: identity });
  await store.updateRef(gitDir, "refs/heads/main", first);
  await store.updateRef(gitDir, "refs/heads/packed", first);
  git("pack-refs", "--all");
  // A loose ref over a packed one wins, as in git.
  await store.updateRef(gitDir, "refs/heads/main", second);
  await store.updateRef(gitDir, "refs/pull/1/head", second);
  git("symbolic-ref", "refs/heads/alias", "refs/heads/main");
  const names = [
    "refs/heads/main",
    "refs/heads/packed",
    "refs/pull/1/head",
    "refs/heads/alias",
    "refs/heads/missing",
    "refs/heads", // a directory
    "refs/heads/../heads/main", // not a plain name: git is asked
    "HEAD",
    "main",
  ];
  for (const name of names) expect({ name, sha: await store.refSha(gitDir, name) }).toEqual({ name, sha: revParse(name) });
  expect(await store.resolve(gitDir, "main")).toBe(second);
  expect(await store.resolve(gitDir, "packed")).toBe(first);
  expect(await store.resolve(gitDir, "missing")).toBeUndefined();
  // A deleted ref is gone from the packed file too.
  await store.deleteRef(gitDir, "refs/heads/packed");
  expect(await store.refSha(gitDir, "refs/heads/packed")).toBeUndefined();
  expect(await store.objectType(gitDir, second)).toBe("commit");
  expect(await store.objectType(gitDir, "0".repeat(40))).toBeUndefined();
  expect(await store.commitsBetween(gitDir, first, second)).toBe(1);
  const commit = await store.readCommit(gitDir, second);
  commit.parents.push("changed by a caller");
  expect((await store.readCommit(gitDir, second)).parents).toEqual([first]);
});
