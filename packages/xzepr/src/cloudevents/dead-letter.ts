/**
 * Dead-letter records: a message the watcher could not use, kept byte for byte with the
 * reason and its origin in headers, so it can be inspected and replayed.
 */
import type { EventMessage } from "./decode-event-message.js";

/**
 * The headers a dead-letter record adds. Values are text:
 * - `x-xzatoma-dlq-reason`: why the message was set aside, one line, at most
 *   {@link MAX_DEAD_LETTER_REASON_LENGTH} characters;
 * - `x-xzatoma-dlq-topic`, `-partition`, `-offset`: where the original was consumed;
 * - `x-xzatoma-dlq-at`: when it was set aside (RFC 3339, UTC);
 * - `x-xzatoma-dlq-tombstone`: `"true"` when the original value was `null` (the record's
 *   value is then empty).
 */
export const DEAD_LETTER_HEADERS = {
  reason: "x-xzatoma-dlq-reason",
  topic: "x-xzatoma-dlq-topic",
  partition: "x-xzatoma-dlq-partition",
  offset: "x-xzatoma-dlq-offset",
  at: "x-xzatoma-dlq-at",
  tombstone: "x-xzatoma-dlq-tombstone",
} as const;

/** Longest reason kept, in UTF-16 code units; a longer one is cut and ends with `…`. */
export const MAX_DEAD_LETTER_REASON_LENGTH = 1000;

/** Where the original message was consumed. */
export interface DeadLetterOrigin {
  readonly topic: string;
  readonly partition: number;
  /** As decimal text: Kafka offsets exceed 2^53. */
  readonly offset: string;
}

/** A record for the dead-letter topic. A transport's `OutboundRecord` fits. */
export interface DeadLetterRecord {
  readonly key?: string;
  /** The original value, untouched (empty for a tombstone). */
  readonly value: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
}

/** What {@link readDeadLetterHeaders} finds. */
export interface DeadLetterInfo extends DeadLetterOrigin {
  readonly reason: string;
  readonly at: string;
  readonly tombstone: boolean;
}

/** The reason as one line of bounded length; control characters become spaces. */
function oneLine(reason: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = reason.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (flat.length <= MAX_DEAD_LETTER_REASON_LENGTH) return flat;
  let cut = MAX_DEAD_LETTER_REASON_LENGTH - 1;
  // Never split a surrogate pair.
  const last = flat.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${flat.slice(0, cut)}…`;
}

/**
 * Wraps a message for the dead-letter topic: the same key, the same value bytes, the
 * original headers (any `x-xzatoma-dlq-*` from an earlier round replaced) plus
 * {@link DEAD_LETTER_HEADERS}.
 */
export function toDeadLetterRecord(
  message: EventMessage,
  reason: string,
  origin: DeadLetterOrigin,
  now: Date = new Date(),
): DeadLetterRecord {
  const kept = Object.entries(message.headers ?? {}).filter(
    ([name, value]) =>
      !name.toLowerCase().startsWith("x-xzatoma-dlq-") && typeof value === "string",
  );
  const headers = Object.fromEntries([
    ...kept,
    [DEAD_LETTER_HEADERS.reason, oneLine(reason)],
    [DEAD_LETTER_HEADERS.topic, origin.topic],
    [DEAD_LETTER_HEADERS.partition, String(origin.partition)],
    [DEAD_LETTER_HEADERS.offset, origin.offset],
    [DEAD_LETTER_HEADERS.at, now.toISOString()],
    ...(message.value === null ? [[DEAD_LETTER_HEADERS.tombstone, "true"]] : []),
  ]) as Record<string, string>;
  return {
    ...(message.key === undefined ? {} : { key: message.key }),
    value: message.value ?? new Uint8Array(0),
    headers,
  };
}

/** Reads the dead-letter headers back; `undefined` when the record is not a dead letter. */
export function readDeadLetterHeaders(
  headers: Readonly<Record<string, string>>,
): DeadLetterInfo | undefined {
  const reason = headers[DEAD_LETTER_HEADERS.reason];
  const topic = headers[DEAD_LETTER_HEADERS.topic];
  const partition = Number(headers[DEAD_LETTER_HEADERS.partition]);
  const offset = headers[DEAD_LETTER_HEADERS.offset];
  const at = headers[DEAD_LETTER_HEADERS.at];
  if (reason === undefined || topic === undefined || offset === undefined || at === undefined)
    return undefined;
  if (!Number.isInteger(partition)) return undefined;
  return {
    reason,
    topic,
    partition,
    offset,
    at,
    tombstone: headers[DEAD_LETTER_HEADERS.tombstone] === "true",
  };
}
