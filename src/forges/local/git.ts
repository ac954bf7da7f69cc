/** The few git commands the local front end needs, run without a shell. */
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { promisify } from "node:util";
import { UserError } from "../../errors.js";

const run = promisify(execFile);

export async function git(cwd: string, args: string[], input?: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const options = { cwd, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" as const, ...(env ? { env: { ...process.env, ...env } } : {}) };
  try {
    if (input === undefined) {
      const { stdout } = await run("git", args, options);
      return stdout;
    }
    return await new Promise<string>((resolvePromise, reject) => {
      const child = execFile("git", args, options, (error, stdout, stderr) =>
        error ? reject(Object.assign(error as Error, { stderr })) : resolvePromise(stdout),
      );
      // A git that exits before reading its input reports why itself; EPIPE on stdin would only hide that.
      child.stdin!.on("error", () => undefined);
      child.stdin!.end(input);
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? "";
    if (/Please tell me who you are|Author identity unknown|no email was given/.test(stderr)) {
      throw new UserError(
        `git has no author identity in ${cwd}: set one with \`git config user.name "Your Name"\` and \`git config user.email "you@example.com"\`, or apply with --no-commit.`,
      );
    }
    throw new UserError(`git ${args[0]} failed in ${cwd}: ${stderr || (error as Error).message}`);
  }
}

export interface Checkout {
  /** The work tree's top directory (real path). */
  root: string;
  /** The git directory (handles worktrees). */
  gitDir: string;
}

export async function findCheckout(cwd: string): Promise<Checkout> {
  let output: string;
  try {
    output = await git(cwd, ["rev-parse", "--show-toplevel", "--absolute-git-dir"]);
  } catch {
    const directory = await stat(cwd).catch(() => undefined);
    if (directory === undefined) throw new UserError(`${cwd} does not exist.`);
    if (!directory.isDirectory()) throw new UserError(`${cwd} is not a directory.`);
    throw new UserError(`${cwd} is not inside a git checkout.`);
  }
  const [root, gitDir] = output.trim().split("\n");
  return { root: root!, gitDir: gitDir! };
}

export async function headSha(root: string): Promise<string> {
  try {
    return (await git(root, ["rev-parse", "HEAD"])).trim();
  } catch {
    return "an empty repository";
  }
}
