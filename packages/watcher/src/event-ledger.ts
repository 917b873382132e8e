import type { History } from "@xzatoma/persistence";

/** How the watcher handled one event, as its ledger keeps it. */
export interface LedgerEntry {
  readonly outcome: string;
  /** Where the handled message sat: `topic/partition/offset`. */
  readonly delivery?: string;
  /** The records published for the event (JSON of `TopicRecords[]`), to publish again on redelivery. */
  readonly result?: string;
  readonly conversationId?: string;
}

/**
 * The idempotency ledger: which events (by source and id) the watcher has handled. The first
 * record of a key wins.
 */
export interface EventLedger {
  lookup(key: string): LedgerEntry | undefined;
  /** Records `entry` unless `key` has one; returns whether this call recorded it. */
  record(key: string, entry: LedgerEntry): boolean;
}

/** The ledger key of an event: its source and id (CloudEvents' identity of an event). */
export function ledgerKeyOf(source: string, id: string): string {
  return JSON.stringify([source, id]);
}

/** A ledger in memory, for tests and `--dry-run`. */
export function createMemoryLedger(): EventLedger {
  const entries = new Map<string, LedgerEntry>();
  return {
    lookup: (key) => entries.get(key),
    record(key, entry) {
      if (entries.has(key)) return false;
      entries.set(key, entry);
      return true;
    },
  };
}

/** The ledger in XZatoma's history database (the `processed_events` table). */
export function historyLedger(history: History): EventLedger {
  return {
    lookup(key) {
      const row = history.lookupProcessedEvent(key);
      if (row === undefined) return undefined;
      return {
        outcome: row.outcome,
        ...(row.delivery !== undefined ? { delivery: row.delivery } : {}),
        ...(row.result !== undefined ? { result: row.result } : {}),
        ...(row.conversationId !== undefined ? { conversationId: row.conversationId } : {}),
      };
    },
    record(key, entry) {
      return history.markEventProcessed(key, {
        outcome: entry.outcome,
        ...(entry.delivery !== undefined ? { delivery: entry.delivery } : {}),
        ...(entry.result !== undefined ? { result: entry.result } : {}),
        ...(entry.conversationId !== undefined ? { conversationId: entry.conversationId } : {}),
      });
    },
  };
}
