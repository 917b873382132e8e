import { asc, eq, sql } from "drizzle-orm";
import type { HistoryContext } from "./history-context.js";
import { perConnection } from "./per-connection.js";
import { processedEvents } from "./schema/index.js";
import { toRfc3339 } from "./time.js";

/** What the watcher did with an event. */
export type EventOutcome = "completed" | "failed" | "skipped" | (string & {});

/** How an event was handled, for `History.markEventProcessed`. */
export interface ProcessedEvent {
  /** The conversation the event's plan ran in, if any. Must exist. */
  readonly conversationId?: string;
  readonly outcome: EventOutcome;
  /** Where the handled message sat (`topic/partition/offset`). */
  readonly delivery?: string;
  /** What the watcher published for the event, as text (JSON). Stored as given. */
  readonly result?: string;
}

/** A ledger entry as {@link lookupProcessedEvent} returns it. */
export interface ProcessedEventRecord {
  readonly eventId: string;
  readonly conversationId?: string;
  readonly outcome: EventOutcome;
  readonly processedAt: string;
  readonly delivery?: string;
  readonly result?: string;
}

/** The ledger's queries, which run for every event the watcher handles. */
const ledgerQueries = perConnection((db) => {
  const byId = eq(processedEvents.eventId, sql.placeholder("eventId"));
  return {
    mark: db
      .insert(processedEvents)
      .values({
        eventId: sql.placeholder("eventId"),
        conversationId: sql.placeholder("conversationId"),
        outcome: sql.placeholder("outcome"),
        processedAt: sql.placeholder("processedAt"),
        delivery: sql.placeholder("delivery"),
        result: sql.placeholder("result"),
      })
      // The first record wins: a redelivered event must not rewrite how it was handled.
      .onConflictDoNothing({ target: processedEvents.eventId })
      .prepare(),
    exists: db
      .select({ eventId: processedEvents.eventId })
      .from(processedEvents)
      .where(byId)
      .prepare(),
    lookup: db.select().from(processedEvents).where(byId).prepare(),
  };
});

/** `History.markEventProcessed`: inserts the ledger entry unless one exists. */
export function markEventProcessed(
  context: HistoryContext,
  eventId: string,
  event: ProcessedEvent,
): boolean {
  const result = ledgerQueries(context.db).mark.run({
    eventId,
    conversationId: event.conversationId ?? null,
    outcome: context.redact(event.outcome),
    processedAt: toRfc3339(context.now()),
    delivery: event.delivery ?? null,
    // Not redacted: it is replayed to Kafka byte for byte, and it holds the result the
    // watcher already published, not a conversation.
    result: event.result ?? null,
  });
  return result.changes > 0;
}

/** `History.isEventProcessed`: whether the ledger has an entry for `eventId`. */
export function isEventProcessed(context: HistoryContext, eventId: string): boolean {
  const row = ledgerQueries(context.db).exists.get({ eventId });
  return row !== undefined;
}

/** `History.forgetProcessedEvent`: deletes the ledger entry for `eventId`; whether there was one. */
export function forgetProcessedEvent(context: HistoryContext, eventId: string): boolean {
  const result = context.db
    .delete(processedEvents)
    .where(eq(processedEvents.eventId, eventId))
    .run();
  return result.changes > 0;
}

/**
 * `History.findProcessedEvents`: the ledger entries whose id matches `pattern`, SQL `LIKE`
 * with `\\` as its escape character, in id order, at most `limit` (default 100).
 */
export function findProcessedEvents(
  context: HistoryContext,
  pattern: string,
  limit = 100,
): ProcessedEventRecord[] {
  const rows = context.db
    .select()
    .from(processedEvents)
    .where(sql`${processedEvents.eventId} LIKE ${pattern} ESCAPE '\\'`)
    .orderBy(asc(processedEvents.eventId))
    .limit(Math.max(1, limit))
    .all();
  return rows.map(toRecord);
}

function toRecord(row: typeof processedEvents.$inferSelect): ProcessedEventRecord {
  return {
    eventId: row.eventId,
    outcome: row.outcome,
    processedAt: row.processedAt,
    ...(row.conversationId !== null ? { conversationId: row.conversationId } : {}),
    ...(row.delivery !== null ? { delivery: row.delivery } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
  };
}

/** `History.lookupProcessedEvent`: the ledger entry for `eventId`, if there is one. */
export function lookupProcessedEvent(
  context: HistoryContext,
  eventId: string,
): ProcessedEventRecord | undefined {
  const row = ledgerQueries(context.db).lookup.get({ eventId });
  return row === undefined ? undefined : toRecord(row);
}
