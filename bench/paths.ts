/** The repository root, found from this module (bench/*.ts under ts-jest, bench/.work/dist/bench/*.js when built). */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function repoRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "resolve-bot") return dir;
    if (path.dirname(dir) === dir) throw new Error("resolve-bot's package.json not found above the bench");
  }
}
