/**
 * Logs about a request name it, and errors reach Sentry with SENTRY_DSN as Probot documents: the
 * real server in JSON logging (debug, so every GitHub call is logged), a command that fails inside
 * the bot (GitHub answers 400 to reading the pull request), and a loopback stand-in for Sentry's
 * ingestion endpoint that records what the SDK sends.
 */
import { createServer, type Server } from "node:http";
import { comment, freePort, startBot, waitFor, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/logged";
let bot: Bot;
let sentry: Server;
const envelopes: string[] = [];

beforeAll(async () => {
  sentry = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      envelopes.push(`${req.method} ${req.url}\n${Buffer.concat(chunks).toString("utf8")}`);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => sentry.listen(port, "127.0.0.1", resolve));
  bot = await startBot({ LOG_FORMAT: "json", LOG_LEVEL: "debug", SENTRY_DSN: `http://public@127.0.0.1:${port}/7` });
  await bot.gh.createRepo("acme", "logged", { "src/a.ts": 'console.log("a");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  await bot?.stop();
  await new Promise((resolve) => sentry?.close(resolve));
});

interface Line {
  level: number;
  msg: string;
  id?: string;
  repository?: string;
  pr?: number;
}

function jsonLines(): Line[] {
  return bot
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);
}

test(
  "every line about a request carries its delivery id, repository and pull request; its error reaches Sentry",
  async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.txt": "n\n" } }] });
    const fault = bot.gh.injectFault({ method: "GET", path: `/repos/${REPO}/pulls/${pr.number}`, status: 400, times: Infinity });
    const failed = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
    fault.remove();
    expect(failed.done).toBe("confused");

    const lines = jsonLines();
    const error = lines.find((line) => line.msg === "resolve-bot failed");
    expect(error).toMatchObject({ level: 50, repository: REPO, pr: pr.number });
    expect(error?.id).toEqual(expect.any(String));
    // Every GitHub call made for the request — the 👀 on the server, the worker thread's reads and
    // its reply — is logged with the same three fields.
    const calls = lines.filter((line) => line.msg.startsWith("GitHub request:") && line.msg.includes(`/repos/${REPO}/`));
    expect(calls.length).toBeGreaterThan(4);
    expect(calls.filter((line) => line.id !== error?.id || line.repository !== REPO || line.pr !== pr.number)).toEqual([]);

    const sent = await waitFor("Sentry to receive the error", () => envelopes.find((envelope) => envelope.includes('"type":"event"')));
    expect(sent).toMatch(/^POST \/api\/7\/envelope\//);
    // Probot's transport reports the logged error under the line's message.
    expect(sent).toContain('"value":"resolve-bot failed"');
  },
  patient(90_000),
);
