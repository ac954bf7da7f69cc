/**
 * The working status of a request that runs long (pipeline/cost.ts), on GitHub: a comment where the
 * reply will go (the conversation, or the review thread of a line comment), with a hidden marker
 * naming the request. The reply is a new comment after it (GitHub notifies people of new comments,
 * not of edits, and whoever waits is waiting for the reply); then the status is edited to
 * `~~Working on …~~ Finished: the reply is below.`, so it never claims work that is over.
 *
 * Exactly once per request: a re-run (an interrupted run's job tried again) looks for the status
 * by its marker before saying one, settles the one it finds, and a lost answer to the POST is
 * looked for by api/idempotent-writes.ts. Settling is an edit to a fixed text: repeating it is harmless.
 */
import type { WorkingStatus } from "../../../pipeline/ports.js";
import type { Reply } from "../../../pipeline/reply.js";
import { tookText } from "../../../pipeline/cost.js";
import { text } from "./markdown.js";
import type { OwnComment, ReplyChannel } from "./reply-channel.js";

export const FINISHED = "Finished: the reply is below.";

type State = "working" | "finished";

function marker(requestId: string, state: State): string {
  return `<!-- resolve-bot:working:${encodeURIComponent(requestId)}:${state} -->`;
}

function markerPrefix(requestId: string): string {
  return `<!-- resolve-bot:working:${encodeURIComponent(requestId)}:`;
}

export function workingBody(requestId: string, said: string): string {
  return `${text(said)}\n\n${marker(requestId, "working")}`;
}

/** The status once the request is answered: what it said, struck through, and where the answer is. */
export function finishedBody(requestId: string, working: string): string {
  const said = working.slice(0, working.lastIndexOf(markerPrefix(requestId))).trimEnd();
  return `~~${said}~~ ${FINISHED}\n\n${marker(requestId, "finished")}`;
}

/**
 * The status port for one request. `lookBack`: the request ran before (a re-run, or a stop reply
 * from the server's side), so a status may be out already and is looked for on GitHub first.
 */
export function workingStatus(channel: ReplyChannel, requestId: string, afterMs: number, lookBack: boolean): WorkingStatus {
  let comment: OwnComment | undefined;
  let looked = !lookBack;
  const find = async (): Promise<OwnComment | undefined> => {
    if (!looked) {
      looked = true;
      comment ??= await channel.findOwn((body) => body.includes(markerPrefix(requestId)));
    }
    return comment;
  };
  return {
    afterMs,
    async say(said) {
      if (await find()) return;
      const body = workingBody(requestId, said);
      comment = { id: await channel.post(body), body };
    },
    out: async () => (await find()) !== undefined,
    async settle() {
      const found = await find();
      if (found === undefined || !found.body.includes(marker(requestId, "working"))) return;
      const body = finishedBody(requestId, found.body);
      await channel.edit(found.id, body);
      comment = { id: found.id, body };
    },
  };
}

/** The end of a reply's comment when the request said early that it was working: how long it took. */
export function tookLine(reply: Reply): string {
  return reply.took === undefined ? "" : `\n\n<sub>${text(tookText(reply.took))}</sub>`;
}
