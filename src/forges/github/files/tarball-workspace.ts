/**
 * The files of a pull request head at an exact SHA: one tarball download, extracted in memory
 * with the workspace limits. Nothing in it is ever run; links and special files are skipped.
 */
import { constants as bufferConstants } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { Readable } from "node:stream";
import tar from "tar-stream";
import { UserError } from "../../../errors.js";
import { safePath } from "../../../workspace/paths.js";
import { formatBytes, raiseHint, type WorkspaceLimits } from "../../../workspace/limits.js";
import { notRegularFile, Workspace } from "../../../workspace/workspace.js";
import type { GitHubClient, RepoRef } from "../types.js";
import { shortSha } from "../../../core/revision.js";

/**
 * Tar's bytes on top of the content: a 512-byte header and up to 511 bytes of padding per entry,
 * plus room for directory entries and pax headers. This bound only stops a decompression bomb;
 * the exact limits are checked entry by entry below.
 */
const TAR_OVERHEAD_PER_FILE = 2048;
const TAR_OVERHEAD_FIXED = 1024 * 1024;

export class TarballWorkspace extends Workspace {
  /** Content, or the size of a file over the per-file limit (kept so reads can say why). */
  private constructor(
    private readonly files: Map<string, Uint8Array | number>,
    private readonly executables: Set<string>,
    readonly revision: string,
    limits: WorkspaceLimits,
  ) {
    super(limits);
  }

  override async modeOf(path: string): Promise<"100644" | "100755"> {
    return this.executables.has(path) ? "100755" : "100644";
  }

  static async download(octokit: GitHubClient, repo: RepoRef, sha: string, limits: WorkspaceLimits): Promise<TarballWorkspace> {
    const response = await octokit.rest.repos.downloadTarballArchive({ ...repo, ref: sha });
    return TarballWorkspace.fromTarGz(Buffer.from(response.data as ArrayBuffer), sha, limits);
  }

  static async fromTarGz(archive: Buffer, revision: string, limits: WorkspaceLimits): Promise<TarballWorkspace> {
    let tarBytes: Buffer;
    try {
      // No larger than one buffer can be (limits from a big machine can be larger).
      const maxOutputLength = Math.min(
        limits.maxTotalBytes + limits.maxFiles * TAR_OVERHEAD_PER_FILE + TAR_OVERHEAD_FIXED,
        bufferConstants.MAX_LENGTH,
      );
      tarBytes = gunzipSync(archive, { maxOutputLength });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        throw new UserError(
          `The repository at ${shortSha(revision)} is larger than the ${formatBytes(limits.maxTotalBytes)} limit${raiseHint(limits, "maxTotalBytes")}.`,
        );
      }
      throw error;
    }
    const files = new Map<string, Uint8Array | number>();
    const executables = new Set<string>();
    const extract = tar.extract();
    let total = 0;
    let failure: Error | undefined;
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        try {
          if (header.type === "file") {
            const inside = header.name.split("/").slice(1).join("/"); // drop `<owner>-<repo>-<sha>/`
            const path = inside ? safePath(inside) : undefined;
            if (path) {
              const content = Buffer.concat(chunks);
              total += content.byteLength;
              if (files.size >= limits.maxFiles) {
                throw new UserError(
                  `The repository has more than ${limits.maxFiles} files, over the limit${raiseHint(limits, "maxFiles")}; resolve-bot does not work on it.`,
                );
              }
              files.set(path, content.byteLength > limits.maxFileBytes ? content.byteLength : content);
              if ((header.mode ?? 0) & 0o111) executables.add(path);
            }
          }
        } catch (error) {
          failure ??= error as Error;
        }
        next();
      });
      stream.resume();
    });
    await new Promise<void>((resolve, reject) => {
      extract.on("finish", resolve);
      extract.on("error", reject);
      Readable.from([tarBytes]).pipe(extract);
    });
    if (failure) throw failure;
    if (total > limits.maxTotalBytes) {
      throw new UserError(
        `The repository at ${shortSha(revision)} is ${formatBytes(total)}, over the ${formatBytes(limits.maxTotalBytes)} limit${raiseHint(limits, "maxTotalBytes")}.`,
      );
    }
    return new TarballWorkspace(files, executables, revision, limits);
  }

  protected async listAll(): Promise<string[]> {
    return [...this.files.keys()];
  }

  protected async readListedFile(path: string): Promise<Uint8Array> {
    const entry = this.files.get(path);
    if (entry === undefined) throw notRegularFile(path);
    this.checkSize(path, typeof entry === "number" ? entry : entry.byteLength);
    if (typeof entry === "number") throw new UserError(`${path} cannot be read.`);
    return entry;
  }
}
