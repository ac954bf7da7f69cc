/**
 * A ChangeSet is what a pending action will do to the files: writes, deletes and renames,
 * staged against a workspace and validated as they are staged (paths, limits).
 * Nothing touches disk or GitHub here; front ends turn a ChangeSet into a commit.
 */
import { createHash } from "node:crypto";
import { UserError } from "../errors.js";
import { normalizePath } from "./paths.js";
import { formatBytes, type WorkspaceLimits } from "./limits.js";

/**
 * What a change set reads of the files it is staged against: a Workspace (workspace.ts), named
 * here by shape so that the workspace, whose undo hook returns change sets, is not imported back.
 */
export interface BaseFiles {
  readonly limits: WorkspaceLimits;
  exists(path: string): Promise<boolean>;
  readBytes(path: string): Promise<Uint8Array>;
  /** Git file mode of a file (the commit writer keeps executables executable). */
  modeOf(path: string): Promise<"100644" | "100755">;
}

export type FileChange =
  | { kind: "write"; path: string; content: Uint8Array; created: boolean }
  | { kind: "delete"; path: string }
  | { kind: "rename"; from: string; path: string; content: Uint8Array; unchanged: boolean };

type Staged = { kind: "write"; content: Uint8Array } | { kind: "delete" };

export interface ChangeFingerprint {
  /** One hash of everything the change set does; equal digests mean equal changes on equal files. */
  digest: string;
  /** Per touched path, a short hash of (before, after): names the files that differ when stale. */
  files: Record<string, string>;
}

const encoder = new TextEncoder();

function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === "string" ? encoder.encode(content) : content;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
}

export class ChangeSet {
  private readonly staged = new Map<string, Staged>();
  /** new path -> old path, for renames (lets commit writers reuse the old blob). */
  private readonly renames = new Map<string, string>();

  /**
   * The base's bytes of the paths the change set touches, read once: the fingerprint, the diff
   * and the net changes each read every changed file (a git workspace: one cat-file round trip
   * each, a large file's bytes every time). The base never changes under a change set.
   */
  private readonly baseReads = new Map<string, Promise<Uint8Array>>();

  constructor(readonly base: BaseFiles) {}

  /** The base's bytes of `path` (normalised), as `base.readBytes` gives them, read once. */
  baseBytes(normal: string): Promise<Uint8Array> {
    let read = this.baseReads.get(normal);
    if (read === undefined) {
      read = this.base.readBytes(normal);
      this.baseReads.set(normal, read);
      // A failed read is not kept: the next asks again (and meets the error itself).
      read.catch(() => this.baseReads.delete(normal));
    }
    return read;
  }

  get isEmpty(): boolean {
    return this.changes().length === 0;
  }

  /** Does the path exist once the staged changes are taken into account? */
  async exists(path: string): Promise<boolean> {
    const normal = normalizePath(path);
    const staged = this.staged.get(normal);
    if (staged) return staged.kind === "write";
    return this.base.exists(normal);
  }

  /** The current bytes of a path, staged changes included. */
  async read(path: string): Promise<Uint8Array> {
    const normal = normalizePath(path);
    const staged = this.staged.get(normal);
    if (staged?.kind === "write") return staged.content;
    if (staged?.kind === "delete") throw new UserError(`${normal} was deleted by this change.`);
    return this.base.readBytes(normal);
  }

  async write(path: string, content: string | Uint8Array): Promise<void> {
    const normal = normalizePath(path);
    const bytes = toBytes(content);
    this.checkSize(normal, bytes);
    this.staged.set(normal, { kind: "write", content: bytes });
    this.checkCount();
  }

  async delete(path: string): Promise<void> {
    const normal = normalizePath(path);
    if (!(await this.exists(normal))) throw new UserError(`Cannot delete ${normal}: it does not exist.`);
    this.staged.set(normal, { kind: "delete" });
    this.renames.delete(normal);
    this.checkCount();
  }

  async rename(from: string, to: string): Promise<void> {
    const source = normalizePath(from);
    const target = normalizePath(to);
    if (source === target) throw new UserError(`Cannot rename ${source} to itself.`);
    if (!(await this.exists(source))) throw new UserError(`Cannot rename ${source}: it does not exist.`);
    if (await this.exists(target)) throw new UserError(`Cannot rename ${source} to ${target}: ${target} already exists.`);
    const content = await this.read(source);
    this.staged.set(source, { kind: "delete" });
    this.staged.set(target, { kind: "write", content });
    this.renames.set(target, this.renames.get(source) ?? source);
    this.renames.delete(source);
    this.checkCount();
  }

  /** What was staged, sorted by path (resolveChanges gives the net effect against the base). */
  changes(): FileChange[] {
    const out: FileChange[] = [];
    const renamedSources = new Set(this.renames.values());
    for (const [path, staged] of [...this.staged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const from = this.renames.get(path);
      if (staged.kind === "write" && from !== undefined) {
        out.push({ kind: "rename", from, path, content: staged.content, unchanged: false });
      } else if (staged.kind === "write") {
        out.push({ kind: "write", path, content: staged.content, created: false });
      } else if (!renamedSources.has(path)) {
        // A rename's source needs no delete entry of its own: the rename entry carries it.
        out.push({ kind: "delete", path });
      }
    }
    return out;
  }

  /**
   * The net changes against the base: no-op writes dropped, `created` and `unchanged` filled in.
   * This is what diffs, fingerprints and commits use.
   */
  async resolveChanges(): Promise<FileChange[]> {
    const out: FileChange[] = [];
    for (const change of this.changes()) {
      if (change.kind === "write") {
        const existed = await this.base.exists(change.path);
        if (existed && sameBytes(await this.baseBytes(change.path), change.content)) continue;
        out.push({ ...change, created: !existed });
      } else if (change.kind === "rename") {
        const original = await this.baseBytes(change.from);
        out.push({ ...change, unchanged: sameBytes(original, change.content) });
      } else {
        if (await this.base.exists(change.path)) out.push(change);
      }
    }
    return out;
  }

  async fingerprint(): Promise<ChangeFingerprint> {
    const files: Record<string, string> = {};
    for (const change of await this.resolveChanges()) {
      const hash = createHash("sha256");
      hash.update(change.kind).update("\0");
      if (change.kind === "rename") hash.update(change.from).update("\0");
      const beforePath = change.kind === "rename" ? change.from : change.path;
      if (await this.base.exists(beforePath)) hash.update(await this.baseBytes(beforePath));
      hash.update("\0");
      if (change.kind !== "delete") hash.update(change.content);
      files[change.path] = hash.digest("hex").slice(0, 16);
    }
    const digest = createHash("sha256")
      .update(JSON.stringify(Object.entries(files)))
      .digest("hex");
    return { digest, files };
  }

  private checkSize(path: string, bytes: Uint8Array): void {
    const limits = this.base.limits;
    if (bytes.byteLength > limits.maxFileBytes) {
      throw new UserError(
        `Writing ${path} (${formatBytes(bytes.byteLength)}) is over the ${formatBytes(limits.maxFileBytes)} per-file limit.`,
      );
    }
    let total = bytes.byteLength;
    for (const [other, staged] of this.staged) {
      if (other !== path && staged.kind === "write") total += staged.content.byteLength;
    }
    if (total > limits.maxTotalBytes) {
      throw new UserError(`This change writes ${formatBytes(total)}, over the ${formatBytes(limits.maxTotalBytes)} limit.`);
    }
  }

  private checkCount(): void {
    if (this.staged.size > this.base.limits.maxFiles) {
      throw new UserError(`This change touches more than ${this.base.limits.maxFiles} files, over the limit.`);
    }
  }
}
