import { EMPTY_USAGE } from "@xzatoma/core";
import type { RuntimeParts } from "./runtime-parts.js";
import type { RuntimeSession } from "./runtime-session.js";
import { storedConversation } from "./runtime-history.js";

/**
 * Starts a new conversation in place of the current one (`/clear`): no usage, no messages,
 * tool search's loaded tools forgotten, the recorder and checkpoints on a new conversation.
 * For the hooks the old session ends and a new one starts; the next run waits for them.
 */
export function clearConversation(parts: RuntimeParts, session: RuntimeSession): void {
  session.totals = EMPTY_USAGE;
  parts.toolSearch.reset();
  session.rebuild([]);
  session.recorder?.clear();
  parts.checkpoints.reset();
  session.restarted = parts.hooks.end("clear").then(async () => {
    session.sessionContext = await parts.hooks.start("clear", session.model);
  });
}

/**
 * Continues the stored conversation `idOrPrefix` in place of the current one (a fork a
 * rewind or `/fork` made): its messages, kept messages, usage, recorder and turn numbering.
 * For the hooks the old session ends and the continued one starts (as a resume); the next
 * run waits for them. Throws `CONVERSATION_NOT_FOUND` (or `HISTORY_UNAVAILABLE`) first,
 * changing nothing.
 */
export function resumeConversation(
  parts: RuntimeParts,
  session: RuntimeSession,
  idOrPrefix: string,
): void {
  const stored = storedConversation(parts.history.store, idOrPrefix);
  session.pinnedMessages = stored.pinned;
  const before = session.restarted;
  const ended = parts.hooks.end("other");
  session.totals = stored.usage;
  parts.toolSearch.reset();
  session.rebuild(stored.messages);
  session.recorder = parts.record(stored.id, stored.messages);
  session.restarted = (async () => {
    await before;
    await ended;
    session.sessionContext = await parts.hooks.start("resume", session.model);
  })();
}
