/**
 * The local front end's early status (pipeline/cost.ts): on a terminal (stderr a TTY) a command
 * still running after the threshold says so on stderr, and the result ends with how long it took,
 * also on stderr (stdout stays the result); piped, nothing is added. The long command waits for
 * the test, never for a clock.
 */
import { parseCommands } from "../../../src/core/commands.js";
import { Runtime } from "../../../src/core/runtime.js";
import { runLocalCommands } from "../../../src/forges/local/ports.js";
import { terminalSink } from "../../../src/forges/local/terminal.js";
import { gate, harness, slowTool } from "../../helpers/fake-tools.js";
import { makeRepo } from "../../helpers/git-repo.js";

async function slowRun(interactive: boolean) {
  const finish = gate();
  const started = gate();
  const statusSaid = gate();
  const { registry } = await harness([slowTool(finish, started)]);
  const out: string[] = [];
  const err: string[] = [];
  const repo = makeRepo({ "a.ts": "a\n", "b.ts": "b\n" });
  const status = runLocalCommands(parseCommands("/slow"), {
    cwd: repo,
    runtime: new Runtime(registry),
    statusAfterMs: 0,
    sink: terminalSink({
      out: (text) => out.push(text),
      err: (text) => {
        err.push(text);
        if (text.startsWith("Working on")) statusSaid.open();
      },
      interactive,
    }),
  });
  return { status, out, err, started, statusSaid, finish };
}

test("on a terminal: `Working on /slow (2 files)…` on stderr while it runs, then the result and how long it took", async () => {
  const run = await slowRun(true);
  await run.statusSaid.promise;
  expect(run.err).toEqual(["Working on /slow (2 files)…"]);
  expect(run.out).toEqual([]);
  run.finish.open();
  expect(await run.status).toBe("ok");
  expect(run.out).toEqual(["Looked at 2 files"]);
  expect(run.err).toEqual(["Working on /slow (2 files)…", expect.stringMatching(/^Took (\d+ min )?[\d.]+ s\.$/)]);
});

test("piped (stderr not a terminal): nothing but the result", async () => {
  const run = await slowRun(false);
  // A threshold of 0 is due at once: on a terminal the status would be out by the time the tool has listed the files.
  await run.started.promise;
  run.finish.open();
  expect(await run.status).toBe("ok");
  expect(run.out).toEqual(["Looked at 2 files"]);
  expect(run.err).toEqual([]);
});
