// For the tests on a real broker: what the watcher published, as a read_committed reader sees it.
import type { Consumer, Kafka } from "kafkajs";

/** One record as read: key, value and headers (as text). */
export interface CommittedRecord {
  readonly key: string | undefined;
  readonly value: Buffer | null;
  readonly headers: Record<string, string>;
}

/**
 * Reads every committed record of `topic` from the start into an array that keeps growing
 * (the topic is made first, with one partition, when it does not exist). The caller
 * disconnects the consumer.
 */
export async function collectCommitted(
  kafka: Kafka,
  topic: string,
): Promise<{ seen: CommittedRecord[]; consumer: Consumer }> {
  const admin = kafka.admin();
  await admin.connect();
  await admin
    .createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true })
    .catch(() => false);
  await admin.disconnect();
  const consumer = kafka.consumer({
    groupId: `reader-${topic}-${Date.now()}`,
    readUncommitted: false,
  });
  const seen: CommittedRecord[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {}))
        if (value !== undefined) headers[name] = value.toString();
      seen.push({ key: message.key?.toString(), value: message.value, headers });
    },
  });
  return { seen, consumer };
}

/** A record as the xzepr package's readers take it (`parseResultEvent`, ...). */
export function asMessage(record: CommittedRecord): {
  value: Uint8Array | null;
  headers: Record<string, string>;
  key?: string;
} {
  return {
    value: record.value === null ? null : new Uint8Array(record.value),
    headers: record.headers,
    ...(record.key !== undefined ? { key: record.key } : {}),
  };
}
