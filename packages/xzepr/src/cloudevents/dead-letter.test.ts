import { describe, expect, it } from "vitest";
import type { InboundMessage, OutboundRecord } from "../transport/event-transport.js";
import {
  DEAD_LETTER_HEADERS,
  MAX_DEAD_LETTER_REASON_LENGTH,
  readDeadLetterHeaders,
  toDeadLetterRecord,
} from "./dead-letter.js";

const origin = { topic: "xzepr.events", partition: 2, offset: "9007199254740993" };
const at = new Date("2026-03-01T10:00:00Z");

describe("toDeadLetterRecord", () => {
  it("keeps the key, the value bytes and the headers, and adds reason and origin", () => {
    const value = new Uint8Array([0x7b, 0xff, 0x00, 0x7d]);
    const record = toDeadLetterRecord(
      { key: "k1", value, headers: { ce_id: "1", traceparent: "t" } },
      "The message is not valid UTF-8 text.",
      origin,
      at,
    );
    expect(record.key).toBe("k1");
    expect(record.value).toBe(value);
    expect(record.headers).toEqual({
      ce_id: "1",
      traceparent: "t",
      "x-xzatoma-dlq-reason": "The message is not valid UTF-8 text.",
      "x-xzatoma-dlq-topic": "xzepr.events",
      "x-xzatoma-dlq-partition": "2",
      "x-xzatoma-dlq-offset": "9007199254740993",
      "x-xzatoma-dlq-at": "2026-03-01T10:00:00.000Z",
    });
    expect(readDeadLetterHeaders(record.headers)).toEqual({
      reason: "The message is not valid UTF-8 text.",
      ...origin,
      at: "2026-03-01T10:00:00.000Z",
      tombstone: false,
    });
  });

  it("bounds the reason to one line of at most 1000 characters, never splitting a character", () => {
    const long = `first line\nsecond\r\n${"😀".repeat(2000)}`;
    const reason = toDeadLetterRecord({ value: new Uint8Array([1]), headers: {} }, long, origin)
      .headers[DEAD_LETTER_HEADERS.reason]!;
    expect(reason.length).toBeLessThanOrEqual(MAX_DEAD_LETTER_REASON_LENGTH);
    expect(reason.startsWith("first line second ")).toBe(true);
    expect(reason.endsWith("😀…")).toBe(true);
    expect(reason).not.toMatch(/[\n\r]/);
  });

  it("takes a transport's inbound message and gives a record the transport publishes", () => {
    const inbound: InboundMessage = {
      topic: "xzepr.events",
      partition: 1,
      offset: "7",
      key: undefined,
      value: new Uint8Array([1, 2]),
      headers: {},
      timestamp: 0,
    };
    const outbound: OutboundRecord = toDeadLetterRecord(inbound, "bad", inbound, at);
    expect(outbound.headers?.["x-xzatoma-dlq-partition"]).toBe("1");
  });

  it("marks a tombstone, leaves out a missing key, and replaces the headers of an earlier round", () => {
    const first = toDeadLetterRecord({ value: null, headers: {} }, "empty", origin, at);
    expect(first).not.toHaveProperty("key");
    expect(first.value).toEqual(new Uint8Array(0));
    expect(readDeadLetterHeaders(first.headers)?.tombstone).toBe(true);
    const second = toDeadLetterRecord(
      { value: first.value, headers: { ...first.headers, "X-XZATOMA-DLQ-REASON": "shouting" } },
      "again",
      { topic: "xzepr.events.dlq", partition: 0, offset: "5" },
      at,
    );
    expect(second.headers).toEqual({
      "x-xzatoma-dlq-reason": "again",
      "x-xzatoma-dlq-topic": "xzepr.events.dlq",
      "x-xzatoma-dlq-partition": "0",
      "x-xzatoma-dlq-offset": "5",
      "x-xzatoma-dlq-at": "2026-03-01T10:00:00.000Z",
    });
    expect(readDeadLetterHeaders({ ce_id: "1" })).toBeUndefined();
  });
});
