/**
 * The server as deployed (Probot's request throttling on): a secondary rate limit on a write is
 * waited out and retried once, so the command still completes.
 */
import { comment, runsOn, startBot, type Bot } from "./harness.js";
import { patient } from "../helpers/patience.js";

const REPO = "acme/limits";
let bot: Bot;

beforeAll(async () => {
  bot = await startBot({ RESOLVE_BOT_THROTTLE: "on" });
  await bot.gh.createRepo("acme", "limits", { "src/a.ts": 'console.log("a");\n' });
  bot.gh.setPermission(REPO, "alice", "write");
}, patient(60_000));

afterAll(async () => {
  await bot?.stop();
});

test(
  "a 403 secondary rate limit with retry-after on check-run creation is retried, and the preview lands",
  async () => {
    const pr = await bot.gh.createPullRequest({ repo: REPO, head: "slow", user: "alice", commits: [{ files: { "n.md": "n\n" } }] });
    const fault = bot.gh.injectFault({ method: "POST", path: "/repos/:o/:r/check-runs", secondaryRateLimit: { retryAfter: 1 } });
    const result = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.info($$$A)'");
    expect(fault.hits).toBe(1);
    expect(result.done).toBe("rocket");
    const posts = bot.gh.log().filter((entry) => entry.method === "POST" && entry.path.endsWith("/check-runs"));
    expect(posts.map((entry) => entry.status)).toEqual([403, 201, 201]);
    expect(runsOn(bot, REPO, pr.headSha).filter((run) => run.name.startsWith("resolve-bot: "))).toHaveLength(1);
    expect(bot.gh.validateLog()).toEqual([]);
  },
  patient(90_000),
);
