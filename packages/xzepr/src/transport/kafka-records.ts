/**
 * Records between the transport's shapes and kafkajs's: header bytes as text, offsets as
 * decimal text, values as bytes.
 */
import type { IHeaders, KafkaMessage, Message, TopicMessages } from "kafkajs";
import type { InboundMessage, OutboundRecord, TopicRecords } from "./event-transport.js";

function toBuffer(value: string | Uint8Array): Buffer | string {
  if (typeof value === "string" || Buffer.isBuffer(value)) return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** A record as kafkajs sends it: text or bytes (a view on the same memory, not a copy). */
export function toKafkaMessage(record: OutboundRecord): Message {
  return {
    key: record.key ?? null,
    value: toBuffer(record.value),
    headers: record.headers ? { ...record.headers } : undefined,
  };
}

/** The records of each batch that has any, per topic, for `sendBatch`. */
export function toTopicMessages(batches: readonly TopicRecords[]): TopicMessages[] {
  return batches
    .filter((batch) => batch.records.length > 0)
    .map((batch) => ({ topic: batch.topic, messages: batch.records.map(toKafkaMessage) }));
}

/** Header values as text; of a header given twice, the last value counts. */
export function toHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last === undefined) continue;
    result[name] = typeof last === "string" ? last : last.toString("utf8");
  }
  return result;
}

/** A fetched message as the handler sees it; a null key reads as `undefined`. */
export function toInbound(topic: string, partition: number, message: KafkaMessage): InboundMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key === null ? undefined : message.key.toString("utf8"),
    value: message.value,
    headers: toHeaders(message.headers),
    timestamp: Number(message.timestamp),
  };
}
