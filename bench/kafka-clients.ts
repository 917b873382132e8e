// kafkajs (what @xzatoma/xzepr's transport uses) against @platformatic/kafka on a real
// broker: tools/kafka/start.sh on a free port of 127.0.0.1 with a throw-away data directory.
// For each client, runs interleaved and medians taken:
//   - produce: MESSAGES small messages (100 bytes), acks=all, sent in batches of BATCH;
//   - consume: a new consumer group reading them from the beginning, one message at a time
//     (kafkajs eachMessage, platformatic's stream): the rate from the first message to the
//     last, and the time from creating the consumer to its first message (joining the group);
//   - round trip: ROUND_TRIPS messages one at a time, each produced (acks=all) and awaited at
//     a running consumer before the next, p50 and p99;
// then each package's installed size with its dependency closure, and whether its API has
// what the transport needs (a transaction carrying the consumed offsets).
//
//   node bench/kafka-clients.ts
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  Admin as PlatformaticAdmin,
  Consumer as PlatformaticConsumer,
  MessagesStreamModes,
  ProduceAcks,
  Producer as PlatformaticProducer,
} from "@platformatic/kafka";
import type * as KafkaJs from "kafkajs";
import { startTestBroker } from "../tools/scripted-servers/kafka-broker.ts";
import { median, ROOT } from "./measure.ts";

const MESSAGES = 20_000;
const BATCH = 500;
const ROUND_TRIPS = 500;
const RUNS = 3;
const VALUE = Buffer.alloc(100, "x");

// kafkajs is a dependency of @xzatoma/xzepr, not of the workspace root.
const requireFromXzepr = createRequire(path.join(ROOT, "packages", "xzepr", "package.json"));
const { Kafka, logLevel } = requireFromXzepr("kafkajs") as typeof KafkaJs;

interface Consumed {
  readonly firstMs: number;
  readonly spanMs: number;
}

interface ClientBench {
  readonly name: string;
  /** Produces MESSAGES to `topic`; resolves with the wall time in ms. */
  produce(topic: string): Promise<number>;
  /**
   * Reads MESSAGES from the beginning of `topic` in a new group: ms from the consumer's
   * creation to the first message (joining the group), and from the first to the last.
   */
  consume(topic: string): Promise<Consumed>;
  /** ROUND_TRIPS produce-then-receive latencies in ms. */
  roundTrips(topic: string): Promise<number[]>;
  close(): Promise<void>;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function batches<T>(count: number, make: (i: number) => T): T[][] {
  const all: T[][] = [];
  for (let start = 0; start < count; start += BATCH) {
    all.push(Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => make(start + i)));
  }
  return all;
}

/** Pairs each produced index with its arrival at the consumer. */
class Arrivals {
  private readonly waiting = new Map<number, () => void>();
  private readonly arrived = new Set<number>();
  wait(index: number): Promise<void> {
    if (this.arrived.delete(index)) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(index, resolve));
  }
  arrive(index: number): void {
    const resolve = this.waiting.get(index);
    if (resolve) {
      this.waiting.delete(index);
      resolve();
    } else this.arrived.add(index);
  }
}

