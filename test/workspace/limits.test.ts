import os from "node:os";
import { inMemoryLimits, serverLimits, withinServerLimits } from "../../src/workspace/limits.js";

const GB = 1024 ** 3;

test("the server's limits come from the machine: files from memory, bytes from the cache's disk budget, 1 MB per file", () => {
  expect(serverLimits({}, 50 * GB)).toEqual({
    maxFiles: Math.floor(os.totalmem() / (16 * 1024)),
    maxFileBytes: 1024 * 1024,
    maxTotalBytes: 50 * GB,
    raisedBy: {
      maxFiles: "RESOLVE_BOT_MAX_FILES",
      maxFileBytes: "RESOLVE_BOT_MAX_FILE_BYTES",
      maxTotalBytes: "RESOLVE_BOT_MAX_TOTAL_BYTES",
    },
  });
  expect(serverLimits({}, 50 * GB).maxFiles).toBeGreaterThan(36_301);
});

test("the operator's variables set them; a bad value is refused at start", () => {
  expect(serverLimits({ RESOLVE_BOT_MAX_FILES: "30000", RESOLVE_BOT_MAX_TOTAL_BYTES: "1000" }, GB)).toMatchObject({
    maxFiles: 30_000,
    maxTotalBytes: 1000,
  });
  expect(() => serverLimits({ RESOLVE_BOT_MAX_FILES: "lots" }, GB)).toThrow(
    'RESOLVE_BOT_MAX_FILES must be a whole number of at least 1 (got "lots").',
  );
});

test("a repository's limits only lower the server's, and then name its own key", () => {
  const server = serverLimits({ RESOLVE_BOT_MAX_FILES: "30000" }, GB);
  const limits = withinServerLimits(server, { maxFiles: 100, maxTotalBytes: 10 * GB });
  expect(limits.maxFiles).toBe(100);
  expect(limits.maxTotalBytes).toBe(GB);
  expect(limits.raisedBy).toEqual({
    maxFiles: "`limits.max_files` in .github/resolve-bot.yml, up to the server's RESOLVE_BOT_MAX_FILES",
    maxFileBytes: "RESOLVE_BOT_MAX_FILE_BYTES",
    maxTotalBytes: "RESOLVE_BOT_MAX_TOTAL_BYTES",
  });
});

test("held in memory (the tarball fallback), a repository may take at most a quarter of the memory", () => {
  const limits = inMemoryLimits(serverLimits({}, 100 * os.totalmem()));
  expect(limits.maxTotalBytes).toBe(Math.floor(os.totalmem() / 4));
  expect(limits.raisedBy?.maxTotalBytes).toBe("the repository cache (git) instead of the tarball fallback");
});
