/** GitHub calls are counted by route template: label values stay few whatever the repositories are. */
import { routeOf } from "../../../../src/forges/github/api/octokit-metrics.js";

test.each([
  ["GET", "/repos/{owner}/{repo}/pulls/{pull_number}", "GET /repos/{owner}/{repo}/pulls/{pull_number}"],
  ["POST", "/repos/{owner}/{repo}/check-runs?x=1", "POST /repos/{owner}/{repo}/check-runs"],
  // A paginated list's next page comes as a full URL (github.com, GHES, or the emulator).
  ["GET", "https://api.github.com/repositories/1296269/pulls/12/commits?page=2", "GET /repositories/{id}/pulls/{id}/commits"],
  [
    "GET",
    "https://ghe.example.com/api/v3/repos/acme/widgets/commits/0123456789abcdef0123456789abcdef01234567/check-runs?page=3",
    "GET /repos/{owner}/{repo}/commits/{sha}/check-runs",
  ],
])("%s %s is counted as %s", (method, url, route) => {
  expect(routeOf(method, url)).toBe(route);
});
