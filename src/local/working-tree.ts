/**
 * Writes an applied change set into a local work tree, all or nothing, and optionally commits
 * exactly the touched paths.
 */
import { mkdir, readFile, realpath, rename, rm, writeFile, lstat } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../core/result.js";
import type { ChangeSet } from "../workspace/changeset.js";
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
    if ((await lstat(absolute)).isSymbolicLink()) throw new UserError(`${file} is a symbolic link; resolve-bot does not write through links.`);
  } catch (error) {
    if (error instanceof UserError) throw error;
  }
  return absolute;
}

/** Applies the net changes to the work tree; on any failure, restores what it had changed. */
export async function writeChangeSet(root: string, changes: ChangeSet): Promise<string[]> {
  const net = await changes.resolveChanges();
  const operations: Array<{ file: string; content?: Uint8Array }> = [];
  for (const change of net) {
    if (change.kind === "rename") operations.push({ file: change.from }, { file: change.path, content: change.content });
    else if (change.kind === "delete") operations.push({ file: change.path });
    else operations.push({ file: change.path, content: change.content });
  }
  const targets = await Promise.all(operations.map(async (operation) => ({ ...operation, absolute: await confined(root, operation.file) })));
  const originals = new Map<string, Buffer | undefined>();
  for (const target of targets) originals.set(target.absolute, await readFile(target.absolute).catch(() => undefined));
  try {
    for (const target of targets) {
      if (target.content === undefined) {
        await rm(target.absolute, { force: true });
        continue;
      }
      await mkdir(path.dirname(target.absolute), { recursive: true });
      const temporary = `${target.absolute}.resolve-bot-${process.pid}.tmp`;
      await writeFile(temporary, target.content);
      await rename(temporary, target.absolute);
    }
  } catch (error) {
    for (const [absolute, original] of originals) {
      if (original === undefined) await rm(absolute, { force: true });
      else await writeFile(absolute, original);
    }
    throw new UserError(`could not write the change: ${(error as Error).message}. The work tree was restored.`);
  }
  return operations.map((operation) => operation.file);
}

export async function commitPaths(root: string, paths: string[], message: string): Promise<string> {
  await git(root, ["add", "-A", "--", ...paths]);
  await git(root, ["commit", "--quiet", "--no-verify", "-F", "-", "--", ...paths], message);
  return (await git(root, ["rev-parse", "HEAD"])).trim();
}
