import type { ConversationStatus, HistoryMessage, MessageRole, UsageTotals } from "./model.js";
import type { ConversationRow, MessageRow } from "./schema/index.js";

/** A conversation as the history store returns it. Times are RFC 3339 strings in UTC. */
export interface ConversationRecord {
  /** A ULID. */
  readonly id: string;
  /** The conversation that spawned this one (subagents), or `undefined`. */
  readonly parentId: string | undefined;
  /** The subagent's label, or `undefined`. */
  readonly label: string | undefined;
  /** 0 for top-level conversations, the parent's depth + 1 for subagents. */
  readonly depth: number;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly status: ConversationStatus;
  /** The agent's stop reason once finished (`completed`, `max-turns`, `aborted`, ...). */
  readonly stopReason: string | undefined;
  /** `2026-11-22T03:00:00Z` style. */
  readonly startedAt: string;
  /** Set when the conversation finished. */
  readonly completedAt: string | undefined;
  readonly usage: UsageTotals;
  /** Model requests made so far. */
  readonly turns: number;
}

/** A stored message with its place in the conversation and its flags. */
export interface StoredMessage {
  /** 0, 1, 2, ... within the conversation. */
  readonly sequence: number;
  readonly role: MessageRole;
  /** The message as written (after redaction). */
  readonly message: HistoryMessage;
  /** Dropped from the model's context by pruning. */
  readonly pruned: boolean;
  /** Kept in context whatever pruning decides. */
  readonly pinned: boolean;
  /** RFC 3339, UTC. */
  readonly createdAt: string;
}

/** A conversation with its messages. */
export interface ConversationWithMessages extends ConversationRecord {
  readonly messages: readonly StoredMessage[];
}

/** A conversation, its messages, and the conversations of its subagents, recursively. */
export interface ConversationTree extends ConversationWithMessages {
  /** Subagent conversations, oldest first. */
  readonly children: readonly ConversationTree[];
}

/** Maps a database row to a {@link ConversationRecord}. */
export function toConversationRecord(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    parentId: row.parentId ?? undefined,
    label: row.label ?? undefined,
    depth: row.depth,
    title: row.title,
    provider: row.provider,
    model: row.model,
    status: row.status,
    stopReason: row.stopReason ?? undefined,
    startedAt: row.startedAt,
    completedAt: row.completedAt ?? undefined,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      totalTokens: row.totalTokens,
    },
    turns: row.turns,
  };
}

/** Maps a database row to a {@link StoredMessage}. */
export function toStoredMessage(row: MessageRow): StoredMessage {
  return {
    sequence: row.sequence,
    role: row.role,
    message: row.message,
    pruned: row.pruned,
    pinned: row.pinned,
    createdAt: row.createdAt,
  };
}
