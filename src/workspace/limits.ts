/** Size limits for what the bot reads and writes; defaults suit a code review bot. */

export interface WorkspaceLimits {
  /** Files a workspace may hold (GitHub tarballs) and a change set may touch. */
  maxFiles: number;
  /** Bytes of one file the bot reads or writes; bigger files are left alone. */
  maxFileBytes: number;
  /** Bytes of all files together (a tarball's content, a change set's writes). */
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: WorkspaceLimits = {
  maxFiles: 20_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}
