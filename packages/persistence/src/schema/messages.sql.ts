import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MESSAGE_ROLES, type HistoryMessage } from "../model.js";
import { conversations } from "./conversations.sql.js";

/**
 * The messages of a conversation, in order. Pruned messages stay (flagged) so a replay
 * shows what the model no longer saw.
 */
export const messages = sqliteTable(
  "messages",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** 0, 1, 2, ... within the conversation. */
    sequence: integer("sequence").notNull(),
    role: text("role", { enum: MESSAGE_ROLES }).notNull(),
    /** The message as JSON, after redaction. */
    message: text("message", { mode: "json" }).$type<HistoryMessage>().notNull(),
    /** Dropped from the model's context by pruning. */
    pruned: integer("pruned", { mode: "boolean" }).notNull().default(false),
    /** Kept in context whatever pruning decides. */
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    /** RFC 3339, UTC. */
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.sequence] })],
);

/** A row of {@link messages}. */
export type MessageRow = typeof messages.$inferSelect;
