import { eq, sql } from "drizzle-orm";
import { resolveConversationId } from "./conversation-id.js";
import { ConversationNotFoundError } from "./errors.js";
import type { HistoryContext } from "./history-context.js";
import type { ConversationStatus, UsageTotals } from "./model.js";
import { perConnection } from "./per-connection.js";
import { toConversationRecord, type ConversationRecord } from "./records.js";
import { conversations } from "./schema/index.js";
import { toRfc3339 } from "./time.js";

/** What `History.createConversation` needs to start a conversation. */
export interface NewConversation {
  /** The conversation that spawned this one, for subagents. Must exist. */
  readonly parentId?: string;
  /** The subagent's label. */
  readonly label?: string;
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  /** Default: now. */
  readonly startedAt?: Date;
}

/** How a conversation ended, for `History.finishConversation`. */
export interface ConversationOutcome {
  readonly status: Exclude<ConversationStatus, "running">;
  /** The agent's stop reason (`completed`, `max-turns`, `aborted`, ...). */
  readonly stopReason?: string;
  /** Usage totals of the whole conversation. */
  readonly usage: UsageTotals;
  /** Model requests of the whole conversation. */
  readonly turns: number;
  /** Default: now. */
  readonly completedAt?: Date;
}

/** The writes of a conversation's start and end, which the watcher makes for every event. */
const conversationQueries = perConnection((db) => ({
  insert: db
    .insert(conversations)
    .values({
      id: sql.placeholder("id"),
      parentId: sql.placeholder("parentId"),
      label: sql.placeholder("label"),
      depth: sql.placeholder("depth"),
      title: sql.placeholder("title"),
      provider: sql.placeholder("provider"),
      model: sql.placeholder("model"),
      status: "running",
      startedAt: sql.placeholder("startedAt"),
    })
    .returning()
    .prepare(),
  finish: db
    .update(conversations)
    .set({
      status: sql`${sql.placeholder("status")}`,
      stopReason: sql`${sql.placeholder("stopReason")}`,
      completedAt: sql`${sql.placeholder("completedAt")}`,
      inputTokens: sql`${sql.placeholder("inputTokens")}`,
      outputTokens: sql`${sql.placeholder("outputTokens")}`,
      totalTokens: sql`${sql.placeholder("totalTokens")}`,
      turns: sql`${sql.placeholder("turns")}`,
    })
    .where(eq(conversations.id, sql.placeholder("id")))
    .prepare(),
}));

/** `History.createConversation`: inserts a `running` conversation, one level below its parent. */
export function createConversation(
  context: HistoryContext,
  input: NewConversation,
): ConversationRecord {
  const now = context.now();
  // On the one connection: inside the transaction below, the insert is part of it.
  const insert = (depth: number): ConversationRecord => {
    const row = conversationQueries(context.db).insert.get({
      id: context.newId(now),
      parentId: input.parentId ?? null,
      label: input.label === undefined ? null : context.redact(input.label),
      depth,
      title: context.redact(input.title),
      provider: input.provider,
      model: input.model,
      startedAt: toRfc3339(input.startedAt ?? now),
    });
    if (row === undefined) throw new Error("the conversation's insert returned no row");
    return toConversationRecord(row);
  };
  // A top-level conversation is one statement, atomic on its own: no transaction to open and
  // commit (one per event in the watcher).
  const parentId = input.parentId;
  if (parentId === undefined) return insert(0);
  // Immediate: the parent cannot be deleted between the look-up and the insert.
  return context.db.transaction(
    (tx) => {
      const parent = tx
        .select({ depth: conversations.depth })
        .from(conversations)
        .where(eq(conversations.id, parentId))
        .get();
      if (!parent) throw new ConversationNotFoundError(parentId);
      return insert(parent.depth + 1);
    },
    { behavior: "immediate" },
  );
}

/** `History.finishConversation`: writes the outcome; throws for an unknown id. */
export function finishConversation(
  context: HistoryContext,
  id: string,
  outcome: ConversationOutcome,
): void {
  const result = conversationQueries(context.db).finish.run({
    id,
    status: outcome.status,
    stopReason: outcome.stopReason === undefined ? null : context.redact(outcome.stopReason),
    completedAt: toRfc3339(outcome.completedAt ?? context.now()),
    inputTokens: outcome.usage.inputTokens,
    outputTokens: outcome.usage.outputTokens,
    totalTokens: outcome.usage.totalTokens,
    turns: outcome.turns,
  });
  if (result.changes === 0) throw new ConversationNotFoundError(id);
}

/** `History.deleteConversation`: deletes by id or unique prefix; `false` when none matches. */
export function deleteConversation(context: HistoryContext, idOrPrefix: string): boolean {
  const id = resolveConversationId(context, idOrPrefix);
  if (id === undefined) return false;
  // Messages and subagent conversations go with it (ON DELETE CASCADE).
  const result = context.db.delete(conversations).where(eq(conversations.id, id)).run();
  return result.changes > 0;
}