function kafkaJsBench(bootstrap: string): ClientBench {
  const kafka = new Kafka({ clientId: "bench", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  let connected: Promise<void> | undefined;
  const ready = () => (connected ??= producer.connect());
  return {
    name: "kafkajs 2.2.4",
    async produce(topic) {
      await ready();
      const started = performance.now();
      for (const messages of batches(MESSAGES, (i) => ({ key: `k${i % 16}`, value: VALUE }))) {
        await producer.send({ topic, acks: -1, messages });
      }
      return performance.now() - started;
    },
    async consume(topic) {
      const created = performance.now();
      const consumer = kafka.consumer({ groupId: `bench-${topic}-${Math.random()}` });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let count = 0;
      let first = 0;
      const done = new Promise<Consumed>((resolve) => {
        void consumer.run({
          eachMessage: async () => {
            if (count === 0) first = performance.now();
            count += 1;
            if (count === MESSAGES) {
              resolve({ firstMs: first - created, spanMs: performance.now() - first });
            }
          },
        });
      });
      const consumed = await done;
      await consumer.disconnect();
      return consumed;
    },
    async roundTrips(topic) {
      await ready();
      const consumer = kafka.consumer({ groupId: `bench-rt-${topic}` });
      const arrivals = new Arrivals();
      await consumer.connect();
      // A new, empty topic: from the beginning, nothing is missed while the group forms.
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => arrivals.arrive(Number(message.value!.toString())),
      });
      // Message -1 warms up: it arrives once the group has formed and the consumer reads.
      const latencies: number[] = [];
      for (let i = -1; i < ROUND_TRIPS; i += 1) {
        const started = performance.now();
        await producer.send({ topic, acks: -1, messages: [{ value: String(i) }] });
        await arrivals.wait(i);
        if (i >= 0) latencies.push(performance.now() - started);
      }
      await consumer.disconnect();
      return latencies;
    },
    async close() {
      await producer.disconnect();
    },
  };
}

function platformaticBench(bootstrap: string): ClientBench {
  const producer = new PlatformaticProducer({
    clientId: "bench",
    bootstrapBrokers: [bootstrap],
    autocreateTopics: false,
  });
  return {
    name: "@platformatic/kafka 2.12.1",
    async produce(topic) {
      const started = performance.now();
      for (const messages of batches(MESSAGES, (i) => ({
        topic,
        key: Buffer.from(`k${i % 16}`),
        value: VALUE,
      }))) {
        await producer.send({ messages, acks: ProduceAcks.ALL });
      }
      return performance.now() - started;
    },
    async consume(topic) {
      const created = performance.now();
      const consumer = new PlatformaticConsumer({
        clientId: "bench",
        bootstrapBrokers: [bootstrap],
        groupId: `bench-${topic}-${Math.random()}`,
      });
      const stream = await consumer.consume({
        topics: [topic],
        mode: MessagesStreamModes.EARLIEST,
        autocommit: true,
      });
      let count = 0;
      let first = 0;
      const consumed = await new Promise<Consumed>((resolve) => {
        stream.on("data", () => {
          if (count === 0) first = performance.now();
          count += 1;
          if (count === MESSAGES) {
            resolve({ firstMs: first - created, spanMs: performance.now() - first });
          }
        });
      });
      await stream.close();
      await consumer.close(true);
      return consumed;
    },
    async roundTrips(topic) {
      const consumer = new PlatformaticConsumer({
        clientId: "bench",
        bootstrapBrokers: [bootstrap],
        groupId: `bench-rt-${topic}`,
      });
      const arrivals = new Arrivals();
      const stream = await consumer.consume({
        topics: [topic],
        mode: MessagesStreamModes.EARLIEST,
        autocommit: true,
      });
      stream.on("data", (message) => arrivals.arrive(Number(message.value.toString())));
      const latencies: number[] = [];
      for (let i = -1; i < ROUND_TRIPS; i += 1) {
        const started = performance.now();
        await producer.send({
          messages: [{ topic, value: Buffer.from(String(i)) }],
          acks: ProduceAcks.ALL,
        });
        await arrivals.wait(i);
        if (i >= 0) latencies.push(performance.now() - started);
      }
      await stream.close();
      await consumer.close(true);
      return latencies;
    },
    async close() {
      await producer.close();
    },
  };
}

