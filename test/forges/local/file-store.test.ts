/**
 * The local CLI's stack in `<git dir>/resolve-bot/stack.json`: the shared store contract, each
 * store a new instance on the same directory (another terminal, a later run of the CLI).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Resolution } from "../../../src/core/store.js";
import { FileStore } from "../../../src/forges/local/file-store.js";
import { byStep, stackStoreContract } from "../../core/store-contract.js";

const root = mkdtempSync(path.join(tmpdir(), "resolve-bot-file-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let tests = 0;

describe("FileStore: the PendingActionStore contract", () => {
  stackStoreContract(
    async () => {
      const directory = path.join(root, `git-${++tests}`, "resolve-bot");
      return {
        open: async () => new FileStore(directory),
        commit: async () => "c".repeat(40),
        async resolutions() {
          let history: Resolution[] = [];
          try {
            history = (JSON.parse(await readFile(path.join(directory, "stack.json"), "utf8")) as { history: Resolution[] }).history;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
          }
          return byStep(history);
        },
      };
    },
    { concurrent: true },
  );
});
