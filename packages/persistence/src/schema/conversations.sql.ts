import { index, integer, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { CONVERSATION_STATUSES } from "../model.js";

/**
 * One run of the agent: a chat session, a `run`, a watcher plan, or a subagent. A
 * subagent's conversation points at the conversation that spawned it; deleting a
 * conversation deletes its subagents' conversations with it.
 */
export const conversations = sqliteTable(
  "conversations",
  {
    /** A ULID: sortable by creation time, unique without coordination. */
    id: text("id").primaryKey(),
    parentId: text("parent_id").references((): AnySQLiteColumn => conversations.id, {
      onDelete: "cascade",
    }),
    /** The subagent's label; `null` for top-level conversations. */
    label: text("label"),
    /** 0 for top-level conversations, the parent's depth + 1 for subagents. */
    depth: integer("depth").notNull().default(0),
    title: text("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    status: text("status", { enum: CONVERSATION_STATUSES }).notNull().default("running"),
    /** The agent's stop reason (`completed`, `max-turns`, `aborted`, ...). */
    stopReason: text("stop_reason"),
    /** RFC 3339, UTC (`2026-11-22T03:00:00Z`). */
    startedAt: text("started_at").notNull(),
    completedAt: text("completed_at"),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    turns: integer("turns").notNull().default(0),
  },
  (table) => [
    index("conversations_started_at_idx").on(table.startedAt),
    index("conversations_parent_id_idx").on(table.parentId),
    index("conversations_status_started_at_idx").on(table.status, table.startedAt),
  ],
);

/** A row of {@link conversations}. */
export type ConversationRow = typeof conversations.$inferSelect;
