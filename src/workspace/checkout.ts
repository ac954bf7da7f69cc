/**
 * A commit's files written out for one run of a program that reads them where they lie (the
 * ast-grep CLI walking a directory: tools/ast-grep/in-place.ts), from a bare repository of the
 * cache, by git itself: the listed regular files go into a temporary index (`update-index`) and
 * `checkout-index` writes them into a fresh directory. The bytes are the blobs' own: the
 * repository's `.gitattributes` files are left out of that index, so no end-of-line, encoding or
 * `ident` conversion applies (git 2.39 has no `--attr-source` to say so otherwise), and no
 * configuration defines a filter (safe-git.ts). Links and submodules are no listed files, so
 * nothing in the directory points elsewhere; git refuses paths with `..` or `.git` components.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { runGit } from "./safe-git.js";

/** Where the checkouts of a cache's runs go, within its disk budget. */
export interface CheckoutSpace {
  /** A new directory for one run's checkout (not made yet). */
  directory(): string;
  /**
   * Reserves `bytes` for the checkout at `dir` when they fit within the cache's disk budget beside
   * the repositories and every checkout reserved meanwhile (by any run on this machine); undefined
   * when they do not. The run releases it once its directory is gone.
   */
  reserve(dir: string, bytes: number): Promise<Reservation | undefined>;
}

export interface Reservation {
  release(): Promise<void>;
}

export interface CheckoutFile {
  path: string;
  blob: string;
  executable: boolean;
}

/** Writes `files` of the repository `gitDir` into `dir` (made here, readable by this user only). */
export async function checkOut(gitDir: string, files: Iterable<CheckoutFile>, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const index = `${dir}.index`;
  const env = { GIT_INDEX_FILE: index, GIT_WORK_TREE: dir };
  const records: string[] = [];
  for (const file of files) {
    if (path.posix.basename(file.path) === ".gitattributes") continue;
    records.push(`${file.executable ? "100755" : "100644"} ${file.blob}\t${file.path}\0`);
  }
  try {
    await runGit(gitDir, ["update-index", "-z", "--index-info"], { env, input: records.join("") });
    await runGit(gitDir, ["checkout-index", "--all", "--force"], { env });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(index, { force: true });
  }
}
