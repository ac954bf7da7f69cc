/** Throw-away git repositories for tests. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

/** A repository with one commit holding `files`. */
export function makeRepo(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-test-"));
  writeFiles(root, files);
  git(root, "init", "--quiet", "--initial-branch=main");
  git(root, "config", "user.name", "Test User");
  git(root, "config", "user.email", "test@example.com");
  git(root, "add", "-A");
  git(root, "commit", "--quiet", "-m", "initial");
  return root;
}

/** `path: content` of every file in a commit's tree. */
export function treeAt(root: string, rev = "HEAD"): Record<string, string> {
  const files = git(root, "ls-tree", "-r", "--name-only", rev).split("\n").filter(Boolean);
  return Object.fromEntries(files.map((file) => [file, git(root, "show", `${rev}:${file}`)]));
}
