/**
 * docs/replies/*.md are what the product writes: each is the body the real server posted (or the
 * check-run output it wrote) for a command run against the emulator. Only what differs per run is
 * made stable: the emulator's address reads https://github.com, commit SHAs and run ids are
 * numbered in order of appearance, hidden markers and the time line are left out.
 * The test fails when a doc drifts from what the product writes; `npm run screenshots` runs it with
 * UPDATE_REPLY_DOCS=1 (it then rewrites the docs) and screenshots them (scripts/reply-screenshots.mjs).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { comment, lineComment, runsOn, useBot, withoutMarker, type Bot } from "./harness.js";

const REPO = "acme/widgets";
const DOCS = path.resolve("docs/replies");
const UPDATE = process.env.UPDATE_REPLY_DOCS === "1";
const EDIT = "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'";
const MODULES = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => [`src/module${i}.ts`, `export function m${i}() {\n  console.log("m${i}");\n}\n`]),
);
const BASE_FILES = {
  "README.md": "# widgets\n",
  "src/log.ts": 'export function run(x: number) {\n  console.log("run", x);\n  return x;\n}\n',
  "src/main.ts": 'import { run } from "./log";\n\nconsole.log(run(1));\n',
  ...MODULES,
};
/** The README's example: a command on lines 12–14 of src/api.ts, answered in its review thread. */
const THREAD = {
  path: "src/api.ts",
  firstLine: 10,
  lines: [
    "export async function fetchOrder(id: string) {",
    "  const started = Date.now();",
    '  console.log("fetching order", id);',
    "  const order = await db.orders.find(id);",
    '  console.log("took", Date.now() - started);',
    "  return order;",
  ],
  commented: [12, 14],
  command: EDIT,
};

let bot: Bot;

useBot(async (started) => {
  bot = started;
  await bot.gh.createRepo("acme", "widgets", BASE_FILES);
  bot.gh.setPermission(REPO, "alice", "write");
});

const docs = new Map<string, string>();
/** Stable stand-ins, in order of appearance across the docs. */
const shas = new Map<string, string>();
const runIds = new Map<string, string>();
const known: string[] = [];

function remember(sha: string | undefined): void {
  if (sha !== undefined && !known.includes(sha)) known.push(sha);
}

function stable(body: string): string {
  let out = body.split(bot.gh.url).join("https://github.com");
  for (const sha of known) {
    if (!out.includes(sha.slice(0, 7))) continue;
    if (!shas.has(sha)) shas.set(sha, createHash("sha1").update(`resolve-bot docs ${shas.size}`).digest("hex"));
    out = out.split(sha).join(shas.get(sha)!).split(sha.slice(0, 7)).join(shas.get(sha)!.slice(0, 7));
  }
  out = out.replace(/\/runs\/(\d+)/g, (_, id: string) => {
    if (!runIds.has(id)) runIds.set(id, String(1001 + runIds.size));
    return `/runs/${runIds.get(id)!}`;
  });
  // The time line comes only when a command took long (a loaded machine): not part of the reply shown.
  return out.replace(/\n\n<sub>[^\n]*<\/sub>$/, "").replace(/\n*<!--[\s\S]*?-->/g, "");
}

function doc(name: string, body: string): void {
  docs.set(name, `${stable(withoutMarker(body))}\n`);
}

function run(sha: string, label: string) {
  return runsOn(bot, REPO, sha).find((candidate) => candidate.name === `resolve-bot: ${label}`)!;
}

async function openPr(head: string, files: Record<string, string> = { "docs/x.md": `${head}\n` }) {
  const pr = await bot.gh.createPullRequest({ repo: REPO, head, user: "alice", commits: [{ files }] });
  remember(pr.headSha);
  return pr;
}