/** Bytes of a package and every package it depends on, each counted once (real paths). */
function closureBytes(from: string, name: string): { bytes: number; packages: number } {
  const seen = new Set<string>();
  const visit = (requireFrom: string, dependency: string) => {
    let manifest: string;
    try {
      manifest = createRequire(requireFrom).resolve(`${dependency}/package.json`);
    } catch {
      // A package whose exports hide package.json: find its directory by walking up.
      try {
        let directory = path.dirname(createRequire(requireFrom).resolve(dependency));
        while (!readdirSync(directory).includes("package.json"))
          directory = path.dirname(directory);
        manifest = path.join(directory, "package.json");
      } catch {
        return; // an optional dependency that is not installed
      }
    }
    const directory = realpathSync(path.dirname(manifest));
    if (seen.has(directory)) return;
    seen.add(directory);
    const json = JSON.parse(readFileSync(manifest, "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const next of Object.keys({ ...json.dependencies, ...json.optionalDependencies })) {
      visit(manifest, next);
    }
  };
  visit(from, name);
  const size = (directory: string): number => {
    let total = 0;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") total += size(full);
      } else if (entry.isFile()) total += statSync(full).size;
    }
    return total;
  };
  return {
    bytes: [...seen].reduce((sum, directory) => sum + size(directory), 0),
    packages: seen.size,
  };
}

const broker = await startTestBroker();
const admin = new PlatformaticAdmin({ clientId: "bench", bootstrapBrokers: [broker.bootstrap] });
const clients = [kafkaJsBench(broker.bootstrap), platformaticBench(broker.bootstrap)];
const results = new Map(
  clients.map((client) => [
    client.name,
    {
      produce: [] as number[],
      consume: [] as number[],
      firstMessage: [] as number[],
      latencies: [] as number[],
    },
  ]),
);
try {
  let topicCount = 0;
  const newTopic = async () => {
    const topic = `bench-${process.pid}-${topicCount++}`;
    await admin.createTopics({ topics: [topic], partitions: 3, replicas: 1 });
    return topic;
  };
  for (let run = 0; run < RUNS; run += 1) {
    // Alternate which client goes first, so neither always meets a warmer broker.
    const order = run % 2 === 0 ? clients : [...clients].reverse();
    for (const client of order) {
      const topic = await newTopic();
      const result = results.get(client.name)!;
      result.produce.push(await client.produce(topic));
      const consumed = await client.consume(topic);
      result.consume.push(consumed.spanMs);
      result.firstMessage.push(consumed.firstMs);
    }
  }
  for (const client of clients) {
    results.get(client.name)!.latencies = await client.roundTrips(await newTopic());
  }

  const rate = (ms: number) => `${Math.round(MESSAGES / (ms / 1000)).toLocaleString("en")} msg/s`;
  console.log(
    `kafka clients on Apache Kafka (tools/kafka, ${broker.bootstrap}), ${MESSAGES} messages of ${VALUE.length} B, acks=all, medians of ${RUNS}`,
  );
  const rows = [
    ["client", "produce", "consume", "1st message", "round trip p50", "p99", "installed"],
  ];
  const sizes = {
    "kafkajs 2.2.4": closureBytes(path.join(ROOT, "packages", "xzepr", "package.json"), "kafkajs"),
    "@platformatic/kafka 2.12.1": closureBytes(
      path.join(ROOT, "package.json"),
      "@platformatic/kafka",
    ),
  } as Record<string, { bytes: number; packages: number }>;
  for (const client of clients) {
    const result = results.get(client.name)!;
    const size = sizes[client.name]!;
    rows.push([
      client.name,
      rate(median(result.produce)),
      rate(median(result.consume)),
      `${median(result.firstMessage).toFixed(0)} ms`,
      `${percentile(result.latencies, 50).toFixed(1)} ms`,
      `${percentile(result.latencies, 99).toFixed(1)} ms`,
      `${(size.bytes / 1e6).toFixed(1)} MB, ${size.packages} packages`,
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) {
    console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")}`);
  }
  console.log(
    "  transactions with consumed offsets: kafkajs transaction.sendOffsets; platformatic producer.beginTransaction + transaction.addConsumer/addOffset",
  );
} finally {
  await Promise.allSettled(clients.map((client) => client.close()));
  await admin.close();
  await broker.stop();
}
