// The kafkajs transport against a real Apache Kafka broker (tools/kafka, started once for
// this file on a free port of 127.0.0.1). No timing is asserted: every wait is for a
// condition, with a deadline generous enough for a loaded two-core machine.
import { randomUUID } from "node:crypto";
import { freePort, startTestBroker, type TestBroker } from "@xzatoma/scripted-servers/kafka";
import kafkajs from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type {
  EventTransport,
  InboundMessage,
  MessageHandler,
  TopicRecords,
} from "./event-transport.js";
import {
  createKafkaTransport,
  isKafkaTransportError,
  type KafkaTransportOptions,
} from "./kafka-transport.js";

const { Kafka, logLevel, Partitioners } = kafkajs;
const DEADLINE_MS = 90_000;

let broker: TestBroker;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  broker = await startTestBroker();
}, 300_000);

afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((cleanup) => cleanup()));
}, 120_000);

afterAll(async () => {
  await broker?.stop();
}, 120_000);

/** Kafka client log lines of the test, shown only when a wait fails. */
const logLines: string[] = [];

function transport(options: Partial<KafkaTransportOptions> = {}): EventTransport {
  const created = createKafkaTransport({
    brokers: [broker.bootstrap],
    clientId: "xzepr-test",
    logLevel: "warn",
    logger: (level, message, fields) =>
      logLines.push(`${level} ${message} ${JSON.stringify(fields.error ?? "")}`),
    retry: { initialRetryTimeMs: 200, maxRetryTimeMs: 3000, retries: 8 },
    redeliveryDelayMs: 100,
    ...options,
  });
  cleanups.push(() => created.stop(0));
  return created;
}

function names(label: string) {
  const id = randomUUID().slice(0, 8);
  return { topic: `${label}-${id}`, output: `${label}-${id}.results`, groupId: `${label}-g-${id}` };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}\n${logLines.slice(-30).join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const text = (message: InboundMessage) => new TextDecoder().decode(message.value ?? undefined);

function records(topic: string, values: readonly string[], key?: (i: number) => string) {
  return {
    topic,
    records: values.map((value, i) => ({ value, ...(key ? { key: key(i) } : {}) })),
  } satisfies TopicRecords;
}

/** A key the producer's default partitioner puts on `partition` of a `partitions`-partition topic. */
function keyFor(partition: number, partitions: number): string {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
  }));
  for (let i = 0; ; i += 1) {
    const key = `marker-${i}`;
    if (partitioner({ topic: "any", partitionMetadata, message: { key, value: "" } }) === partition)
      return key;
  }
}

/** Reads a topic from the beginning as `read_committed`, in a group of its own. */
async function readTopic(topic: string): Promise<{ values: string[] }> {
  const kafka = new Kafka({
    brokers: [broker.bootstrap],
    clientId: "xzepr-test-reader",
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `reader-${randomUUID()}`, readUncommitted: false });
  const seen = { values: [] as string[] };
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      seen.values.push(message.value?.toString("utf8") ?? "");
    },
  });
  cleanups.push(() => consumer.disconnect());
  return seen;
}