test("a preview, its check run, the apply and its run, /resolve undo; /help", async () => {
  const pr = await openPr("docs-preview");
  doc("reply-help", (await comment(bot, REPO, pr.number, "alice", "/help")).reply);
  const small = "AST Edit: 2 replacements in 2 files";
  doc("reply-preview", (await comment(bot, REPO, pr.number, "alice", `${EDIT} src/log.ts src/main.ts`)).reply);
  const pending = run(pr.headSha, small);
  doc("check-run-pending", `${pending.output.summary}\n\n${pending.output.text}`);
  const applied = await comment(bot, REPO, pr.number, "alice", "/resolve apply use the structured logger");
  remember(await bot.gh.branchSha(REPO, "docs-preview"));
  doc("reply-apply", applied.reply);
  doc("check-run-applied", run(pr.headSha, small).output.summary ?? "");
  doc("reply-undo", (await comment(bot, REPO, pr.number, "alice", "/resolve undo the logger is not wired up yet")).reply);
});

test("a large preview, the gate, bad arguments, a discard with something still pending, several commands", async () => {
  const pr = await openPr("docs-stack");
  await comment(bot, REPO, pr.number, "alice", `${EDIT} src/log.ts src/main.ts`);
  doc("reply-preview-large", (await comment(bot, REPO, pr.number, "alice", `${EDIT} 'src/module*.ts'`)).reply);
  const gate = runsOn(bot, REPO, pr.headSha).find((candidate) => candidate.name === "resolve-bot")!;
  doc("check-run-gate", `### ${gate.output.title}\n\n${gate.output.summary}`);
  doc("reply-error", (await comment(bot, REPO, pr.number, "alice", "/move src/log.ts")).reply);
  doc("reply-discard", (await comment(bot, REPO, pr.number, "alice", "/resolve discard too broad")).reply);
  doc("reply-several", (await comment(bot, REPO, pr.number, "alice", "/pending\n/frobnicate\n/help")).reply);
});

test("/resolve undo where a later commit changed the same lines", async () => {
  const pr = await openPr("docs-conflict");
  await comment(bot, REPO, pr.number, "alice", `${EDIT} src/log.ts src/main.ts`);
  await comment(bot, REPO, pr.number, "alice", "/resolve apply use the structured logger");
  remember(await bot.gh.branchSha(REPO, "docs-conflict"));
  remember(
    await bot.gh.pushCommit(REPO, "docs-conflict", {
      files: { "src/log.ts": 'export function run(x: number) {\n  logger.debug("run", x, "twice");\n  return x;\n}\n' },
      author: "alice",
    }),
  );
  doc("reply-undo-conflict", (await comment(bot, REPO, pr.number, "alice", "/resolve undo not wanted")).reply);
});

test("a command on lines of the diff, answered in its review thread", async () => {
  const preamble = Array.from({ length: THREAD.firstLine - 1 }, (_, i) => (i === 0 ? 'import { db } from "./db";' : ""));
  const api = `${[...preamble, ...THREAD.lines, "}"].join("\n")}\n`;
  const pr = await openPr("docs-thread", { [THREAD.path]: api });
  const [startLine, line] = THREAD.commented as [number, number];
  const asked = await lineComment(bot, { repo: REPO, number: pr.number, user: "alice", body: EDIT, path: THREAD.path, startLine, line });
  doc("reply-thread", asked.reply);
  // How the screenshot frames it: the lines and the comment as GitHub shows them.
  docs.set("reply-thread.thread", `${JSON.stringify(THREAD, null, 2)}\n`);
});

afterAll(() => {
  const drifted: string[] = [];
  for (const [name, body] of docs) {
    const file = path.join(DOCS, `${name}${name.endsWith(".thread") ? ".json" : ".md"}`);
    if (UPDATE) writeFileSync(file, body);
    else if (readFileSync(file, "utf8") !== body) drifted.push(path.relative(process.cwd(), file));
  }
  // Thrown from afterAll, the failure fails the run; the message says how to bring the docs in line.
  if (drifted.length > 0) throw new Error(`${drifted.join(", ")} differ from what the product writes: run \`npm run screenshots\`.`);
});
