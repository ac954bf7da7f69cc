/**
 * Real bare git repositories on disk, driven through the git CLI (execFile, never a shell).
 * Everything the emulator knows about files, trees, commits and branches lives here.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export const ZERO_SHA = "0000000000000000000000000000000000000000";
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export type FileContent = string | Buffer;
/** A file map: path → content; `null` deletes the path (when applied on top of a parent). */
export type FileMap = Record<string, FileContent | null>;

export interface GitIdentity {
  name: string;
  email: string;
  /** ISO 8601; defaults to now. */
  date?: string;
}

export interface TreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  path: string;
  /** Blobs only. */
  size?: number;
}

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: Required<GitIdentity>;
  committer: Required<GitIdentity>;
  message: string;
}

/** One change for {@link GitStore.buildTree}, in GitHub's create-tree terms. */
export type TreeOp =
  | { path: string; mode: string; type: "blob" | "commit"; sha: string }
  | { path: string; mode: "040000"; type: "tree"; sha: string }
  | { path: string; delete: true };

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | string | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (${code}): ${stderr.trim()}`);
  }
}

interface RunOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for merge-base --is-ancestor). */
  okCodes?: number[];
}

function formatGitDate(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`invalid date: ${iso}`);
  return `${Math.floor(ms / 1000)} +0000`;
}

function parseIdentity(line: string): Required<GitIdentity> {
  const m = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line);
  if (!m) throw new Error(`cannot parse identity: ${line}`);
  return { name: m[1]!, email: m[2]!, date: new Date(Number(m[3]) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z") };
}

export function isSha(s: string): boolean {
  return /^[0-9a-f]{40}$/.test(s);
}

/** A ref name read straight from the repository's files: `refs/` and plain components only (anything else asks git). */
const PLAIN_REF = /^refs\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export class GitStore {
  private readonly locks = new Map<string, Promise<unknown>>();
  /**
   * What is known of objects, which never change: types, parsed commits and commit counts by
   * repository and SHAs. Reads of refs and objects are most of the emulator's requests, and a git process per
   * read was most of its CPU, taken from the bot under test on the same cores.
   */
  private readonly types = new Map<string, string>();
  private readonly commits = new Map<string, CommitInfo>();
  private readonly counts = new Map<string, number>();

  private constructor(readonly root: string) {}

  static async create(): Promise<GitStore> {
    return new GitStore(await mkdtemp(path.join(tmpdir(), "gh-emulator-")));
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }

  repoDir(fullName: string): string {
    return path.join(this.root, "repos", `${fullName}.git`);
  }

  /** Run git in a bare repository; resolves with stdout and the exit code. */
  run(gitDir: string, args: string[], opts: RunOptions = {}): Promise<{ stdout: Buffer; code: number }> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        "git",
        args,
        {
          cwd: this.root,
          encoding: "buffer",
          maxBuffer: 512 * 1024 * 1024,
          env: {
            PATH: process.env.PATH ?? "/usr/bin:/bin",
            HOME: this.root,
            GIT_DIR: gitDir,
            GIT_CONFIG_NOSYSTEM: "1",
            GIT_TERMINAL_PROMPT: "0",
            LC_ALL: "C",
            ...opts.env,
          },
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
          if (error && !(opts.okCodes ?? []).includes(code)) {
            reject(new GitError(args, error.code ?? null, stderr.toString("utf8")));
          } else {
            resolve({ stdout, code });
          }
        },
      );
      child.stdin?.on("error", () => undefined);
      child.stdin?.end(opts.input ?? "");
    });
  }

  private async text(gitDir: string, args: string[], opts?: RunOptions): Promise<string> {
    return (await this.run(gitDir, args, opts)).stdout.toString("utf8");
  }

  /** Serialise ref-changing operations per repository. */
  async withLock<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(gitDir) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    this.locks.set(
      gitDir,
      next.catch(() => undefined),
    );
    return next;
  }

  async init(gitDir: string, defaultBranch: string): Promise<void> {
    await mkdir(path.dirname(gitDir), { recursive: true });
    await this.run(gitDir, ["init", "--bare", "-q", `--initial-branch=${defaultBranch}`, gitDir]);
  }

  /** `local`: hard-link the objects (a big prepared repository) instead of copying them through git's transport. */
  async cloneBare(fromDir: string, toDir: string, opts: { local?: boolean } = {}): Promise<void> {
    await mkdir(path.dirname(toDir), { recursive: true });
    await this.run(fromDir, ["clone", "--bare", "-q", opts.local ? "--local" : "--no-local", fromDir, toDir]);
  }

  /** Copy a ref of another repository into this one (how GitHub keeps `refs/pull/N/head`). */
  async fetchRef(gitDir: string, fromDir: string, fromRef: string, toRef: string): Promise<void> {
    await this.run(gitDir, ["fetch", "-q", "--no-tags", fromDir, `+${fromRef}:${toRef}`]);
  }

  async writeBlob(gitDir: string, content: Buffer): Promise<string> {
    return (await this.text(gitDir, ["hash-object", "-w", "--stdin"], { input: content })).trim();
  }

  async readBlob(gitDir: string, sha: string): Promise<Buffer> {
    return (await this.run(gitDir, ["cat-file", "blob", sha])).stdout;
  }

  /** `blob`, `tree`, `commit`, `tag`, or undefined when the object does not exist. */
  async objectType(gitDir: string, sha: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{4,40}$/.test(sha)) return undefined;
    const key = `${gitDir}\0${sha}`;
    const known = this.types.get(key);
    if (known !== undefined) return known;
    const r = await this.run(gitDir, ["cat-file", "-t", sha], { okCodes: [128, 1] });
    if (r.code !== 0) return undefined;
    const type = r.stdout.toString("utf8").trim();
    if (isSha(sha)) this.types.set(key, type);
    return type;
  }

  /** Resolve a branch, tag, full ref or sha to an object of the wanted type. */
  async resolve(gitDir: string, rev: string, type: "commit" | "tree" = "commit"): Promise<string | undefined> {
    if (!rev || rev.startsWith("-") || /[\s~^:?*[\\]|\.\./.test(rev)) return undefined;
    const candidates = rev.startsWith("refs/") || isSha(rev) ? [rev] : [`refs/heads/${rev}`, `refs/tags/${rev}`, rev];
    for (const c of candidates) {
      // A ref or SHA naming a commit, and a commit wanted: known without git.
      const direct = type === "commit" ? (isSha(c) ? c : readRef(gitDir, c)) : undefined;
      if (direct === null) continue;
      if (direct !== undefined && (await this.objectType(gitDir, direct)) === "commit") return direct;
      const r = await this.run(gitDir, ["rev-parse", "--verify", "--quiet", `${c}^{${type}}`], { okCodes: [1, 128] });
      if (r.code === 0) return r.stdout.toString("utf8").trim();
    }
    return undefined;
  }

  async refSha(gitDir: string, ref: string): Promise<string | undefined> {
    const direct = readRef(gitDir, ref);
    if (direct !== undefined) return direct ?? undefined;
    const r = await this.run(gitDir, ["rev-parse", "--verify", "--quiet", ref], { okCodes: [1, 128] });
    return r.code === 0 ? r.stdout.toString("utf8").trim() : undefined;
  }

  async listRefs(gitDir: string, prefix = "refs/"): Promise<Array<{ ref: string; sha: string }>> {
    const out = await this.text(gitDir, ["for-each-ref", "--format=%(refname) %(objectname)", prefix]);
    return out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [ref, sha] = line.split(" ");
        return { ref: ref!, sha: sha! };
      });
  }

  /** Compare-and-swap a ref (`expectedOld` undefined: any; ZERO_SHA: must not exist). */
  async updateRef(gitDir: string, ref: string, sha: string, expectedOld?: string): Promise<void> {
    await this.run(gitDir, ["update-ref", ref, sha, ...(expectedOld ? [expectedOld] : [])]);
  }

  async deleteRef(gitDir: string, ref: string): Promise<void> {
    await this.run(gitDir, ["update-ref", "-d", ref]);
  }

  /** How many commits `head` has that `base` has not (`rev-list --count head ^base`; 0 when either is unknown). */
  async commitsBetween(gitDir: string, base: string, head: string): Promise<number> {
    const key = `${gitDir}\0${base}..${head}`;
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const out = await this.run(gitDir, ["rev-list", "--count", head, `^${base}`], { okCodes: [128] });
    const count = Number(out.stdout.toString("utf8").trim()) || 0;
    if (out.code === 0 && isSha(base) && isSha(head)) this.counts.set(key, count);
    return count;
  }

  async isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
    const r = await this.run(gitDir, ["merge-base", "--is-ancestor", ancestor, descendant], { okCodes: [1] });
    return r.code === 0;
  }

  /** Paths changed by commits reachable from `sha` that no ref reaches yet (what a push would add). */
  async pathsIntroducedBy(gitDir: string, sha: string): Promise<string[]> {
    const out = await this.text(gitDir, ["log", "--format=", "--name-only", "--no-renames", "-m", "-z", sha, "--not", "--all"]);
    return [...new Set(out.split(/[\0\n]/).filter(Boolean))];
  }

  async readTree(gitDir: string, treeish: string, recursive = false): Promise<TreeEntry[]> {
    const args = ["ls-tree", "-z", "-l", ...(recursive ? ["-r", "-t"] : []), treeish];
    const out = await this.text(gitDir, args);
    return out
      .split("\0")
      .filter(Boolean)
      .map((rec) => {
        const tab = rec.indexOf("\t");
        const [mode, type, sha, size] = rec.slice(0, tab).split(/\s+/);
        const entry: TreeEntry = { mode: mode!, type: type as TreeEntry["type"], sha: sha!, path: rec.slice(tab + 1) };
        if (type === "blob") entry.size = Number(size);
        return entry;
      });
  }

  /** Apply create-tree operations on top of `baseTree` (or an empty tree); returns the new tree sha. */
  async buildTree(gitDir: string, baseTree: string | undefined, ops: TreeOp[]): Promise<string> {
    // The tree as a flat map of non-tree entries; sub-trees are expanded, then git writes it back.
    const flat = new Map<string, { mode: string; sha: string }>();
    if (baseTree) {
      for (const e of await this.readTree(gitDir, baseTree, true)) {
        if (e.type !== "tree") flat.set(e.path, { mode: e.mode, sha: e.sha });
      }
    }
    const removeAt = (p: string): void => {
      flat.delete(p);
      for (const key of [...flat.keys()]) if (key.startsWith(`${p}/`)) flat.delete(key);
      // A file where a parent directory must go is replaced too.
      const parts = p.split("/");
      for (let i = 1; i < parts.length; i++) flat.delete(parts.slice(0, i).join("/"));
    };
    for (const op of ops) {
      removeAt(op.path);
      if ("delete" in op) continue;
      if (op.type === "tree") {
        for (const e of await this.readTree(gitDir, op.sha, true)) {
          if (e.type !== "tree") flat.set(`${op.path}/${e.path}`, { mode: e.mode, sha: e.sha });
        }
      } else {
        flat.set(op.path, { mode: op.mode, sha: op.sha });
      }
    }
    return this.writeTree(gitDir, flat);
  }

  private async writeTree(gitDir: string, flat: Map<string, { mode: string; sha: string }>): Promise<string> {
    // A scratch index that does not exist yet is an empty one.
    const indexFile = path.join(this.root, `index-${randomBytes(8).toString("hex")}`);
    try {
      const env = { GIT_INDEX_FILE: indexFile };
      const lines = [...flat].map(([p, e]) => `${e.mode} ${e.sha}\t${p}\0`).join("");
      await this.run(gitDir, ["update-index", "-z", "--index-info"], { env, input: lines });
      return (await this.text(gitDir, ["write-tree"], { env })).trim();
    } finally {
      await rm(indexFile, { force: true });
    }
  }

  async commitTree(
    gitDir: string,
    opts: { tree: string; parents: string[]; message: string; author: GitIdentity; committer: GitIdentity },
  ): Promise<string> {
    const now = new Date().toISOString();
    const env = {
      GIT_AUTHOR_NAME: opts.author.name,
      GIT_AUTHOR_EMAIL: opts.author.email,
      GIT_AUTHOR_DATE: formatGitDate(opts.author.date ?? now),
      GIT_COMMITTER_NAME: opts.committer.name,
      GIT_COMMITTER_EMAIL: opts.committer.email,
      GIT_COMMITTER_DATE: formatGitDate(opts.committer.date ?? now),
    };
    const args = ["commit-tree", opts.tree, ...opts.parents.flatMap((p) => ["-p", p]), "-F", "-"];
    return (await this.text(gitDir, args, { env, input: opts.message })).trim();
  }

  async readCommit(gitDir: string, sha: string): Promise<CommitInfo> {
    const key = `${gitDir}\0${sha}`;
    const known = this.commits.get(key);
    if (known !== undefined) return structuredClone(known);
    const info = await this.parseCommit(gitDir, sha);
    if (isSha(sha)) this.commits.set(key, structuredClone(info));
    return info;
  }

  private async parseCommit(gitDir: string, sha: string): Promise<CommitInfo> {
    const raw = await this.text(gitDir, ["cat-file", "commit", sha]);
    const split = raw.indexOf("\n\n");
    const header = split >= 0 ? raw.slice(0, split) : raw;
    const message = split >= 0 ? raw.slice(split + 2) : "";
    const info: Partial<CommitInfo> & { parents: string[] } = { sha, parents: [], message };
    for (const line of header.split("\n")) {
      if (line.startsWith(" ")) continue; // continuation of a multi-line header (gpgsig)
      const sp = line.indexOf(" ");
      const key = line.slice(0, sp);
      const value = line.slice(sp + 1);
      if (key === "tree") info.tree = value;
      else if (key === "parent") info.parents.push(value);
      else if (key === "author") info.author = parseIdentity(value);
      else if (key === "committer") info.committer = parseIdentity(value);
    }
    return info as CommitInfo;
  }

  /** Every file of a commit (or tree) with its content, for assertions. */
  async readFiles(gitDir: string, treeish: string): Promise<Record<string, Buffer>> {
    const files: Record<string, Buffer> = {};
    for (const e of await this.readTree(gitDir, treeish, true)) {
      if (e.type === "blob") files[e.path] = await this.readBlob(gitDir, e.sha);
    }
    return files;
  }

  async fileAt(gitDir: string, treeish: string, filePath: string): Promise<{ sha: string; mode: string; type: string } | undefined> {
    const clean = filePath.replace(/^\/+|\/+$/g, "");
    if (clean === "") {
      const sha = await this.resolve(gitDir, treeish, "tree");
      return sha ? { sha, mode: "040000", type: "tree" } : undefined;
    }
    const out = await this.text(gitDir, ["ls-tree", "-z", treeish, "--", clean]);
    const rec = out.split("\0").find((r) => r.slice(r.indexOf("\t") + 1) === clean);
    if (!rec) return undefined;
    const [mode, type, sha] = rec.slice(0, rec.indexOf("\t")).split(/\s+/);
    return { mode: mode!, type: type!, sha: sha! };
  }

  /** gzip'd tar of a commit under a single top-level folder, as GitHub's tarball endpoint serves. */
  async archive(gitDir: string, sha: string, prefix: string): Promise<Buffer> {
    return (await this.run(gitDir, ["archive", "--format=tar.gz", `--prefix=${prefix}/`, sha])).stdout;
  }

  /** Commit a file map on top of `parent` (or as a root commit); `replace` drops files not listed. */
  async commitFiles(
    gitDir: string,
    opts: { parent?: string; files: FileMap; message: string; author: GitIdentity; committer?: GitIdentity; replace?: boolean },
  ): Promise<string> {
    const ops: TreeOp[] = [];
    for (const [p, content] of Object.entries(opts.files)) {
      const clean = p.replace(/^\/+/, "");
      if (content === null) ops.push({ path: clean, delete: true });
      else {
        const sha = await this.writeBlob(gitDir, Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8"));
        ops.push({ path: clean, mode: "100644", type: "blob", sha });
      }
    }
    const base = opts.parent && !opts.replace ? (await this.readCommit(gitDir, opts.parent)).tree : undefined;
    const tree = await this.buildTree(gitDir, base, ops);
    return this.commitTree(gitDir, {
      tree,
      parents: opts.parent ? [opts.parent] : [],
      message: opts.message,
      author: opts.author,
      committer: opts.committer ?? opts.author,
    });
  }
}

/**
 * A ref's value as git keeps it in a bare repository's files: the loose ref (following a
 * symbolic one), else its line in `packed-refs`. null: no such ref; undefined: not a name read
 * this way, or a file this does not read (git is asked instead).
 */
function readRef(gitDir: string, ref: string, depth = 0): string | null | undefined {
  if (depth > 5 || !PLAIN_REF.test(ref) || ref.split("/").some((part) => part.endsWith(".lock") || part.includes(".."))) return undefined;
  let loose: string;
  try {
    loose = readFileSync(path.join(gitDir, ref), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    let packed: string;
    try {
      packed = readFileSync(path.join(gitDir, "packed-refs"), "utf8");
    } catch (packedError) {
      return (packedError as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
    }
    const line = packed.split("\n").find((entry) => entry.endsWith(` ${ref}`) && !entry.startsWith("#"));
    const sha = line?.slice(0, line.indexOf(" "));
    return sha === undefined ? null : isSha(sha) ? sha : undefined;
  }
  const value = loose.trim();
  if (isSha(value)) return value;
  if (value.startsWith("ref: ")) return readRef(gitDir, value.slice(5), depth + 1);
  return undefined;
}
