import { gaveUp } from "../../../src/forges/github/replies/render.js";
import { runLogOf } from "../../../src/apps/action/inputs.js";

const RUNNER = {
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_REPOSITORY: "acme/widgets",
  GITHUB_RUN_ID: "4242",
  GITHUB_RUN_ATTEMPT: "3",
};

describe("where the Action's apology says the error is", () => {
  test("this workflow run's log, linked to the attempt that failed", () => {
    expect(gaveUp(runLogOf(RUNNER))).toBe(
      "resolve-bot could not carry this out and gave up after several attempts; the error is in " +
        "[this workflow run's log](https://github.com/acme/widgets/actions/runs/4242/attempts/3). " +
        "Nothing was committed unless a reply or a check run says so.",
    );
    expect(runLogOf({ ...RUNNER, GITHUB_SERVER_URL: "https://ghe.example.com/", GITHUB_RUN_ATTEMPT: undefined })).toBe(
      "[this workflow run's log](https://ghe.example.com/acme/widgets/actions/runs/4242/attempts/1)",
    );
  });

  test("without the run's variables (or with odd ones), the words without a link", () => {
    expect(runLogOf({})).toBe("this workflow run's log");
    expect(runLogOf({ ...RUNNER, GITHUB_RUN_ID: "1) [x](y" })).toBe("this workflow run's log");
  });
});
