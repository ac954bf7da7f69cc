/**
 * The Action's logger: lines in the job's log, warnings and errors also as workflow commands
 * (`::warning::`, `::error::`), which GitHub shows as annotations on the run. Debug lines only when
 * the run has debug logging on (RUNNER_DEBUG=1). It has the shape Octokit and the pipeline log to.
 */
type Details = Record<string, unknown>;

export interface ActionLog {
  debug(details: Details | string, message?: string): void;
  info(details: Details | string, message?: string): void;
  warn(details: Details | string, message?: string): void;
  error(details: Details | string, message?: string): void;
  child(bindings: Details): ActionLog;
}

/** A workflow command's data: `%`, CR and LF escaped as the runner reads them. */
export function commandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function line(details: Details | string, message: string | undefined, bindings: Details): string {
  if (typeof details === "string") return message === undefined ? details : `${details} ${message}`;
  const { err, ...rest } = { ...bindings, ...details };
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  const cause = err instanceof Error ? `: ${err.stack ?? err.message}` : err === undefined ? "" : `: ${JSON.stringify(err)}`;
  return `${message ?? ""}${cause}${fields ? ` (${fields})` : ""}`;
}

export function actionLog(
  env: NodeJS.ProcessEnv,
  write: (text: string) => void = (text) => process.stdout.write(text),
  bindings: Details = {},
): ActionLog {
  const debugOn = env.RUNNER_DEBUG === "1";
  return {
    debug: (details, message) => {
      if (debugOn) write(`::debug::${commandData(line(details, message, bindings))}\n`);
    },
    info: (details, message) => write(`${line(details, message, bindings)}\n`),
    warn: (details, message) => write(`::warning::${commandData(line(details, message, bindings))}\n`),
    error: (details, message) => write(`::error::${commandData(line(details, message, bindings))}\n`),
    child: (more) => actionLog(env, write, { ...bindings, ...more }),
  };
}
