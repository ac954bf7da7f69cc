/** The Action's entry (action.yml `main`, bundled to dist/action/index.js): one event, then exit. */
import { runAction } from "./main.js";
import { actionLog } from "./log.js";

const log = actionLog(process.env);
runAction(process.env, log).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log.error({ err: error }, "resolve-bot failed");
    process.exitCode = 1;
  },
);
