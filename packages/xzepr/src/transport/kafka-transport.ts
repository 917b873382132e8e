import { randomUUID } from "node:crypto";
import {
  Kafka,
  logLevel,
  type Admin,
  type Consumer,
  type IHeaders,
  type KafkaConfig,
  type LogEntry,
  type Producer,
  type SASLOptions,
} from "kafkajs";
import type {
  ConsumeOptions,
  EventTransport,
  InboundMessage,
  TopicRecords,
  TopicSpec,
} from "./event-transport.js";

/** Kafka's security protocols. */
export type KafkaSecurityProtocol = "PLAINTEXT" | "SSL" | "SASL_PLAINTEXT" | "SASL_SSL";
/** SASL mechanisms. */
export type KafkaSaslMechanism = "PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512";

/** How to reach a secured cluster. */
export interface KafkaSecurity {
  readonly protocol: KafkaSecurityProtocol;
  readonly saslMechanism?: KafkaSaslMechanism;
  readonly saslUsername?: string;
  /** Default: `KAFKA_SASL_PASSWORD` from `env`. */
  readonly saslPassword?: string;
  /** PEM text for TLS (`SSL`, `SASL_SSL`). */
  readonly ssl?: {
    readonly ca?: string;
    readonly cert?: string;
    readonly key?: string;
    readonly rejectUnauthorized?: boolean;
  };
}

/** A log line from the Kafka client. */
export type KafkaLogger = (
  level: "error" | "warn" | "info" | "debug",
  message: string,
  fields: Readonly<Record<string, unknown>>,
) => void;

/** Options of {@link createKafkaTransport}. */
export interface KafkaTransportOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly security?: KafkaSecurity;
  /** Where `KAFKA_SASL_PASSWORD` is read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Publish each message's records and commit its offset in one Kafka transaction (default
   * true): a consumer of the output topic reading `read_committed` sees a result once, even
   * when this process dies between the two.
   */
  readonly transactional?: boolean;
  /** How long the group waits for a silent member. Default 30 s. */
  readonly sessionTimeoutMs?: number;
  readonly logger?: KafkaLogger;
}

/** The marker `isXzatomaError` in `@xzatoma/core` recognises across packages. */
const XZATOMA_ERROR = Symbol.for("xzatoma.error");

/** An invalid Kafka setting, named by its configuration key. */
export class KafkaConfigError extends Error {
  readonly [XZATOMA_ERROR] = true;
  readonly code = "CONFIG_INVALID";
  override readonly name = "KafkaConfigError";
}

function saslOf(options: KafkaTransportOptions): SASLOptions | undefined {
  const security = options.security;
  if (!security || !security.protocol.startsWith("SASL_")) return undefined;
  const mechanism = security.saslMechanism ?? "PLAIN";
  if (!security.saslUsername) {
    throw new KafkaConfigError(
      "watcher.kafka.security.sasl_username is required when the protocol uses SASL.",
    );
  }
  const password = security.saslPassword ?? (options.env ?? process.env)["KAFKA_SASL_PASSWORD"];
  if (!password) {
    throw new KafkaConfigError(
      "The SASL password is not set: put it in KAFKA_SASL_PASSWORD (it never lives in the configuration file).",
    );
  }
  const username = security.saslUsername;
  switch (mechanism) {
    case "PLAIN":
      return { mechanism: "plain", username, password };
    case "SCRAM-SHA-256":
      return { mechanism: "scram-sha-256", username, password };
    case "SCRAM-SHA-512":
      return { mechanism: "scram-sha-512", username, password };
  }
}

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined) continue;
    result[name] = typeof first === "string" ? first : first.toString("utf8");
  }
  return result;
}

function toKafkaMessages(batch: TopicRecords) {
  return batch.records.map((record) => ({
    ...(record.key !== undefined ? { key: record.key } : {}),
    value: typeof record.value === "string" ? record.value : Buffer.from(record.value),
    ...(record.headers ? { headers: { ...record.headers } } : {}),
  }));
}

/** A mutex: one transaction at a time on the transactional producer. */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * The {@link EventTransport} on Apache Kafka, through kafkajs. One consumer in the group,
 * offsets committed by hand after each handled message (never automatically), the
 * message's records and its offset in one transaction, and a broker that goes away retried
 * rather than fatal.
 */
