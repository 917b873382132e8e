import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { conversations } from "./conversations.sql.js";

/**
 * The watcher's ledger of events it has handled, so a redelivered event is not run
 * twice. An entry outlives the conversation it started: deleting history must not make
 * the watcher run an old event again.
 */
export const processedEvents = sqliteTable(
  "processed_events",
  {
    eventId: text("event_id").primaryKey(),
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "set null",
    }),
    /** What the watcher did with the event (`completed`, `failed`, `skipped`, ...). */
    outcome: text("outcome").notNull(),
    /** RFC 3339, UTC. */
    processedAt: text("processed_at").notNull(),
    /**
     * Where the message that was handled sat (`topic/partition/offset`), so a redelivery of
     * that same message is told apart from a second copy of the event.
     */
    delivery: text("delivery"),
    /**
     * What the watcher published for the event (its result records, JSON), so a redelivery
     * after a publish that did not complete publishes the same result again.
     */
    result: text("result"),
  },
  // Deleting a conversation looks up the entries that point at it.
  (table) => [index("processed_events_conversation_id_idx").on(table.conversationId)],
);
