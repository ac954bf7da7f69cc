/** Reading a change set's result in tests. */
import type { ChangeSet } from "../../src/workspace/changeset.js";

/** The text `path` has once `changes` are applied. */
export async function textAfter(changes: ChangeSet, path: string): Promise<string> {
  return Buffer.from(await changes.read(path)).toString("utf8");
}