export function createKafkaTransport(options: KafkaTransportOptions): EventTransport {
  const sasl = saslOf(options);
  const security = options.security;
  const tls = security?.protocol === "SSL" || security?.protocol === "SASL_SSL";
  const log = options.logger;
  const config: KafkaConfig = {
    clientId: options.clientId,
    brokers: [...options.brokers],
    ...(tls ? { ssl: security.ssl ? { ...security.ssl } : true } : {}),
    ...(sasl ? { sasl } : {}),
    retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 12 },
    logLevel: log ? logLevel.INFO : logLevel.NOTHING,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        if (!log) return;
        const { message, ...fields } = entry;
        const name = level <= logLevel.ERROR ? "error" : level === logLevel.WARN ? "warn" : "info";
        log(name, message, fields);
      },
  };
  const kafka = new Kafka(config);
  const transactional = options.transactional ?? true;
  let admin: Admin | undefined;
  let plain: Producer | undefined;
  let txProducer: Producer | undefined;
  let consumer: Consumer | undefined;
  let consumed: ConsumeOptions | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const inFlight = new Set<AbortController>();
  const oneAtATime = serial();

  const adminClient = async () => {
    if (!admin) {
      admin = kafka.admin();
      await admin.connect();
    }
    return admin;
  };
  const plainProducer = async () => {
    if (!plain) {
      plain = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await plain.connect();
    }
    return plain;
  };

  const commit = async (
    groupId: string,
    topic: string,
    partition: number,
    next: string,
    publish: readonly TopicRecords[],
  ) => {
    const records = publish.filter((batch) => batch.records.length > 0);
    if (transactional && txProducer) {
      const producer = txProducer;
      await oneAtATime(async () => {
        const transaction = await producer.transaction();
        try {
          for (const batch of records)
            await transaction.send({
              topic: batch.topic,
              messages: toKafkaMessages(batch),
              acks: -1,
            });
          await transaction.sendOffsets({
            consumerGroupId: groupId,
            topics: [{ topic, partitions: [{ partition, offset: next }] }],
          });
          await transaction.commit();
        } catch (error) {
          await transaction.abort().catch(() => undefined);
          throw error;
        }
      });
      return;
    }
    if (records.length > 0) {
      const producer = await plainProducer();
      await producer.sendBatch({
        acks: -1,
        topicMessages: records.map((batch) => ({
          topic: batch.topic,
          messages: toKafkaMessages(batch),
        })),
      });
    }
    await consumer?.commitOffsets([{ topic, partition, offset: next }]);
  };

  return {
    async ensureTopics(specs: readonly TopicSpec[]) {
      const client = await adminClient();
      const existing = new Set(await client.listTopics());
      const missing = specs.filter((spec) => !existing.has(spec.topic));
      if (missing.length === 0) return;
      await client.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.topic,
          numPartitions: spec.numPartitions,
          replicationFactor: spec.replicationFactor,
        })),
      });
    },

    async consume(consume) {
      if (consumer) throw new Error("This Kafka transport already consumes a topic.");
      consumed = consume;
      if (transactional) {
        txProducer = kafka.producer({
          transactionalId: `${consume.groupId}-${randomUUID()}`,
          idempotent: true,
          maxInFlightRequests: 1,
        });
        await txProducer.connect();
      }
      const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
      consumer = kafka.consumer({
        groupId: consume.groupId,
        sessionTimeout,
        heartbeatInterval: Math.max(500, Math.floor(sessionTimeout / 10)),
        readUncommitted: false,
        retry: {
          initialRetryTime: 300,
          maxRetryTime: 10_000,
          retries: 12,
          // A broker that went away is waited for; only what cannot heal is fatal.
          restartOnFailure: async () => !stopping,
        },
      });
      const current = consumer;
      current.on(current.events.CRASH, (event) => {
        const { error, restart } = event.payload as { error: Error; restart: boolean };
        if (!restart && !stopping) consume.onFatal?.(error);
      });
      await current.connect();
      await current.subscribe({ topic: consume.topic, fromBeginning: true });
      await current.run({
        autoCommit: false,
        partitionsConsumedConcurrently: Math.max(1, consume.concurrency),
        eachMessage: async ({ topic, partition, message, heartbeat }) => {
          // Not committed: it comes again, to this member or to another.
          if (stopping) throw new Error("The transport is stopping.");
          const inbound: InboundMessage = {
            topic,
            partition,
            offset: message.offset,
            key: message.key === null ? undefined : message.key.toString("utf8"),
            value: message.value === null ? null : new Uint8Array(message.value),
            headers: textHeaders(message.headers),
            timestamp: Number(message.timestamp),
          };
          const controller = new AbortController();
          inFlight.add(controller);
          // Long runs keep the membership alive.
          const beat = setInterval(
            () => {
              heartbeat().catch(() => undefined);
            },
            Math.max(500, Math.floor(sessionTimeout / 3)),
          );
          try {
            const outcome = await consume.handler(inbound, controller.signal);
            const next = (BigInt(message.offset) + 1n).toString();
            await commit(consume.groupId, topic, partition, next, outcome.publish);
          } finally {
            clearInterval(beat);
            inFlight.delete(controller);
          }
        },
      });
    },

    async publish(batch) {
      const producer = await plainProducer();
      await producer.send({ topic: batch.topic, messages: toKafkaMessages(batch), acks: -1 });
    },

    async lag() {
      if (!consumed) return 0;
      const client = await adminClient();
      const [ends, committed] = await Promise.all([
        client.fetchTopicOffsets(consumed.topic),
        client.fetchOffsets({ groupId: consumed.groupId, topics: [consumed.topic] }),
      ]);
      const done = new Map<number, bigint>();
      for (const entry of committed) {
        for (const part of entry.partitions) done.set(part.partition, BigInt(part.offset));
      }
      let total = 0n;
      for (const end of ends) {
        const low = BigInt(end.low);
        const at = done.get(end.partition) ?? -1n;
        const from = at < low ? low : at;
        const left = BigInt(end.high) - from;
        if (left > 0n) total += left;
      }
      return Number(total);
    },

    stop(graceMs) {
      stopped ??= (async () => {
        stopping = true;
        const stopping$ = consumer?.stop() ?? Promise.resolve();
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        });
        await Promise.race([stopping$, grace]);
        clearTimeout(timer);
        for (const controller of inFlight) controller.abort(new Error("The watcher is stopping."));
        await stopping$.catch(() => undefined);
        await Promise.allSettled([
          consumer?.disconnect(),
          txProducer?.disconnect(),
          plain?.disconnect(),
          admin?.disconnect(),
        ]);
      })();
      return stopped;
    },
  };
}
