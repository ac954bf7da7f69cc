/** Path rules: every path a tool or a user names is confined to the workspace. */
import path from "node:path";
import { UserError } from "../errors.js";

/**
 * Normalises a user- or tool-supplied path to the workspace's form (posix, relative, no "./").
 * Rejects what would leave the workspace or touch git's own data.
 */
export function normalizePath(input: string): string {
  if (typeof input !== "string" || input.length === 0) throw new UserError("A path is empty.");
  if (input.includes("\0")) throw new UserError(`Path ${JSON.stringify(input)} contains a NUL byte.`);
  const slashed = input.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:\//.test(slashed)) {
    throw new UserError(`Path ${JSON.stringify(input)} is absolute; use a path relative to the repository root.`);
  }
  if (slashed.split("/").includes("..")) {
    throw new UserError(`Path ${JSON.stringify(input)} leaves the repository ("..").`);
  }
  const normal = path.posix.normalize(slashed).replace(/\/+$/, "");
  if (normal === "." || normal === "") throw new UserError(`Path ${JSON.stringify(input)} names the repository root, not a file.`);
  if (normal === ".git" || normal.startsWith(".git/")) {
    throw new UserError(`Path ${JSON.stringify(input)} is inside .git/, which resolve-bot never touches.`);
  }
  return normal;
}

/**
 * A path read from git or an archive (not asked for by anyone) in the workspace's form, or
 * undefined when it would leave the workspace: such entries are dropped, never followed.
 */
export function safePath(path: string): string | undefined {
  try {
    return normalizePath(path);
  } catch {
    return undefined;
  }
}

/** Like normalizePath, but "." (the whole repository) is allowed: for search scopes. */
export function normalizeScope(input: string): string {
  const trimmed = input.replace(/\\/g, "/").replace(/\/+$/, "");
  if (trimmed === "" || trimmed === ".") return ".";
  return normalizePath(input);
}

/** Whether the (normalised) path lies in the (normalised) scope: "." is everything; else the scope itself or below it. */
export function withinScope(path: string, scope: string): boolean {
  return scope === "." || path === scope || path.startsWith(`${scope}/`);
}
