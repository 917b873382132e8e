import { eq } from "drizzle-orm";
import type { HistoryContext } from "./history-context.js";
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

/** `History.markEventProcessed`: inserts the ledger entry unless one exists. */
export function markEventProcessed(
  context: HistoryContext,
  eventId: string,
  event: ProcessedEvent,
): boolean {
  const result = context.db
    .insert(processedEvents)
    .values({
      eventId,
      conversationId: event.conversationId ?? null,
      outcome: context.redact(event.outcome),
      processedAt: toRfc3339(context.now()),
      delivery: event.delivery ?? null,
      // Not redacted: it is replayed to Kafka byte for byte, and it holds the result the
      // watcher already published, not a conversation.
      result: event.result ?? null,
    })
    // The first record wins: a redelivered event must not rewrite how it was handled.
    .onConflictDoNothing({ target: processedEvents.eventId })
    .run();
  return result.changes > 0;
}

/** `History.isEventProcessed`: whether the ledger has an entry for `eventId`. */
export function isEventProcessed(context: HistoryContext, eventId: string): boolean {
  const row = context.db
    .select({ eventId: processedEvents.eventId })
    .from(processedEvents)
    .where(eq(processedEvents.eventId, eventId))
    .get();
  return row !== undefined;
}

/** `History.lookupProcessedEvent`: the ledger entry for `eventId`, if there is one. */
export function lookupProcessedEvent(
  context: HistoryContext,
  eventId: string,
): ProcessedEventRecord | undefined {
  const row = context.db
    .select()
    .from(processedEvents)
    .where(eq(processedEvents.eventId, eventId))
    .get();
  if (row === undefined) return undefined;
  return {
    eventId: row.eventId,
    outcome: row.outcome,
    processedAt: row.processedAt,
    ...(row.conversationId !== null ? { conversationId: row.conversationId } : {}),
    ...(row.delivery !== null ? { delivery: row.delivery } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
  };
}
