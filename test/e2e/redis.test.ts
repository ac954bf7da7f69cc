/**
 * Scale-out with REDIS_URL, with real processes: two webhook servers and two workers on one Redis
 * and one GitHub emulator. The same delivery sent to both servers runs once; an apply and a discard
 * racing on one pull request each take one action, and the replies say what really happened.
 */
import { comment, deliver, startAppProcess, startBot, waitFor, type AppProcess, type Bot, settled } from "./harness.js";
import { RedisServer, describeWithRedis } from "../helpers/redis-server.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/scaled";

describeWithRedis("test/e2e/redis.test.ts")("two servers and two workers on one Redis", () => {
  let redis: RedisServer;
  let bot: Bot;
  const others: AppProcess[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
    bot = await startBot({ REDIS_URL: redis.url, RESOLVE_BOT_ROLE: "server" });
    others.push(await startAppProcess(bot, { RESOLVE_BOT_ROLE: "server" }));
    for (let i = 0; i < 2; i++) others.push(await startAppProcess(bot, { RESOLVE_BOT_ROLE: "worker" }));
    await bot.gh.createRepo("acme", "scaled", {
      "src/a.ts": 'console.log("a");\n',
      "src/b.ts": 'console.warn("b");\nconsole.warn("c");\n',
    });
    bot.gh.setPermission(REPO, "alice", "write");
  }, patient(90_000));

  afterAll(async () => {
    await Promise.all(others.map((other) => other.stop()));
    await bot?.stop();
    await redis?.stop();
  });

  test("a delivery sent to both servers runs once; a racing apply and discard each take one action", async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "c.txt": "c\n" } }] });
    const first = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.log($$$A)'");
    expect(first.done).toBe("rocket");
    const second = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.warn($$$A)' --out 'logger.warn($$$A)'");
    expect(second.done).toBe("rocket");
    const before = bot.gh.comments(REPO, pr.number).length;

    const apply = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve apply ship it", user: "alice" });
    const discard = bot.gh.webhooks.issueComment({ repo: REPO, number: pr.number, body: "/resolve discard not this", user: "alice" });
    const statuses = await Promise.all([
      deliver(bot, apply),
      deliver(bot, apply, undefined, others[0]!.webhookUrl),
      deliver(bot, discard, undefined, others[0]!.webhookUrl),
    ]);
    expect(statuses.every((status) => status < 300)).toBe(true);
    for (const event of [apply, discard]) {
      await waitFor(`comment ${event.commentId} done`, () =>
        bot.gh.reactions(event.commentId).find((reaction) => reaction.content === "rocket" || reaction.content === "confused"),
      );
    }
    // A duplicate run (there must be none) would be a job still queued or running on Redis.
    await settled(bot);

    const replies = bot.gh
      .comments(REPO, pr.number)
      .slice(before)
      .filter((entry) => entry.user === bot.gh.botLogin)
      .map((entry) => entry.body);
    expect(replies).toHaveLength(2);
    const applied = replies.find((body) => body.startsWith("Applied"));
    const discarded = replies.find((body) => body.startsWith("Discarded"));
    expect(applied).toBeDefined();
    expect(discarded).toBeDefined();

    const log = await bot.gh.runGit(REPO, ["log", "--format=%s%n%b%x00", "refs/heads/topic"]);
    const trailers = [...log.matchAll(/^Resolve-Action: (\S+)$/gm)].map((match) => match[1]);
    expect(trailers).toHaveLength(1);
    const appliedLabel = log.split("\n")[0]!;
    // The discard took the other action: its reply names the label that was not committed.
    // The two actions are told apart by their labels (1 and 2 replacements); the discard took the
    // one that was not committed, and each reply names the action it really took.
    expect(["AST Edit: 1 replacement in 1 file", "AST Edit: 2 replacements in 1 file"]).toContain(appliedLabel);
    const otherLabel = appliedLabel.includes(" 1 replacement") ? "AST Edit: 2 replacements in 1 file" : "AST Edit: 1 replacement in 1 file";
    expect(discarded).toContain(`Discarded: ${otherLabel}.`);
    const files = await bot.gh.filesAt(REPO, "topic");
    const changed = [files["src/a.ts"] !== 'console.log("a");\n', files["src/b.ts"] !== 'console.warn("b");\nconsole.warn("c");\n'];
    expect(changed.filter(Boolean)).toHaveLength(1);

    const pending = await comment(bot, REPO, pr.number, "alice", "/pending");
    expect(pending.reply).toContain("Nothing is pending.");
  });
});
