/**
 * The GitHub stack in check runs: the shared store contract, through the app's Octokit against
 * the GitHub emulator over HTTP (real git behind it). Each test has a pull request of its own;
 * each store is opened as a request opens it, on the pull request read from the API. An apply's
 * commit is a real commit on the branch with the trailers the bot writes; resolutions are read
 * back by the journal a re-run reads (forges/github/journal.ts).
 */
import { Probot } from "probot";
import { commitMessage, requestTrailer } from "../../../../src/core/commit-message.js";
import { CheckRunStore } from "../../../../src/forges/github/checks/store.js";
import { readJournal } from "../../../../src/forges/github/journal.js";
import { resolveBotOctokit } from "../../../../src/forges/github/api/octokit.js";
import { readPullRequest } from "../../../../src/forges/github/api/pull-request.js";
import type { GitHubClient } from "../../../../src/forges/github/types.js";
import { GitHubEmulator } from "../../../e2e/emulator/index.js";
import { REQUEST, stackStoreContract, type RecordedResolution } from "../../../core/store-contract.js";

const [owner, repo] = ["acme", "stacks"];
const REPO = `${owner}/${repo}`;
let gh: GitHubEmulator;
let octokit: GitHubClient;
let prs = 0;

beforeAll(async () => {
  gh = await GitHubEmulator.start();
  await gh.createRepo(owner, repo, { "src/a.ts": "export const a = 1;\n" });
  const env = gh.probotEnv("unused");
  const Octokit = resolveBotOctokit({ RESOLVE_BOT_THROTTLE: "off" });
  const probot = new Probot({ appId: Number(env.APP_ID), privateKey: env.PRIVATE_KEY!, baseUrl: gh.apiUrl, Octokit, logLevel: "fatal" });
  octokit = (await probot.auth(gh.installationId)) as GitHubClient;
}, 30_000);

afterAll(async () => {
  await gh.stop();
});

afterEach(() => {
  expect(gh.validateLog()).toEqual([]);
  gh.clearLog();
});

describe("CheckRunStore: the PendingActionStore contract", () => {
  stackStoreContract(
    async () => {
      const branch = `topic-${++prs}`;
      const { number } = await gh.createPullRequest({
        repo: REPO,
        head: branch,
        user: "alice",
        commits: [{ files: { "n.md": `${branch}\n` } }],
      });
      const commitUrl = (sha: string) => `${gh.url}/${REPO}/commit/${sha}`;
      const read = () => readPullRequest(octokit, { owner, repo }, number);
      return {
        open: async () => new CheckRunStore(octokit, await read(), { appId: gh.appId, gateCheck: true, commitUrl }),
        commit: (record, step) =>
          gh.pushCommit(REPO, branch, {
            files: { "src/a.ts": `export const a = ${record.seq};\n` },
            message: commitMessage({ record, reason: "apply it", trailers: [requestTrailer(step)] }),
          }),
        async resolutions() {
          const journal = await readJournal(octokit, await read(), REQUEST, { appId: gh.appId });
          const recorded = new Map<string, RecordedResolution>();
          for (const [step, { action, commit, record }] of journal.resolved)
            recorded.set(step, { action, ...(record ? { id: record.id } : {}), ...(commit ? { commit } : {}) });
          return recorded;
        },
      };
    },
    // One job at a time per pull request (the job queue's key) is what serialises GitHub writes.
    { concurrent: false },
  );
});
