/**
 * What a request needs works in a pool worker: the built tool registry, execution frames
 * (AsyncLocalStorage), the ast-grep CLI (a child process) and the TypeScript language service.
 */
import type { WorkerPool } from "../../src/workers/pool.js";
import { fixture, startPool } from "./built.js";

let pool: WorkerPool;
beforeAll(async () => {
  pool = await startPool({ workers: 1, memoryMb: 512, timeLimitMs: 1000, stopGraceMs: 3000 });
});
afterAll(async () => {
  await pool.destroy();
});

test("ast-edit (ast-grep CLI) and move (TypeScript language service) preview and apply in a worker thread", async () => {
  const files = {
    "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
    "src/a.ts": 'import { b } from "./b";\nconsole.log(b);\n',
    "src/b.ts": "export const b = 1;\n",
  };
  const outcome = await pool.run(
    { module: fixture("engine.mjs"), export: "editAndMove", input: { files } },
    { label: "`/ast-edit`", timeLimitMs: 30_000 },
  );
  expect(outcome).toEqual({
    ok: true,
    value: {
      isMainThread: false,
      threadId: expect.any(Number),
      edit: { label: "AST Edit: 1 replacement in 1 file", a: 'import { b } from "./b";\nlogger.debug(b);\n' },
      move: {
        label: "Move: 1 file (1 import updated)",
        a: 'import { b } from "./lib/b";\nconsole.log(b);\n',
        moved: "export const b = 1;\n",
      },
    },
  });
});

test("an asynchronous hang is stopped by the in-process limit in the worker, before the pool terminates it", async () => {
  const outcome = await pool.run({ module: fixture("engine.mjs"), export: "asyncHang", input: { seconds: 1 } }, { label: "`/hang`" });
  expect(outcome).toEqual({
    ok: true,
    value: { threadId: expect.any(Number), answer: "`hang` did not finish within 1 s and was stopped; nothing was changed." },
  });
});
