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
