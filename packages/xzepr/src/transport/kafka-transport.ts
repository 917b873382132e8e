/**
 * The {@link EventTransport} on Apache Kafka, through kafkajs.
 */
import { randomUUID } from "node:crypto";
import kafkajs from "kafkajs";
import type { Admin, Consumer, EachBatchPayload, Producer, RetryOptions } from "kafkajs";
import { createCommitBatcher, type CommitBatch, type CommitBatcher } from "./commit-batcher.js";
import type {
  ConsumeOptions,
  EventTransport,
  InboundMessage,
  MessageOutcome,
  ReadTopicOptions,
  TopicSpec,
} from "./event-transport.js";
import {
  createLevelLogger,
  kafkaJsLogCreator,
  stderrKafkaLogger,
  toKafkaJsLevel,
  type KafkaLogger,
  type KafkaLogLevel,
} from "./kafka-log.js";
import { toInbound, toTopicMessages } from "./kafka-records.js";
import { resolveKafkaSecurity, type KafkaSecurity } from "./kafka-security.js";
import {
  isAuthError,
  isFencedError,
  isLeaderChangeError,
  isRebalanceError,
  KafkaConfigError,
  KafkaTransportError,
  messageOf,
} from "./kafka-transport-error.js";

export type { KafkaLogger, KafkaLogLevel } from "./kafka-log.js";
export {
  KAFKA_SASL_PASSWORD_ENV,
  resolveKafkaSecurity,
  type KafkaSaslMechanism,
  type KafkaSecurity,
  type KafkaSecurityProtocol,
  type KafkaSslOptions,
  type ResolvedKafkaSecurity,
} from "./kafka-security.js";
export {
  isKafkaTransportError,
  KafkaConfigError,
  KafkaTransportError,
  type KafkaTransportErrorCode,
  type KafkaTransportErrorFields,
} from "./kafka-transport-error.js";

const { Kafka, Partitioners } = kafkajs;

/** How hard the client retries a broker that does not answer. */
export interface KafkaRetryOptions {
  /** First wait, doubled after each failure. Default 300 ms. */
  readonly initialRetryTimeMs?: number;
  /** Longest wait between two tries. Default 30 s. */
  readonly maxRetryTimeMs?: number;
  /**
   * Tries of one kafkajs request before it fails (default 8). A consumer whose requests keep
   * failing restarts itself, and the transport keeps retrying a result's publish-and-commit, so
   * a broker that is away for minutes loses nothing.
   */
  readonly retries?: number;
}

/** Options of {@link createKafkaTransport}. */
export interface KafkaTransportOptions {
  /** Bootstrap brokers, `host:port` each. */
  readonly brokers: readonly string[];
  /** Kafka client id (broker logs and quotas). Default `xzatoma`. */
  readonly clientId?: string;
  /** TLS and SASL; default PLAINTEXT. */
  readonly security?: KafkaSecurity;
  /** Where `KAFKA_SASL_PASSWORD` is read when `security.saslPassword` is not given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where these options sit in the configuration, for error messages. Default `watcher.kafka`. */
  readonly configPath?: string;
  /**
   * Default true: a handled message's records and its offset commit go in one Kafka
   * transaction, so a reader with `read_committed` sees each result once. False: records are
   * published (idempotent producer), then the offset is committed; a crash in between
   * publishes the result again on redelivery.
   */
  readonly transactional?: boolean;
  /**
   * This instance's stable identity in the group (Kafka's `group.instance.id`, static
   * membership): a restart with the same identity takes over its predecessor's partitions at
   * once, without a rebalance, and its transactional id (`<groupId>-<groupInstanceId>`) fences
   * the predecessor's producer and aborts the transaction it left open. One per replica; two
   * live processes with one identity fence each other. Default: none (a new member per start).
   */
  readonly groupInstanceId?: string;
  /**
   * Transactional id of this instance. Default `<groupId>-<groupInstanceId>`, or
   * `<groupId>-<random UUID>` without an identity.
   */
  readonly transactionalId?: string;
  /**
   * How long {@link EventTransport.stop} may take after its grace: half for aborted handlers
   * and a last commit, half for leaving the group. Whatever is not done by then is abandoned
   * (left uncommitted, delivered again). Default 10 s.
   */
  readonly stopTimeoutMs?: number;
  /** Receives the client's and the transport's log lines. Default: errors to stderr. */
  readonly logger?: KafkaLogger;
  /** Lowest level passed on. Default `info` with a `logger`, `error` without. */
  readonly logLevel?: KafkaLogLevel;
  readonly retry?: KafkaRetryOptions;
  /** Wait before a rejected message is delivered again, doubled per rejection in a row. Default 500 ms. */
  readonly redeliveryDelayMs?: number;
  /** Group session timeout (the member is gone when its heartbeats stop this long). Default 30 s. */
  readonly sessionTimeoutMs?: number;
  /** Heartbeat interval, kept up while a handler runs. Default 3 s (a third of a shorter session). */
  readonly heartbeatIntervalMs?: number;
  /**
   * How long the group waits for this member to re-join during a rebalance, which it does
   * once its running handlers finish: the longest handler run that survives a rebalance
   * (Java's `max.poll.interval.ms`). Default 5 min.
   */
  readonly rebalanceTimeoutMs?: number;
  /** A transaction left open by a crash is aborted after this long. Default 60 s. */
  readonly transactionTimeoutMs?: number;
  /** TCP connect timeout. Default 3 s. */
  readonly connectionTimeoutMs?: number;
}

