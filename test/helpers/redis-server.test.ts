/**
 * The tests' and the load test's redis-server, started the way `npm run loadtest` starts it: in a
 * plain Node process (under Jest, ioredis's own "Unhandled error event" line is not printed: the
 * socket's error comes from another realm than Jest's `Error`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { describeWithRedis } from "./redis-server.js";

const here = dirname(fileURLToPath(import.meta.url));

describeWithRedis("the redis-server helper test")("RedisServer", () => {
  test("starting and stopping one prints nothing (the connections refused while it comes up are expected)", () => {
    // Inside the repository, so that the helper's `ioredis` import resolves.
    const dir = mkdtempSync(join(here, "..", "..", "node_modules", ".cache-redis-server-"));
    try {
      // It and what it imports from here (./machine.js), as .mjs files.
      for (const name of ["redis-server", "machine"]) {
        const source = readFileSync(join(here, `${name}.ts`), "utf8");
        const { outputText } = ts.transpileModule(source, {
          compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        });
        writeFileSync(join(dir, `${name}.mjs`), outputText.replace('from "./machine.js"', 'from "./machine.mjs"'));
      }
      const helper = join(dir, "redis-server.mjs");
      const script = `const { RedisServer } = await import(${JSON.stringify(pathToFileURL(helper).href)});
        for (let i = 0; i < 3; i++) await (await RedisServer.start()).stop();
        console.log("ok");`;
      const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
      expect([run.stdout, run.stderr]).toEqual(["ok\n", ""]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
