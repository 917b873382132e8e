/**
 * Group commit: the outcomes of handled messages, from every partition the consumer works on,
 * wait here until the next transaction takes them all. One transaction carries the records
 * and the offsets of everything that finished since the last one (as Kafka Streams commits a
 * poll's worth of work at once), so a message that publishes nothing costs a share of one
 * transaction instead of a transaction of its own.
 */
import type { TopicRecords } from "./event-transport.js";

/** A handled message waiting for its commit. */
export interface PendingCommit {
  readonly topic: string;
  readonly partition: number;
  /** The offset to commit: the message's offset plus one, as decimal text. */
  readonly next: string;
  readonly publish: readonly TopicRecords[];
}

/** What one transaction carries: the records in order, the highest offset per partition. */
export interface CommitBatch {
  readonly publish: readonly TopicRecords[];
  readonly offsets: readonly { topic: string; partition: number; offset: string }[];
  /** How many messages the batch commits. */
  readonly messages: number;
}

/** Merges pending commits into one batch (records per topic in arrival order). */
export function mergeCommits(entries: readonly PendingCommit[]): CommitBatch {
  const records = new Map<string, TopicRecords["records"][number][]>();
  const offsets = new Map<string, { topic: string; partition: number; offset: string }>();
  for (const entry of entries) {
    for (const batch of entry.publish) {
      if (batch.records.length === 0) continue;
      let list = records.get(batch.topic);
      if (!list) records.set(batch.topic, (list = []));
      list.push(...batch.records);
    }
    const key = `${entry.topic}\u0000${entry.partition}`;
    const known = offsets.get(key);
    if (!known || BigInt(entry.next) > BigInt(known.offset)) {
      offsets.set(key, { topic: entry.topic, partition: entry.partition, offset: entry.next });
    }
  }
  return {
    publish: [...records].map(([topic, list]) => ({ topic, records: list })),
    offsets: [...offsets.values()],
    messages: entries.length,
  };
}

/** See {@link createCommitBatcher}. */
export interface CommitBatcher {
  /** Queues a handled message; resolves true once committed, false when its commit gave up. */
  add(entry: PendingCommit): Promise<boolean>;
  /** Messages queued or in the transaction running now. */
  readonly pending: number;
}

/**
 * Calls `commit` with everything queued, one call at a time: while a transaction runs, the
 * messages that finish meanwhile gather for the next one (at most `maxMessages` per call).
 * `commit` resolves true when the batch is committed, false when it gave up; a throw counts as
 * giving up.
 */
export function createCommitBatcher(
  commit: (batch: CommitBatch) => Promise<boolean>,
  maxMessages = 2000,
): CommitBatcher {
  let queue: { entry: PendingCommit; resolve: (committed: boolean) => void }[] = [];
  let running = false;
  let inTransaction = 0;

  const drain = async () => {
    while (queue.length > 0) {
      const taken = queue.slice(0, maxMessages);
      queue = queue.slice(taken.length);
      inTransaction = taken.length;
      let committed = false;
      try {
        committed = await commit(mergeCommits(taken.map((item) => item.entry)));
      } catch {
        committed = false;
      }
      inTransaction = 0;
      for (const item of taken) item.resolve(committed);
    }
    running = false;
  };

  return {
    add(entry) {
      const committed = new Promise<boolean>((resolve) => queue.push({ entry, resolve }));
      if (!running) {
        running = true;
        // After the handlers that are finishing in this turn of the event loop have queued too.
        setImmediate(() => void drain());
      }
      return committed;
    },
    get pending() {
      return queue.length + inTransaction;
    },
  };
}
