/**
 * The container image as built (Dockerfile, by scripts/container-build.sh; CI builds it every run):
 * its entrypoint run in its own root file system — chroot, with the environment, working
 * directory and user the image defines, /dev and /proc provided as a container runtime would
 * (`podman run` cannot start containers in this sandbox) — against the GitHub emulator. Liveness
 * answers (and the image's HEALTHCHECK command says so), a preview is answered, and SIGTERM makes
 * it exit cleanly. It needs root, buildah and the image of this checkout (.ci/run builds it): without
 * them the suite is skipped outside CI with one line saying what to do, and fails in CI.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { GitHubEmulator } from "../e2e/emulator/index.js";
import { SECRET, comment, freePort, waitFor, type Bot } from "../e2e/harness.js";
import { checkNeeds, debianCommand } from "../helpers/machine.js";

const IMAGE = "localhost/resolve-bot:test";
const REPO = "acme/boxed";

interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  Volumes: Record<string, unknown>;
  StopSignal: string;
  Healthcheck: { Test: string[] };
  Labels: Record<string, string> | null;
}

/** The image's config, when buildah holds it and scripts/container-build.sh built it from this checkout's commit. */
function imageOfThisCheckout(): ImageConfig | undefined {
  const inspected = spawnSync("buildah", ["inspect", "--type", "image", IMAGE], { encoding: "utf8" });
  if (inspected.status !== 0) return undefined;
  const found = (JSON.parse(inspected.stdout) as { Docker: { config: ImageConfig } }).Docker.config;
  // Another checkout on this machine (another run of the suite) may have built it from other code.
  const head = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
  return found.Labels?.["org.opencontainers.image.revision"] === head ? found : undefined;
}

const missing = checkNeeds("test/container/image.test.ts", [
  { name: "root", present: () => process.getuid?.() === 0, install: { run: "run it as root (it mounts and chroots)" } },
  debianCommand("buildah"),
  {
    name: `the image ${IMAGE} of this commit`,
    present: () => imageOfThisCheckout() !== undefined,
    install: { run: "bash scripts/container-build.sh (as root)" },
  },
]);

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.stderr || result.error?.message}`);
  return result.stdout.trim();
}

let config: ImageConfig;
let container: string | undefined;
let root: string;
let gh: GitHubEmulator | undefined;
let app: ChildProcess | undefined;
let output = "";
const mounted: string[] = [];

/** Runs `command` in the image's root file system as the image's user, in its working directory. */
function inImage(env: Record<string, string>, command: string[]): ChildProcess {
  const [user, group] = userIds(config.User);
  const enter = ["--userspec", `${user}:${group}`, root, "/bin/sh", "-c", 'cd "$0" && exec "$@"', config.WorkingDir, ...command];
  return spawn("chroot", enter, { env, stdio: ["ignore", "pipe", "pipe"] });
}

/** The image's user as uid and gid, from its own /etc/passwd. */
function userIds(user: string): [string, string] {
  const entry = readFileSync(path.join(root, "etc/passwd"), "utf8")
    .split("\n")
    .find((line) => line.startsWith(`${user}:`));
  if (!entry) throw new Error(`the image's user ${user} is not in its /etc/passwd`);
  const [, , uid, gid] = entry.split(":");
  return [uid!, gid!];
}

let env: Record<string, string>;
let base: string;

(missing.length > 0 ? describe.skip : describe)(IMAGE, () => {
  beforeAll(async () => {
    config = imageOfThisCheckout()!;
    container = run("buildah", ["from", "--pull-never", IMAGE]);
    root = run("buildah", ["mount", container]);
    run("mount", ["--rbind", "/dev", path.join(root, "dev")]);
    mounted.push(path.join(root, "dev"));
    run("mount", ["-t", "proc", "proc", path.join(root, "proc")]);
    mounted.push(path.join(root, "proc"));

    gh = await GitHubEmulator.start();
    await gh.createRepo("acme", "boxed", { "src/a.ts": 'console.log("a");\n' });
    gh.setPermission(REPO, "alice", "write");
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const imageEnv = Object.fromEntries(
      config.Env.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
    );
    // The image's environment plus what a deployment supplies: the app's registration, its port.
    env = { ...imageEnv, ...gh.probotEnv(SECRET), PORT: String(port), RESOLVE_BOT_THROTTLE: "off", LOG_LEVEL: "info" };
    app = inImage(env, [...config.Entrypoint, ...config.Cmd]);
    for (const stream of [app.stdout!, app.stderr!]) stream.on("data", (chunk: Buffer) => (output += String(chunk)));
  }, 120_000);

  afterAll(async () => {
    if (app && app.exitCode === null && app.signalCode === null) {
      app.kill("SIGKILL");
      await new Promise((resolve) => app!.once("exit", resolve));
    }
    await gh?.stop();
    for (const target of mounted.reverse()) spawnSync("umount", ["-R", target]);
    if (container) {
      spawnSync("buildah", ["umount", container]);
      spawnSync("buildah", ["rm", container]);
    }
  }, 60_000);

  test("the image runs as an unprivileged user with tini as PID 1, a data volume, SIGTERM and a health check", () => {
    expect(config.User).toBe("resolvebot");
    expect(userIds(config.User)[0]).not.toBe("0");
    expect(config.Entrypoint.slice(0, 2)).toEqual(["/usr/bin/tini", "--"]);
    expect(config.StopSignal).toBe("SIGTERM");
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    expect(config.Env).toEqual(expect.arrayContaining(["NODE_ENV=production", "RESOLVE_BOT_DATA_DIR=/data"]));
    expect(config.Healthcheck.Test).toEqual(["CMD", "node", "dist/src/ops/healthcheck.js"]);
  });

  test("liveness answers, and the image's HEALTHCHECK command says healthy", async () => {
    await waitFor(
      "the app in the image to answer /healthz",
      async () => {
        if (app!.exitCode !== null) throw new Error(`the app in the image exited: ${output}`);
        const response = await fetch(`${base}/healthz`).catch(() => undefined);
        return response?.status === 200 || undefined;
      },
      60_000,
    );
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, "ready\n"]);
    const check = inImage(env, config.Healthcheck.Test.slice(1));
    expect(await new Promise((resolve) => check.once("exit", resolve))).toBe(0);
  }, 90_000);

  test("a preview is answered", async () => {
    const bot = { gh: gh!, webhookUrl: `${base}/api/github/webhooks` } as Bot; // all that comment() uses
    const pr = await gh!.createPullRequest({ repo: REPO, head: "topic", user: "alice", commits: [{ files: { "n.txt": "n\n" } }] });
    const preview = await comment(bot, REPO, pr.number, "alice", "/ast-edit --pat 'console.log($$$A)' --out 'logger.debug($$$A)'");
    expect(preview.done).toBe("rocket");
    expect(preview.reply).toContain("AST Edit: 1 replacement in 1 file");
  }, 90_000);

  test("SIGTERM reaches Node through tini: it finishes and exits 0", async () => {
    const exited = new Promise<number | null>((resolve) => app!.once("exit", (code) => resolve(code)));
    app!.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM: all commands finished");
  }, 60_000);
});
