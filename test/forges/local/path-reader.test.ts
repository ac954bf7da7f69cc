/** The CLI reads typed paths as git does: from the directory the command was typed in. */
import { pathReader } from "../../../src/forges/local/ports.js";

const ROOT = "/work/repo";

test("from a subdirectory: relative paths, globs, '.', '..' and absolute paths inside the checkout", () => {
  const read = pathReader(ROOT, "src/internal");
  expect(["testing", "./a.ts", ".", "..", "../x/*.ts", "**/*.ts", "testing/", "/work/repo/lib/b.ts", "/work/repo"].map(read)).toEqual([
    "src/internal/testing",
    "src/internal/a.ts",
    "src/internal",
    "src",
    "src/x/*.ts",
    "src/internal/**/*.ts",
    "src/internal/testing",
    "lib/b.ts",
    ".",
  ]);
});

test("a path that leaves the checkout is refused, from anywhere; at the root paths go as typed", () => {
  expect(() => pathReader(ROOT, "src/internal")("../../../etc")).toThrow('Path "../../../etc" is outside the repository (/work/repo).');
  expect(() => pathReader(ROOT, "")("/etc/passwd")).toThrow('Path "/etc/passwd" is outside the repository (/work/repo).');
  expect(["./src/a.ts", "src/", "../up"].map(pathReader(ROOT, ""))).toEqual(["./src/a.ts", "src/", "../up"]);
});
