import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import { ConversationNotFoundError } from "./errors.js";
import type { HistoryContext, HistoryReader } from "./history-context.js";
import { perConnection } from "./per-connection.js";
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

/**
 * The queries of {@link appendMessages}, which runs every turn. Each `resume` variant sets
 * the totals the progress carries, and no others (drizzle's update takes a placeholder inside
 * `sql` only; the totals are integers, which need no conversion).
 */
const appendQueries = perConnection((db) => {
  const resume = (usage: boolean, turns: boolean) =>
    db
      .update(conversations)
      .set({
        status: "running",
        stopReason: null,
        completedAt: null,
        ...(usage && {
          inputTokens: sql`${sql.placeholder("inputTokens")}`,
          outputTokens: sql`${sql.placeholder("outputTokens")}`,
          totalTokens: sql`${sql.placeholder("totalTokens")}`,
        }),
        ...(turns && { turns: sql`${sql.placeholder("turns")}` }),
      })
      .where(eq(conversations.id, sql.placeholder("id")))
      .prepare();
  return {
    resume: [
      [resume(false, false), resume(false, true)],
      [resume(true, false), resume(true, true)],
    ] as const,
    lastSequence: db
      .select({ sequence: max(messages.sequence) })
      .from(messages)
      .where(eq(messages.conversationId, sql.placeholder("id")))
      .prepare(),
    insert: db
      .insert(messages)
      .values({
        conversationId: sql.placeholder("conversationId"),
        sequence: sql.placeholder("sequence"),
        role: sql.placeholder("role"),
        message: sql.placeholder("message"),
        pruned: sql.placeholder("pruned"),
        pinned: sql.placeholder("pinned"),
        createdAt: sql.placeholder("createdAt"),
      })
      .prepare(),
  };
});

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
  const { resume, lastSequence, insert } = appendQueries(context.db);
  const { usage, turns } = progress;
  return context.db.transaction(
    () => {
      // Appending to a finished conversation resumes it.
      const updated = resume[usage ? 1 : 0][turns !== undefined ? 1 : 0].run({
        id: conversationId,
        ...(usage && {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          totalTokens: usage.totalTokens,
        }),
        ...(turns !== undefined && { turns }),
      });
      if (updated.changes === 0) throw new ConversationNotFoundError(conversationId);
      const last = lastSequence.get({ id: conversationId });
      const first = (last?.sequence ?? -1) + 1;
      return redacted.map((entry, index) => {
        const sequence = first + index;
        insert.run({
          conversationId,
          sequence,
          role: entry.message.role,
          message: entry.message,
          pruned: entry.pruned ?? false,
          pinned: entry.pinned ?? false,
          createdAt,
        });
        return sequence;
      });
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
