/** resolve-bot's own version, from the package.json it ships with (found upwards from this module: src/ and dist/src/ differ in depth). */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (manifest.name === "resolve-bot" && manifest.version) return manifest.version;
    }
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error("resolve-bot's package.json was not found next to its code.");
    directory = parent;
  }
}
