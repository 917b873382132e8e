import type { History, ProcessedEventRecord } from "@xzatoma/persistence";

/** How the watcher handled one event, as its ledger keeps it. */
export interface LedgerEntry {
  /** When it was recorded (RFC 3339), when the ledger keeps it. */
  readonly processedAt?: string;
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
  /** Deletes the entry of `key`, so the event runs again when it is next read; whether there was one. */
  forget?(key: string): boolean;
  /** The entries of events with this id, whatever their source (at most `limit`, default 100). */
  findById?(id: string, limit?: number): { readonly key: string; readonly entry: LedgerEntry }[];
}

/** The ledger key of an event: its source and id (CloudEvents' identity of an event). */
export function ledgerKeyOf(source: string, id: string): string {
  return JSON.stringify([source, id]);
}

/** The source and id a {@link ledgerKeyOf} key holds; `undefined` for another key. */
export function parseLedgerKey(key: string): { source: string; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(key);
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string"
    ) {
      return { source: value[0], id: value[1] };
    }
  } catch {
    // not a ledger key
  }
  return undefined;
}

/**
 * The SQL `LIKE` pattern (escape character `\`) that matches the keys of every event with
 * this id: `["<any source>","<id>"]`.
 */
export function ledgerKeyPatternForId(id: string): string {
  const escaped = JSON.stringify(id).replace(/[\\%_]/g, (char) => `\\${char}`);
  return `%,${escaped}]`;
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
    forget: (key) => entries.delete(key),
    findById: (id, limit = 100) =>
      [...entries]
        .filter(([key]) => parseLedgerKey(key)?.id === id)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, Math.max(1, limit))
        .map(([key, entry]) => ({ key, entry })),
  };
}

/** The ledger in XZatoma's history database (the `processed_events` table). */
export function historyLedger(history: History): EventLedger {
  const entryOf = (row: ProcessedEventRecord): LedgerEntry => ({
    outcome: row.outcome,
    processedAt: row.processedAt,
    ...(row.delivery !== undefined ? { delivery: row.delivery } : {}),
    ...(row.result !== undefined ? { result: row.result } : {}),
    ...(row.conversationId !== undefined ? { conversationId: row.conversationId } : {}),
  });
  return {
    lookup(key) {
      const row = history.lookupProcessedEvent(key);
      return row === undefined ? undefined : entryOf(row);
    },
    forget: (key) => history.forgetProcessedEvent(key),
    findById: (id, limit) =>
      history
        .findProcessedEvents(ledgerKeyPatternForId(id), limit)
        // The pattern's `%` could span a source that ends in `","<id>`: check the key itself.
        .filter((row) => parseLedgerKey(row.eventId)?.id === id)
        .map((row) => ({ key: row.eventId, entry: entryOf(row) })),
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
