import { and, asc, eq, inArray, max } from "drizzle-orm";
import { ConversationNotFoundError } from "./errors.js";
import type { HistoryContext, HistoryReader } from "./history-context.js";
import type { HistoryMessage, UsageTotals } from "./model.js";
import { toStoredMessage, type StoredMessage } from "./records.js";
import { redactMessage } from "./redact-message.js";
import { conversations, messages } from "./schema/index.js";
import { toRfc3339 } from "./time.js";

/** A message to append, with its flags. */
export interface MessageToAppend {
  readonly message: HistoryMessage;
  /** Default `false`. */
  readonly pruned?: boolean;
  /** Default `false`. */
  readonly pinned?: boolean;
}

/** Totals so far, written with the turn's messages so a crash keeps them too. */
export interface ConversationProgress {
  readonly usage?: UsageTotals;
  readonly turns?: number;
}

/** `History.appendMessages`: redacts, then appends the messages and progress in one transaction. */
export function appendMessages(
  context: HistoryContext,
  conversationId: string,
  entries: readonly MessageToAppend[],
  progress: ConversationProgress = {},
): readonly number[] {
  const createdAt = toRfc3339(context.now());
  // Redact before the transaction: the hook may be slow and must not hold the write lock.
  const redacted = entries.map((entry) => ({
    ...entry,
    message: redactMessage(entry.message, context.redact),
  }));
  return context.db.transaction(
    (tx) => {
      // Appending to a finished conversation resumes it.
      const updated = tx
        .update(conversations)
        .set({
          status: "running",
          stopReason: null,
          completedAt: null,
          ...(progress.usage && {
            inputTokens: progress.usage.inputTokens,
            outputTokens: progress.usage.outputTokens,
            totalTokens: progress.usage.totalTokens,
          }),
          ...(progress.turns !== undefined && { turns: progress.turns }),
        })
        .where(eq(conversations.id, conversationId))
        .run();
      if (updated.changes === 0) throw new ConversationNotFoundError(conversationId);
      const last = tx
        .select({ sequence: max(messages.sequence) })
        .from(messages)
        .where(eq(messages.conversationId, conversationId))
        .get();
      const first = (last?.sequence ?? -1) + 1;
      const rows = redacted.map((entry, index) => ({
        conversationId,
        sequence: first + index,
        role: entry.message.role,
        message: entry.message,
        pruned: entry.pruned ?? false,
        pinned: entry.pinned ?? false,
        createdAt,
      }));
      if (rows.length > 0) tx.insert(messages).values(rows).run();
      return rows.map((row) => row.sequence);
    },
    // Immediate: take the write lock up front, so a concurrent writer waits for the busy
    // timeout instead of failing when this read turns into a write.
    { behavior: "immediate" },
  );
}

/** `History.markPruned`: flags the given sequence numbers of the conversation as pruned. */
export function markPruned(
  context: HistoryContext,
  conversationId: string,
  sequences: readonly number[],
): void {
  if (sequences.length === 0) return;
  context.db
    .update(messages)
    .set({ pruned: true })
    .where(
      and(eq(messages.conversationId, conversationId), inArray(messages.sequence, [...sequences])),
    )
    .run();
}

/** The messages of each conversation in `conversationIds`, in sequence order. */
export function loadMessages(
  db: HistoryReader,
  conversationIds: readonly string[],
): Map<string, StoredMessage[]> {
  const byConversation = new Map<string, StoredMessage[]>(conversationIds.map((id) => [id, []]));
  if (conversationIds.length === 0) return byConversation;
  const rows = db
    .select()
    .from(messages)
    .where(inArray(messages.conversationId, [...conversationIds]))
    .orderBy(asc(messages.conversationId), asc(messages.sequence))
    .all();
  for (const row of rows) byConversation.get(row.conversationId)?.push(toStoredMessage(row));
  return byConversation;
}
