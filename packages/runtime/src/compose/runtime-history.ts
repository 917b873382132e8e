import type { Message } from "@xzatoma/conversation";
import type { Usage } from "@xzatoma/core";
import { XzatomaError } from "@xzatoma/errors";
import type { History } from "@xzatoma/persistence";
import type { RuntimeConfig } from "../config/config-values.js";
import { openRuntimeHistory } from "../open-history.js";
import { pinnedOf } from "../pinned-history.js";
import type { AgentRuntimeOptions } from "./runtime-options.js";

/** The history database of one runtime. */
export interface RuntimeHistory {
  /** Undefined when history is off (`persistence.enabled: false`, or `history: false`). */
  readonly store: History | undefined;
  /** Closes the database, unless it is the caller's (`history.store`), which stays open. */
  close(): void;
}

/**
 * The history a runtime records into: the caller's open database (`history.store`), or the
 * configured one, opened by its first read or write; none when the configuration or the
 * caller turns history off.
 */
export function openHistoryOf(
  config: RuntimeConfig,
  option: AgentRuntimeOptions["history"],
): RuntimeHistory {
  if (option === false || !config.persistence.enabled) {
    return { store: undefined, close: () => undefined };
  }
  const shared = option?.store;
  // Opened by its first use: a new conversation is stored once its first request is on its
  // way, so that request does not wait for the database to open and migrate.
  const store = shared ?? openRuntimeHistory(config.persistence.db_path, "full", "first-use");
  return {
    store,
    close: () => {
      if (store !== shared) store.close();
    },
  };
}

/** A stored conversation as a runtime continues it. */
export interface StoredConversation {
  readonly id: string;
  /** Tokens of every run of it so far. */
  readonly usage: Usage;
  /** Its messages as the agent takes them: no system prompt. */
  readonly messages: Message[];
  /** Those of `messages` that were kept verbatim by request (a prompt naming a skill). */
  readonly pinned: ReadonlySet<Message>;
}

/**
 * The stored conversation `wanted` names (an id, a unique prefix, or `{ latest: true }` for
 * the newest that is not a subagent's). Throws `CONVERSATION_NOT_FOUND` when there is none,
 * `HISTORY_UNAVAILABLE` when history is off.
 */
export function storedConversation(
  history: History | undefined,
  wanted: string | { readonly latest: true },
): StoredConversation {
  const id =
    typeof wanted === "string"
      ? wanted
      : history?.listConversations({ parentId: null, limit: 1 }).items[0]?.id;
  const stored = id === undefined ? undefined : history?.getConversation(id);
  if (!stored) {
    throw new XzatomaError(
      history ? "CONVERSATION_NOT_FOUND" : "HISTORY_UNAVAILABLE",
      !history
        ? "History is turned off (persistence.enabled is false), so nothing can be resumed."
        : id === undefined
          ? "There is no stored conversation to continue yet."
          : `No stored conversation '${id}'.`,
      { fields: { conversationId: id ?? "latest" } },
    );
  }
  const messages = stored.messages
    .map((entry) => entry.message as Message)
    .filter((message) => message.role !== "system");
  return { id: stored.id, usage: stored.usage, messages, pinned: pinnedOf(stored.messages) };
}

/**
 * The stored conversation a runtime is asked to continue (`history.resume`), or undefined
 * for a new one. When there is none to continue, the history is closed before the error
 * (`CONVERSATION_NOT_FOUND`, `HISTORY_UNAVAILABLE`) is thrown.
 */
export function resumedConversation(
  history: RuntimeHistory,
  option: AgentRuntimeOptions["history"],
): StoredConversation | undefined {
  const wanted = option === false ? undefined : option?.resume;
  if (wanted === undefined) return undefined;
  try {
    return storedConversation(history.store, wanted);
  } catch (error) {
    history.close();
    throw error;
  }
}