interface InFlight {
  readonly controller: AbortController;
  readonly settled: Promise<void>;
}

/** Whether `work` settled within `ms` (it goes on in the background when not). */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true as const,
        () => true as const,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `ask` again while Kafka answers that a partition's leader is being chosen (a topic
 * just made, a broker just back), waiting a little longer each time, for at most `withinMs`;
 * any other error, and the last one, is thrown.
 */
async function whileLeadersSettle<T>(
  ask: () => Promise<T>,
  withinMs: number,
  signal: AbortSignal,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await ask();
    } catch (error) {
      if (!isLeaderChangeError(error) || signal.aborted || Date.now() >= deadline) throw error;
      await sleep(Math.min(100 * 2 ** attempt, 2000), signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

const stoppedError = () => new Error("The Kafka transport is stopped.");

/**
 * Creates the Kafka transport. Nothing connects until the first call; `consume` joins the
 * group and reads the topic from the beginning when the group has no committed offset (a
 * work queue's backlog is work). Handled messages are committed one by one, after their
 * records are published (in the same transaction unless `transactional: false`); a rejected
 * message is sought back to and delivered again after `redeliveryDelayMs`; a broker that goes
 * away is retried until it is back or the transport stops.
 *
 * Throws {@link KafkaConfigError} (`CONFIG_INVALID`) at once when the options are wrong
 * (its `key` and message name the configuration key).
 *
 * ```ts
 * const transport = createKafkaTransport({ brokers: ["127.0.0.1:9092"], clientId: "xzatoma-watcher" });
 * await transport.consume({ topic: "xzepr.events", groupId: "xzatoma-watcher", concurrency: 2, handler });
 * // ...
 * await transport.stop(30_000);
 * ```
 */
export function createKafkaTransport(options: KafkaTransportOptions): EventTransport {
  const configPath = options.configPath ?? "watcher.kafka";
  const brokers = options.brokers.map((broker) => broker.trim()).filter(Boolean);
  if (brokers.length === 0) {
    throw new KafkaConfigError(
      `${configPath}.brokers`,
      `${configPath}.brokers is empty: give at least one broker as host:port.`,
    );
  }
  const security = resolveKafkaSecurity(options.security, options.env, configPath);
  const logLevel = options.logLevel ?? (options.logger ? "info" : "error");
  const log = createLevelLogger(options.logger ?? stderrKafkaLogger, logLevel);
  const transportLog = (level: KafkaLogLevel, message: string, fields: Record<string, unknown>) =>
    log(level, message, { namespace: "Transport", ...fields });

  const initialRetryTime = options.retry?.initialRetryTimeMs ?? 300;
  const maxRetryTime = options.retry?.maxRetryTimeMs ?? 30_000;
  const retry: RetryOptions = {
    initialRetryTime,
    maxRetryTime,
    retries: options.retry?.retries ?? 8,
  };
  const backoff = (attempt: number, initial = initialRetryTime) =>
    Math.min(initial * 2 ** Math.min(attempt, 20), maxRetryTime);
  const transactional = options.transactional ?? true;
  // After the grace: how long aborted handlers and a last commit may take, and then leaving
  // the group and closing the connections. A broker that is away costs no more than these.
  const abandonMs = Math.max(0, options.stopTimeoutMs ?? 10_000) / 2;
  const leaveMs = abandonMs;

  const kafka = new Kafka({
    clientId: options.clientId ?? "xzatoma",
    brokers,
    ...security,
    retry,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    logLevel: toKafkaJsLevel(logLevel),
    logCreator: kafkaJsLogCreator(log),
  });

  /** Connects a client, with an error that says what failed. */
  const connect = async <T extends { connect(): Promise<void> }>(client: T, what: string) => {
    try {
      await client.connect();
      return client;
    } catch (error) {
      throw connectionError(error, what);
    }
  };
  const connectionError = (error: unknown, what: string) =>
    isAuthError(error)
      ? new KafkaTransportError({
          code: "KAFKA_AUTH_FAILED",
          message: `Kafka at ${brokers.join(", ")} refused the ${what}'s credentials or permissions (check ${configPath}.security): ${messageOf(error)}`,
          cause: error,
          fields: { brokers, configPath },
        })
      : new KafkaTransportError({
          code: "KAFKA_UNAVAILABLE",
          message: `The ${what} could not reach Kafka at ${brokers.join(", ")}: ${messageOf(error)}`,
          cause: error,
          fields: { brokers, configPath },
        });

  // Clients are made on first use; a failed connect is forgotten so the next call tries again.
  const lazy = <T extends { connect(): Promise<void>; disconnect(): Promise<void> }>(
    make: () => T,
    what: string,
  ) => {
    let connected: Promise<T> | undefined;
    return {
      get(): Promise<T> {
        connected ??= connect(make(), what).catch((error: unknown) => {
          connected = undefined;
          throw error;
        });
        return connected;
      },
      async discard(): Promise<void> {
        const current = connected;
        connected = undefined;
        if (current) await (await current.catch(() => undefined))?.disconnect().catch(() => {});
      },
    };
  };

  const admin = lazy<Admin>(() => kafka.admin({ retry }), "admin client");
  const producer = lazy<Producer>(
    () =>
      kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry,
      }),
    "producer",
  );
  let transactionalId = options.transactionalId;
  const transactionalProducer = lazy<Producer>(
    () =>
      kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
        transactionalId,
        transactionTimeout: options.transactionTimeoutMs ?? 60_000,
        retry,
      }),
    "transactional producer",
  );

  let consuming: { readonly options: ConsumeOptions; readonly consumer: Consumer } | undefined;
  let starting: Promise<void> | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let fatal: Error | undefined;
  const hardStop = new AbortController();
  let commitsClosed = false;
  const inFlight = new Set<InFlight>();
  /** Batch handlers running: their messages' handlers, then their commits. */
  const batches = new Set<Promise<void>>();
  const rejections = new Map<string, number>();
  const resumeTimers = new Set<NodeJS.Timeout>();

  const batchesDone = () => Promise.allSettled([...batches]).then(() => undefined);

  const reportFatal = (error: unknown) => {
    if (fatal || !consuming) return;
    const { consumer, options: consume } = consuming;
    fatal = new KafkaTransportError({
      code: isAuthError(error) ? "KAFKA_AUTH_FAILED" : "KAFKA_CONSUMER_FAILED",
      message: isFencedError(error)
        ? `The Kafka consumer of group ${consume.groupId} on topic ${consume.topic} stopped: another process started with this instance's identity (${options.groupInstanceId ?? "its transactional id"}) and took over: ${messageOf(error)}`
        : `The Kafka consumer of group ${consume.groupId} on topic ${consume.topic} stopped: ${messageOf(error)}`,
      cause: error,
      fields: { brokers, configPath, groupId: consume.groupId, topic: consume.topic },
    });
    transportLog("error", fatal.message, { error: messageOf(error) });
    try {
      consumer.pause([{ topic: consume.topic }]);
    } catch {
      // not running any more
    }
    // The consumer leaves once the handlers still running have returned.
    void within(batchesDone(), abandonMs).then(() => consumer.disconnect().catch(() => undefined));
    try {
      consume.onFatal?.(fatal);
    } catch {
      // the callback's own failure is not ours to report
    }
  };

  /**
   * Publishes a batch's records and commits its offsets (one transaction unless
   * `transactional: false`), trying again with backoff while the broker is away; false when it
   * gave up (nothing committed: the messages are delivered again).
   */
  const commitBatch = async (batch: CommitBatch, consume: ConsumeOptions): Promise<boolean> => {
    // After a batch was given up (stopping, or a fatal error), a later one must not commit:
    // its offsets would pass over the given-up messages, which would then never come again.
    if (commitsClosed) return false;
    const topicMessages = toTopicMessages(batch.publish);
    // A failed try may have committed all the same (the answer was lost, not the commit):
    // before trying again, look, so results are not published twice. A transaction commits
    // all of its offsets or none, so every partition tells the same story.
    const committedAlready = async () => {
      const client = await admin.get();
      const topicNames = [...new Set(batch.offsets.map((offset) => offset.topic))];
      const fetched = await client.fetchOffsets({ groupId: consume.groupId, topics: topicNames });
      return batch.offsets.every((wanted) => {
        const committed = fetched
          .find((topic) => topic.topic === wanted.topic)
          ?.partitions.find((p) => p.partition === wanted.partition)?.offset;
        return committed !== undefined && BigInt(committed) >= BigInt(wanted.offset);
      });
    };
    const offsetsByTopic = () => {
      const topics = new Map<string, { partition: number; offset: string }[]>();
      for (const { topic, partition, offset } of batch.offsets) {
        let list = topics.get(topic);
        if (!list) topics.set(topic, (list = []));
        list.push({ partition, offset });
      }
      return [...topics].map(([topic, partitions]) => ({ topic, partitions }));
    };
    for (let attempt = 0; ; attempt += 1) {
      // After the stop's grace ran out: one more try, then leave it to the redelivery.
      const lastTry = hardStop.signal.aborted;
      try {
        if (transactional) {
          const client = await transactionalProducer.get();
          // The first transaction of a new producer fences the old one and finishes what it
          // left open, so only now does the committed offset tell the truth.
          const transaction = await client.transaction();
          try {
            if (attempt > 0 && (await committedAlready())) {
              await transaction.abort();
              return true;
            }
            if (topicMessages.length > 0) await transaction.sendBatch({ topicMessages, acks: -1 });
            await transaction.sendOffsets({
              consumerGroupId: consume.groupId,
              topics: offsetsByTopic(),
            });
            await transaction.commit();
          } catch (error) {
            await transaction.abort().catch(() => undefined);
            // A producer that failed mid-transaction may be fenced or stuck: start afresh
            // (the same transactional id fences the old one and aborts what it left open).
            await transactionalProducer.discard();
            throw error;
          }
        } else {
          if (attempt > 0 && (await committedAlready())) return true;
          if (topicMessages.length > 0) {
            await (await producer.get()).sendBatch({ topicMessages, acks: -1 });
          }
          const consumer = consuming?.consumer;
          if (!consumer) return false;
          await consumer.commitOffsets(
            batch.offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset })),
          );
        }
        return true;
      } catch (error) {
        if (isAuthError(error) || (options.groupInstanceId && isFencedError(error))) {
          commitsClosed = true;
          reportFatal(error);
          return false;
        }
        if (!transactional && isRebalanceError(error)) {
          // This member left the group while the handler ran; the partitions' new owners
          // read the messages again (their records were published: duplicates, not a loss).
          transportLog("warn", "the group moved on before the offsets were committed", {
            messages: batch.messages,
            error: messageOf(error),
          });
          return false;
        }
        if (lastTry) {
          commitsClosed = true;
          return false;
        }
        const delay = backoff(attempt);
        transportLog("warn", `publishing and committing failed; trying again in ${delay} ms`, {
          messages: batch.messages,
          offsets: batch.offsets,
          error: messageOf(error),
        });
        await sleep(delay, hardStop.signal);
      }
    }
  };

  /** Seeks back to a rejected message and holds its partition for the redelivery delay. */
  const redeliver = (consumer: Consumer, message: InboundMessage, pause: () => () => void) => {
    if (stopping || fatal) return;
    const key = `${message.topic}\u0000${message.partition}`;
    const rejected = rejections.get(key) ?? 0;
    rejections.set(key, rejected + 1);
    consumer.seek({ topic: message.topic, partition: message.partition, offset: message.offset });
    const resume = pause();
    const timer = setTimeout(
      () => {
        resumeTimers.delete(timer);
        if (!stopping && !fatal) resume();
      },
      backoff(rejected, options.redeliveryDelayMs ?? 500),
    );
    resumeTimers.add(timer);
  };

  const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
  const heartbeatInterval =
    options.heartbeatIntervalMs ?? Math.max(100, Math.min(3000, Math.floor(sessionTimeout / 3)));

  /**
   * Handles one fetched batch of a partition: its messages one after another (the partition's
   * order), each outcome queued for the next group commit as soon as it is known, so the next
   * message runs while the previous one's transaction is under way. Returns once everything
   * it handled is committed (or given up), so a rebalance never hands over a partition whose
   * finished work is still uncommitted here.
   */
  const handleBatch = async (
    consume: ConsumeOptions,
    consumer: Consumer,
    batcher: CommitBatcher,
    payload: EachBatchPayload,
  ): Promise<void> => {
    const { batch } = payload;
    const commits: Promise<boolean>[] = [];
    // kafkajs heartbeats only between batches; a long run would lose the group.
    const beat = setInterval(() => {
      payload.heartbeat().catch(() => undefined);
    }, heartbeatInterval);
    // Set when the group is rebalancing: the batch stops taking messages, commits what it
    // finished, and hands the error to kafkajs, which re-joins the group.
    let rebalancing: unknown;
    try {
      for (const raw of batch.messages) {
        // Fetched before the stop or a seek: left uncommitted, so it is read again.
        if (stopping || fatal || !payload.isRunning() || payload.isStale()) break;
        try {
          // Sent at most once per heartbeat interval; tells of a rebalance between messages.
          await payload.heartbeat();
        } catch (error) {
          if (isRebalanceError(error)) {
            rebalancing = error;
            break;
          }
        }
        const message = toInbound(batch.topic, batch.partition, raw);
        const controller = new AbortController();
        let settle = () => {};
        const job: InFlight = { controller, settled: new Promise<void>((r) => (settle = r)) };
        inFlight.add(job);
        let outcome: MessageOutcome;
        try {
          outcome = await consume.handler(message, controller.signal);
        } catch (error) {
          transportLog("info", "the handler rejected the message; it is delivered again", {
            topic: message.topic,
            partition: message.partition,
            offset: message.offset,
            error: messageOf(error),
          });
          redeliver(consumer, message, payload.pause);
          break;
        } finally {
          inFlight.delete(job);
          settle();
        }
        payload.resolveOffset(message.offset);
        commits.push(
          batcher.add({
            topic: message.topic,
            partition: message.partition,
            next: (BigInt(message.offset) + 1n).toString(),
            publish: outcome.publish,
          }),
        );
      }
      const committed = await Promise.all(commits);
      if (committed.length > 0 && committed.every(Boolean)) {
        rejections.delete(`${batch.topic}\u0000${batch.partition}`);
      }
      if (rebalancing !== undefined) throw rebalancing;
    } finally {
      clearInterval(beat);
    }
  };

  const startConsuming = async (consume: ConsumeOptions) => {
    if (!Number.isInteger(consume.concurrency) || consume.concurrency < 1) {
      throw new RangeError(
        `The consumer's concurrency must be a whole number of at least 1, not ${consume.concurrency}.`,
      );
    }
    // A stable identity makes a stable transactional id: a restart fences its predecessor
    // and finishes the transaction it left open at once.
    transactionalId ??= options.groupInstanceId
      ? `${consume.groupId}-${options.groupInstanceId}`
      : `${consume.groupId}-${randomUUID()}`;
    const consumer = kafka.consumer({
      groupId: consume.groupId,
      ...(options.groupInstanceId ? { groupInstanceId: options.groupInstanceId } : {}),
      sessionTimeout,
      rebalanceTimeout: options.rebalanceTimeoutMs ?? 300_000,
      heartbeatInterval,
      allowAutoTopicCreation: false,
      readUncommitted: false,
      maxWaitTimeInMs: 1000,
      // A member fenced by a newer one with its identity stops instead of fencing it back.
      retry: {
        ...retry,
        restartOnFailure: async (error) => !isAuthError(error) && !isFencedError(error),
      },
    });
    consuming = { options: consume, consumer };
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) reportFatal(event.payload.error);
    });
    await connect(consumer, "consumer");
    try {
      await consumer.subscribe({ topics: [consume.topic], fromBeginning: true });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw new KafkaTransportError({
        code: isAuthError(error) ? "KAFKA_AUTH_FAILED" : "KAFKA_UNAVAILABLE",
        message: `Could not subscribe to the Kafka topic ${consume.topic}: ${messageOf(error)}`,
        cause: error,
        fields: { brokers, configPath, groupId: consume.groupId, topic: consume.topic },
      });
    }
    const batcher = createCommitBatcher((batch) => commitBatch(batch, consume));
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: consume.concurrency,
      eachBatch: (payload) => {
        const running = handleBatch(consume, consumer, batcher, payload);
        batches.add(running);
        return running.finally(() => batches.delete(running));
      },
    });
  };

  return {
    async checkConnection(timeoutMs: number) {
      if (stopping) throw stoppedError();
      // A client of its own that tries briefly and quietly (the error says it all): the
      // service's clients retry for minutes.
      const probe = new Kafka({
        clientId: options.clientId ?? "xzatoma",
        brokers,
        ...security,
        retry: { initialRetryTime: 300, maxRetryTime: 2000, retries: 3 },
        connectionTimeout: options.connectionTimeoutMs ?? 3000,
        logLevel: toKafkaJsLevel("error"),
        logCreator: kafkaJsLogCreator(() => undefined),
      }).admin();
      let failure: unknown;
      const answered = await within(
        probe
          .connect()
          .then(() => probe.describeCluster())
          .catch((error: unknown) => {
            failure = error;
            throw error;
          }),
        Math.max(1, timeoutMs),
      );
      void probe.disconnect().catch(() => undefined);
      if (answered && failure === undefined) return;
      throw connectionError(
        failure ?? new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`),
        "admin client",
      );
    },

    async readTopic(topic: string, read: ReadTopicOptions = {}) {
      if (stopping) throw stoppedError();
      const limit = Math.max(1, read.limit ?? 10_000);
      const idleMs = Math.max(100, read.idleMs ?? 3000);
      const timeoutMs = Math.max(idleMs, read.timeoutMs ?? 60_000);
      const client = await admin.get();
      const ends = await whileLeadersSettle(
        () => client.fetchTopicOffsets(topic),
        timeoutMs,
        hardStop.signal,
      );
      if (ends.every((end) => BigInt(end.high) <= BigInt(end.low))) return [];
      const consumer = kafka.consumer({
        // A group of its own that commits nothing: reading moves no one's offsets.
        groupId: `${options.clientId ?? "xzatoma"}-read-${randomUUID()}`,
        allowAutoTopicCreation: false,
        readUncommitted: false,
        maxWaitTimeInMs: Math.min(500, idleMs),
        retry,
      });
      const records: InboundMessage[] = [];
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      let idle: NodeJS.Timeout | undefined;
      // Before the first record the first fetch may be slow on a busy machine: wait longer.
      const quiet = () => {
        clearTimeout(idle);
        idle = setTimeout(finish, records.length === 0 ? idleMs * 3 : idleMs);
      };
      const overall = setTimeout(finish, timeoutMs);
      try {
        await connect(consumer, "consumer");
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        // The quiet time counts from the group join: before it, nothing can arrive.
        consumer.on(consumer.events.GROUP_JOIN, quiet);
        await consumer.run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const raw of batch.messages) {
              if (records.length >= limit) break;
              records.push(toInbound(batch.topic, batch.partition, raw));
            }
            if (records.length >= limit) finish();
            else quiet();
          },
        });
        await finished;
      } finally {
        clearTimeout(idle);
        clearTimeout(overall);
        await within(consumer.disconnect(), leaveMs);
      }
      return records;
    },

    async ensureTopics(topics: readonly TopicSpec[]) {
      if (stopping) throw stoppedError();
      if (topics.length === 0) return;
      const client = await admin.get();
      const existing = new Set(await client.listTopics());
      const missing = topics.filter((spec) => !existing.has(spec.topic));
      if (missing.length === 0) return;
      // false when another process created them first: fine.
      await client.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.topic,
          numPartitions: spec.numPartitions,
          replicationFactor: spec.replicationFactor,
        })),
      });
    },

    consume(consume) {
      if (stopping) return Promise.reject(stoppedError());
      if (consuming || starting) {
        return Promise.reject(new Error("The Kafka transport consumes one topic at a time."));
      }
      starting = startConsuming(consume).catch((error: unknown) => {
        consuming = undefined;
        starting = undefined;
        throw error;
      });
      return starting;
    },

    async publish(batch) {
      if (stopping) throw stoppedError();
      if (batch.records.length === 0) return;
      const client = await producer.get();
      await client.sendBatch({ topicMessages: toTopicMessages([batch]), acks: -1 });
    },

    async lag() {
      if (!consuming) return 0;
      const { topic, groupId } = consuming.options;
      const client = await admin.get();
      const [committed] = await client.fetchOffsets({ groupId, topics: [topic] });
      const ends = await client.fetchTopicOffsets(topic);
      let lag = 0n;
      for (const end of ends) {
        const offset = committed?.partitions.find((p) => p.partition === end.partition)?.offset;
        const from =
          offset !== undefined && BigInt(offset) >= 0n ? BigInt(offset) : BigInt(end.low);
        const behind = BigInt(end.high) - from;
        if (behind > 0n) lag += behind;
      }
      return Number(lag);
    },

    stop(graceMs) {
      stopped ??= (async () => {
        stopping = true;
        for (const timer of resumeTimers) clearTimeout(timer);
        resumeTimers.clear();
        if (consuming && !fatal) {
          try {
            consuming.consumer.pause([{ topic: consuming.options.topic }]);
          } catch {
            // not running
          }
        }
        // Runs in flight get the grace, and so do the commits of what finished.
        await within(
          Promise.all([starting?.catch(() => undefined), batchesDone()]),
          Math.max(0, graceMs),
        );
        hardStop.abort();
        for (const job of inFlight) job.controller.abort(new Error("The transport is stopping."));
        // Whatever still runs now is abandoned: a handler that ignores its signal, a commit
        // or a leave that waits for a broker that is away. The stop ends all the same.
        const settled = await within(batchesDone(), abandonMs);
        const left = await within(
          Promise.allSettled([
            consuming?.consumer.disconnect(),
            transactionalProducer.discard(),
            producer.discard(),
            admin.discard(),
          ]),
          leaveMs,
        );
        if (!settled || !left) {
          transportLog(
            "warn",
            "stopped without finishing with the broker: uncommitted messages are delivered again",
            { handlersSettled: settled, leftGroup: left },
          );
        }
      })();
      return stopped;
    },
  };
}
