import path from "node:path";
import type { History } from "./history.js";
import { openHistory, type OpenHistoryOptions } from "./open-history.js";

/**
 * The history at `options.path`, opened (created, migrated) by the first call that reads or
 * writes it rather than now: a command that records nothing, or records only once its first
 * model request is on its way, does not wait for the database before that request
 * (docs/explanation/launch-path.md). An error opening it (`HistoryError`, a file system
 * error) is thrown by that first call, and again by every later one: a call never runs
 * against a database that did not open. `close()` before any use opens nothing.
 *
 * @example
 * const history = openHistoryOnFirstUse({ path: path.join(dataDir, "history.db") });
 * history.listConversations(); // the database is opened here
 */
export function openHistoryOnFirstUse(options: OpenHistoryOptions): History {
  let opened: History | undefined;
  let failure: { readonly error: unknown } | undefined;
  let closed = false;
  const store = (): History => {
    if (opened) return opened;
    if (closed) throw new Error("the history database is closed");
    if (failure) throw failure.error;
    try {
      opened = openHistory(options);
    } catch (error) {
      failure = { error };
      throw error;
    }
    return opened;
  };
  return {
    path: options.path === ":memory:" ? options.path : path.resolve(options.path),
    createConversation: (input) => store().createConversation(input),
    appendMessages: (id, messages, progress) => store().appendMessages(id, messages, progress),
    markPruned: (id, sequences) => store().markPruned(id, sequences),
    finishConversation: (id, outcome) => store().finishConversation(id, outcome),
    batch: (writes) => store().batch(writes),
    listConversations: (query) => store().listConversations(query),
    getConversation: (idOrPrefix) => store().getConversation(idOrPrefix),
    getConversationTree: (idOrPrefix) => store().getConversationTree(idOrPrefix),
    deleteConversation: (idOrPrefix) => store().deleteConversation(idOrPrefix),
    markEventProcessed: (eventId, event) => store().markEventProcessed(eventId, event),
    isEventProcessed: (eventId) => store().isEventProcessed(eventId),
    lookupProcessedEvent: (eventId) => store().lookupProcessedEvent(eventId),
    forgetProcessedEvent: (eventId) => store().forgetProcessedEvent(eventId),
    findProcessedEvents: (pattern, limit) => store().findProcessedEvents(pattern, limit),
    close: () => {
      closed = true;
      opened?.close();
    },
  };
}