describe("createKafkaTransport on a real broker", { timeout: 240_000 }, () => {
  it("says which broker it could not reach", async () => {
    const nobody = `127.0.0.1:${await freePort()}`;
    const kafka = transport({
      brokers: [nobody],
      retry: { initialRetryTimeMs: 50, maxRetryTimeMs: 100, retries: 1 },
    });
    const failure = await kafka
      .consume({
        topic: "any",
        groupId: "any",
        concurrency: 1,
        handler: async () => ({ publish: [] }),
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isKafkaTransportError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "KAFKA_UNAVAILABLE" });
    expect((failure as Error).message).toContain(`could not reach Kafka at ${nobody}`);
  });

  it("checkConnection answers when a broker does, and names the brokers when none does", async () => {
    await transport().checkConnection?.(30_000);
    const nobody = `127.0.0.1:${await freePort()}`;
    const failure = await transport({ brokers: [nobody] })
      .checkConnection?.(30_000)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isKafkaTransportError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "KAFKA_UNAVAILABLE" });
    expect((failure as Error).message).toContain(`could not reach Kafka at ${nobody}`);
  });

  it("readTopic reads a topic's committed records from its beginning, every time it is asked", async () => {
    const { topic, output, groupId } = names("read");
    const kafka = transport();
    await kafka.ensureTopics([
      { topic, numPartitions: 1, replicationFactor: 1 },
      { topic: output, numPartitions: 2, replicationFactor: 1 },
    ]);
    expect(await kafka.readTopic?.(output, { idleMs: 500 })).toEqual([]);
    // Results written in transactions (with their commit markers), on two partitions.
    await kafka.publish(records(topic, ["a", "b", "c"]));
    await kafka.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: async (message) => ({
        publish: [
          {
            topic: output,
            records: [
              { key: `k-${text(message)}`, value: `result ${text(message)}`, headers: { h: "1" } },
            ],
          },
        ],
      }),
    });
    const reader = transport();
    await waitFor(
      "three results",
      async () => ((await reader.readTopic?.(output, { idleMs: 500 })) ?? []).length === 3,
    );
    const read = (await reader.readTopic?.(output)) ?? [];
    expect(read.map(text).sort()).toEqual(["result a", "result b", "result c"]);
    expect(read[0]).toMatchObject({ topic: output, headers: { h: "1" } });
    expect((await reader.readTopic?.(output, { limit: 2 }))?.length).toBe(2);
  });

  it("round-trips a published message with its key, headers and bytes", async () => {
    const { topic, groupId } = names("roundtrip");
    const kafka = transport();
    const spec = { topic, numPartitions: 1, replicationFactor: 1 };
    await kafka.ensureTopics([spec]);
    await kafka.ensureTopics([spec]); // an existing topic is fine
    await kafka.publish({
      topic,
      records: [
        {
          key: "event-1",
          value: '{"id":"1"}',
          headers: { "content-type": "application/json", ce_type: "build.done" },
        },
        { value: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) },
      ],
    });

    const seen: InboundMessage[] = [];
    await kafka.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: async (message) => {
        seen.push(message);
        return { publish: [] };
      },
    });
    await waitFor("both messages", () => seen.length >= 2);
    const [first, second] = seen;
    expect(first).toMatchObject({
      topic,
      partition: 0,
      offset: "0",
      key: "event-1",
      headers: { "content-type": "application/json", ce_type: "build.done" },
    });
    expect(text(first!)).toBe('{"id":"1"}');
    expect(first!.timestamp).toBeGreaterThan(Date.UTC(2020, 0, 1));
    expect(second).toMatchObject({ offset: "1", key: undefined, headers: {} });
    expect([...second!.value!]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    await waitFor("the group to have committed both", async () => (await kafka.lag()) === 0);
    expect(seen).toHaveLength(2);
  });

  it("delivers a rejected message again, and the ones after it only once it succeeds", async () => {
    const { topic, groupId } = names("reject");
    const kafka = transport();
    await kafka.ensureTopics([{ topic, numPartitions: 1, replicationFactor: 1 }]);
    await kafka.publish(records(topic, ["a", "b"]));
    const calls: string[] = [];
    let rejections = 0;
    await kafka.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: async (message) => {
        calls.push(`${text(message)}@${message.offset}`);
        if (text(message) === "a" && rejections < 2) {
          rejections += 1;
          throw new Error("not yet");
        }
        return { publish: [] };
      },
    });
    await waitFor("b to be handled", () => calls.includes("b@1"));
    await waitFor("everything committed", async () => (await kafka.lag()) === 0);
    expect(calls).toEqual(["a@0", "a@0", "a@0", "b@1"]);
  });

  it("publishes a handled message's records and commits it: the group's next member starts after it", async () => {
    const { topic, output, groupId } = names("outcome");
    const first = transport();
    await first.ensureTopics([
      { topic, numPartitions: 1, replicationFactor: 1 },
      { topic: output, numPartitions: 1, replicationFactor: 1 },
    ]);
    await first.publish(records(topic, ["1", "2", "3", "4", "5"]));
    let handled = 0;
    const handler: MessageHandler = async (message) => {
      handled += 1;
      return { publish: [records(output, [`result-${text(message)}`])] };
    };
    await first.consume({ topic, groupId, concurrency: 1, handler });
    await waitFor("five messages handled", () => handled >= 5);
    await waitFor("the offsets committed", async () => (await first.lag()) === 0);
    await first.stop(10_000);

    const results = await readTopic(output);
    await waitFor("five results", () => results.values.length >= 5);
    expect(results.values).toEqual(["result-1", "result-2", "result-3", "result-4", "result-5"]);

    // A later member of the group: nothing before the sentinel comes again.
    const second = transport();
    const seenBySecond: string[] = [];
    await second.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: async (message) => {
        seenBySecond.push(text(message));
        return { publish: [] };
      },
    });
    await second.publish(records(topic, ["sentinel"]));
    await waitFor("the sentinel", () => seenBySecond.includes("sentinel"));
    expect(seenBySecond).toEqual(["sentinel"]);
  });

  it("keeps each partition's order while handling two partitions at once", async () => {
    const { topic, groupId } = names("order");
    const kafka = transport();
    await kafka.ensureTopics([{ topic, numPartitions: 4, replicationFactor: 1 }]);
    const keys = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    const perKey = 15;
    const values = Array.from({ length: perKey * keys.length }, (_, i) => {
      return `${keys[i % keys.length]}:${Math.floor(i / keys.length)}`;
    });
    await kafka.publish(records(topic, values, (i) => keys[i % keys.length]!));

    const order = new Map<string, number[]>();
    const busy = new Map<number, number>();
    let running = 0;
    let mostRunning = 0;
    let overlapInPartition = false;
    await kafka.consume({
      topic,
      groupId,
      concurrency: 2,
      handler: async (message) => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        busy.set(message.partition, (busy.get(message.partition) ?? 0) + 1);
        if (busy.get(message.partition)! > 1) overlapInPartition = true;
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 5)));
        const [key, seq] = text(message).split(":");
        order.set(key!, [...(order.get(key!) ?? []), Number(seq)]);
        busy.set(message.partition, busy.get(message.partition)! - 1);
        running -= 1;
        return { publish: [] };
      },
    });
    await waitFor("every message", () =>
      keys.every((key) => (order.get(key)?.length ?? 0) >= perKey),
    );
    for (const key of keys) {
      expect(order.get(key), key).toEqual(Array.from({ length: perKey }, (_, i) => i));
    }
    expect(overlapInPartition).toBe(false);
    expect(mostRunning).toBeLessThanOrEqual(2);
  });

  it("transactional: a read_committed reader sees each result once, rejections and a hand-over included", async () => {
    const { topic, output, groupId } = names("exactly-once");
    const first = transport();
    await first.ensureTopics([
      { topic, numPartitions: 2, replicationFactor: 1 },
      { topic: output, numPartitions: 2, replicationFactor: 1 },
    ]);
    const inputs = Array.from({ length: 40 }, (_, i) => `m${i}`);
    await first.publish(records(topic, inputs, (i) => `key-${i % 7}`));
    const rejectedOnce = new Set<string>();
    let handledByFirst = 0;
    const handler =
      (count: () => void): MessageHandler =>
      async (message) => {
        const value = text(message);
        // Every fifth message fails once first: the redelivery must not add a result.
        if (Number(value.slice(1)) % 5 === 0 && !rejectedOnce.has(value)) {
          rejectedOnce.add(value);
          throw new Error("transient");
        }
        count();
        return {
          publish: [{ topic: output, records: [{ key: message.key, value: `result-${value}` }] }],
        };
      };
    await first.consume({
      topic,
      groupId,
      concurrency: 2,
      handler: handler(() => (handledByFirst += 1)),
    });
    await waitFor("some messages handled", () => handledByFirst >= 15);
    await first.stop(30_000);

    // The next member of the group takes over from the committed offsets.
    const second = transport();
    await second.consume({ topic, groupId, concurrency: 2, handler: handler(() => undefined) });
    await waitFor("the group to catch up", async () => (await second.lag()) === 0);

    // An end marker on each partition: once both arrive, a duplicate would have arrived too.
    const results = await readTopic(output);
    await second.publish(records(output, ["end", "end"], (i) => keyFor(i, 2)));
    await waitFor("every result and both end markers", () => {
      const distinct = new Set(results.values.filter((value) => value !== "end"));
      return (
        distinct.size >= inputs.length && results.values.filter((v) => v === "end").length >= 2
      );
    });
    const counts = new Map<string, number>();
    for (const value of results.values) counts.set(value, (counts.get(value) ?? 0) + 1);
    counts.delete("end");
    expect([...counts.keys()].sort()).toEqual(inputs.map((value) => `result-${value}`).sort());
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });

  it("stop aborts a handler still running after the grace, and the next member gets its message", async () => {
    const { topic, groupId } = names("grace");
    const first = transport();
    await first.ensureTopics([{ topic, numPartitions: 1, replicationFactor: 1 }]);
    await first.publish(records(topic, ["slow"]));
    let started = false;
    let sawAbort = false;
    await first.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: (_message, signal) =>
        new Promise((_resolve, reject) => {
          started = true;
          signal.addEventListener("abort", () => {
            sawAbort = true;
            reject(signal.reason);
          });
        }),
    });
    await waitFor("the slow handler to start", () => started);
    await first.stop(200);
    expect(sawAbort).toBe(true);
    await first.stop(200); // idempotent

    const second = transport();
    const seen: string[] = [];
    await second.consume({
      topic,
      groupId,
      concurrency: 1,
      handler: async (message) => {
        seen.push(`${text(message)}@${message.offset}`);
        return { publish: [] };
      },
    });
    await waitFor("the message again", () => seen.length >= 1);
    expect(seen).toEqual(["slow@0"]);
  });

  it("loses nothing when the broker restarts mid-stream", async () => {
    const { topic, output, groupId } = names("restart");
    const kafka = transport();
    await kafka.ensureTopics([
      { topic, numPartitions: 2, replicationFactor: 1 },
      { topic: output, numPartitions: 2, replicationFactor: 1 },
    ]);
    const before = Array.from({ length: 30 }, (_, i) => `b${i}`);
    const after = Array.from({ length: 30 }, (_, i) => `a${i}`);
    await kafka.publish(records(topic, before, (i) => `key-${i % 5}`));
    const handled = new Set<string>();
    await kafka.consume({
      topic,
      groupId,
      concurrency: 2,
      handler: async (message) => {
        // Slow enough that the restart lands mid-stream (about 2 s of work before it).
        await new Promise((resolve) => setTimeout(resolve, 150));
        handled.add(text(message));
        return { publish: [records(output, [`result-${text(message)}`])] };
      },
    });
    await waitFor("a few messages handled", () => handled.size >= 5);
    await broker.restart();
    await kafka.publish(records(topic, after, (i) => `key-${i % 5}`));
    await waitFor("every message handled and committed", async () => {
      if (handled.size < before.length + after.length) return false;
      return (await kafka.lag()) === 0;
    });

    const results = await readTopic(output);
    const expected = [...before, ...after].map((value) => `result-${value}`).sort();
    await waitFor("every result", () => new Set(results.values).size >= expected.length);
    expect([...new Set(results.values)].sort()).toEqual(expected);
  });
});
