import type { ConversationOutcome, NewConversation } from "./conversations.js";
import type { ProcessedEvent, ProcessedEventRecord } from "./event-ledger.js";
import type { ConversationProgress, MessageToAppend } from "./messages.js";
import type { ConversationPage, ConversationQuery } from "./queries.js";
import type { ConversationRecord, ConversationTree, ConversationWithMessages } from "./records.js";

/**
 * The conversation history on one SQLite file. Every method is synchronous and every
 * write is its own transaction, committed before the method returns. Open it with
 * {@link openHistory}; close it when done.
 *
 * Methods that take an `idOrPrefix` accept a full id or the start of exactly one id,
 * like git's short hashes, and throw `AmbiguousConversationIdError` when the prefix
 * matches several.
 */
export interface History {
  /** The database file. */
  readonly path: string;

  /**
   * Starts a conversation with status `running`. With `parentId` it is a subagent's
   * conversation, one level deeper than its parent (throws `ConversationNotFoundError`
   * when the parent does not exist). The title and label are redacted.
   */
  createConversation(input: NewConversation): ConversationRecord;

  /**
   * Appends messages after the conversation's last one, in one transaction: all of them
   * are stored or none. Call it as each turn completes, so a crash loses at most the
   * turn in flight. Message text (the content of every role, tool results included, and
   * the strings of tool-call inputs) is redacted first.
   * `progress` writes the usage totals and turn count in the same transaction.
   * Appending to a finished conversation resumes it (`running` again).
   *
   * @returns the sequence numbers given to the messages, in order.
   */
  appendMessages(
    conversationId: string,
    messages: readonly MessageToAppend[],
    progress?: ConversationProgress,
  ): readonly number[];

  /** Flags messages as pruned from the model's context. Unknown sequences are ignored. */
  markPruned(conversationId: string, sequences: readonly number[]): void;

  /**
   * Records how the conversation ended (the stop reason redacted). Throws
   * `ConversationNotFoundError` for unknown ids.
   */
  finishConversation(conversationId: string, outcome: ConversationOutcome): void;

  /** One page of conversations, newest first, with the total that match the filters. */
  listConversations(query?: ConversationQuery): ConversationPage;

  /** A conversation with its messages (pruned ones flagged), or `undefined`. */
  getConversation(idOrPrefix: string): ConversationWithMessages | undefined;

  /**
   * For replay: the conversation with its messages and the conversations of its
   * subagents, recursively, oldest first at each level. `undefined` when not found.
   */
  getConversationTree(idOrPrefix: string): ConversationTree | undefined;

  /**
   * Runs `writes` (calls of this history's methods) in one transaction: one commit, and one
   * sync to the disk, for all of them; none is kept if it throws. Returns what it returns.
   */
  batch<T>(writes: () => T): T;

  /**
   * Deletes a conversation with its messages and its subagents' conversations.
   * Watcher ledger entries stay (their conversation becomes unknown).
   *
   * @returns whether a conversation was deleted.
   */
  deleteConversation(idOrPrefix: string): boolean;

  /**
   * Records that the watcher handled `eventId`. Idempotent: the first record wins.
   *
   * @returns `true` when this call recorded it, `false` when it was already recorded.
   */
  markEventProcessed(eventId: string, event: ProcessedEvent): boolean;

  /** Whether {@link History.markEventProcessed} recorded `eventId`. */
  isEventProcessed(eventId: string): boolean;

  /** The ledger entry {@link History.markEventProcessed} recorded for `eventId`, if any. */
  lookupProcessedEvent(eventId: string): ProcessedEventRecord | undefined;

  /**
   * Deletes the ledger entry for `eventId`, so the watcher handles the event again when it
   * next reads it (`xzatoma-watcher ledger forget`).
   *
   * @returns whether there was an entry.
   */
  forgetProcessedEvent(eventId: string): boolean;

  /**
   * Ledger entries whose id matches `pattern` (SQL `LIKE`, escape character `\`), in id
   * order, at most `limit` (default 100).
   */
  findProcessedEvents(pattern: string, limit?: number): ProcessedEventRecord[];

  /** Closes the connection. Further calls throw. Safe to call twice. */
  close(): void;
}
