import type { KafkaMessage } from "kafkajs";
import { describe, expect, it } from "vitest";
import { toHeaders, toInbound, toKafkaMessage, toTopicMessages } from "./kafka-records.js";

describe("Kafka records", () => {
  it("reads header bytes as UTF-8 text; of a repeated header the last value counts", () => {
    expect(
      toHeaders({
        "content-type": Buffer.from("application/json"),
        ce_type: "build.done",
        repeated: [Buffer.from("first"), "last"],
        missing: undefined,
        emoji: Buffer.from("r\u00e9sum\u00e9 \u2713"),
      }),
    ).toEqual({
      "content-type": "application/json",
      ce_type: "build.done",
      repeated: "last",
      emoji: "r\u00e9sum\u00e9 \u2713",
    });
    expect(toHeaders(undefined)).toEqual({});
  });

  it("keeps offsets as decimal text beyond 2^53 and an empty key apart from none", () => {
    const message = {
      offset: "9007199254740993",
      key: Buffer.alloc(0),
      value: null,
      headers: {},
      timestamp: "1700000000000",
      attributes: 0,
    } as unknown as KafkaMessage;
    expect(toInbound("events", 3, message)).toEqual({
      topic: "events",
      partition: 3,
      offset: "9007199254740993",
      key: "",
      value: null,
      headers: {},
      timestamp: 1_700_000_000_000,
    });
    expect(toInbound("events", 0, { ...message, key: null } as KafkaMessage).key).toBeUndefined();
  });

  it("sends bytes without copying them and leaves empty batches out", () => {
    const bytes = new Uint8Array([1, 2, 3, 4]).subarray(1, 3);
    const sent = toKafkaMessage({ value: bytes, headers: { a: "b" } });
    expect(Buffer.isBuffer(sent.value)).toBe(true);
    expect([...(sent.value as Buffer)]).toEqual([2, 3]);
    expect((sent.value as Buffer).buffer).toBe(bytes.buffer);
    expect(sent).toMatchObject({ key: null, headers: { a: "b" } });
    expect(
      toTopicMessages([
        { topic: "empty", records: [] },
        { topic: "results", records: [{ key: "k", value: "v" }] },
      ]),
    ).toEqual([{ topic: "results", messages: [{ key: "k", value: "v", headers: undefined }] }]);
  });
});
