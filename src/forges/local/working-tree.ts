/**
 * Writes an applied change set into a local work tree, all or nothing, and optionally commits
 * exactly the touched paths. A failed commit puts the work tree back, and the user's index is
 * never half-updated: the commit is built in a temporary index.
 */
import { mkdir, readFile, realpath, rename, rm, rmdir, writeFile, lstat } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../../errors.js";
import type { ChangeSet } from "../../workspace/changeset.js";
import { git } from "./git.js";

/** Refuses a target whose existing parent directories lead outside the root (symbolic links). */
async function confined(root: string, file: string): Promise<string> {
  const absolute = path.join(root, file);
  let directory = path.dirname(absolute);
  while (directory.startsWith(root)) {
    try {
      const real = await realpath(directory);
      if (real !== root && !real.startsWith(root + path.sep)) throw new UserError(`${file} would be written outside the repository.`);
      break;
    } catch (error) {
      if (error instanceof UserError) throw error;
      directory = path.dirname(directory); // not created yet: check the nearest existing parent
    }
  }
  try {
    if ((await lstat(absolute)).isSymbolicLink())
      throw new UserError(`${file} is a symbolic link; resolve-bot does not write through links.`);
  } catch (error) {
    if (error instanceof UserError) throw error;
  }
  return absolute;
}

export interface WrittenChange {
  /** The touched paths, relative to the root. */
  paths: string[];
  /** Puts every touched file back as it was before the write. */
  restore(): Promise<void>;
}

async function restoreFiles(originals: Map<string, Buffer | undefined>): Promise<void> {
  for (const [absolute, original] of originals) {
    if (original === undefined) {
      await rm(absolute, { force: true });
      continue;
    }
    // Its directory may have gone with the deletion (removeEmptyParents).
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, original);
  }
}

/**
 * Directories a deletion or a move left empty go too, up to the root, as git removes them when it
 * checks out a commit without their files (undoing a move into a new directory leaves none behind).
 */
async function removeEmptyParents(root: string, directory: string): Promise<void> {
  const top = path.resolve(root);
  for (let current = path.resolve(directory); current.startsWith(`${top}${path.sep}`); current = path.dirname(current)) {
    // rmdir removes only an empty directory: anything else in it (even an ignored file) keeps it.
    if (
      !(await rmdir(current).then(
        () => true,
        () => false,
      ))
    )
      return;
  }
}

/** Applies the net changes to the work tree; on any failure, restores what it had changed. */
export async function writeChangeSet(root: string, changes: ChangeSet): Promise<WrittenChange> {
  const net = await changes.resolveChanges();
  const operations: Array<{ file: string; content?: Uint8Array }> = [];
  for (const change of net) {
    if (change.kind === "rename") operations.push({ file: change.from }, { file: change.path, content: change.content });
    else if (change.kind === "delete") operations.push({ file: change.path });
    else operations.push({ file: change.path, content: change.content });
  }
  const targets = await Promise.all(
    operations.map(async (operation) => ({ ...operation, absolute: await confined(root, operation.file) })),
  );
  const originals = new Map<string, Buffer | undefined>();
  for (const target of targets) originals.set(target.absolute, await readFile(target.absolute).catch(() => undefined));
  try {
    for (const target of targets) {
      if (target.content === undefined) {
        await rm(target.absolute, { force: true });
        await removeEmptyParents(root, path.dirname(target.absolute));
        continue;
      }
      await mkdir(path.dirname(target.absolute), { recursive: true });
      const temporary = `${target.absolute}.resolve-bot-${process.pid}.tmp`;
      await writeFile(temporary, target.content);
      await rename(temporary, target.absolute);
    }
  } catch (error) {
    await restoreFiles(originals);
    throw new UserError(`could not write the change: ${(error as Error).message}. The work tree was restored.`);
  }
  return { paths: operations.map((operation) => operation.file), restore: () => restoreFiles(originals) };
}

/**
 * Commits exactly `paths` as they are in the work tree, on top of HEAD, like
 * `git commit --no-verify -- paths` but all or nothing: the tree and commit are made in a
 * temporary index, HEAD moves only if it is still where it was, and only then does the user's
 * index take the committed paths. Other staged changes stay staged. Runs no hooks.
 */
export async function commitPaths(root: string, gitDir: string, paths: string[], message: string): Promise<string> {
  const parent = (await git(root, ["rev-parse", "--verify", "--quiet", "HEAD"]).catch(() => "")).trim();
  const index = { GIT_INDEX_FILE: path.join(gitDir, `resolve-bot-index-${process.pid}`) };
  let commit: string;
  try {
    await git(root, parent ? ["read-tree", parent] : ["read-tree", "--empty"], undefined, index);
    await git(root, ["add", "-A", "--", ...paths], undefined, index);
    const tree = (await git(root, ["write-tree"], undefined, index)).trim();
    commit = (await git(root, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], message)).trim();
    await git(root, ["update-ref", "-m", "resolve-bot: apply", "HEAD", commit, ...(parent ? [parent] : ["0".repeat(40)])]);
  } finally {
    await rm(index.GIT_INDEX_FILE, { force: true });
  }
  // The commit is made; the user's index now agrees with it for the committed paths.
  await git(root, ["reset", "--quiet", "--", ...paths]).catch(() => undefined);
  return commit;
}
