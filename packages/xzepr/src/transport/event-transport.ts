/**
 * The seam between the watcher and a message broker. The watcher's logic (decode, filter,
 * dedupe, execute, publish a result, dead-letter) is written against this interface only, so
 * it is tested without a broker (`createMemoryTransport`) and runs on Kafka in production
 * (`createKafkaTransport`).
 */

/** A record to publish. `value` is the message body; header values are text. */
export interface OutboundRecord {
  readonly key?: string;
  readonly value: string | Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Records for one topic. */
export interface TopicRecords {
  readonly topic: string;
  readonly records: readonly OutboundRecord[];
}

/** One consumed message. Header values arrive as text (Kafka's byte headers decoded as UTF-8). */
export interface InboundMessage {
  readonly topic: string;
  readonly partition: number;
  /** The message's offset, as decimal text (Kafka offsets exceed 2^53). */
  readonly offset: string;
  readonly key: string | undefined;
  /** `null` for a tombstone. */
  readonly value: Uint8Array | null;
  readonly headers: Readonly<Record<string, string>>;
  /** Milliseconds since the epoch, as the broker stamped it. */
  readonly timestamp: number;
}

/**
 * What the handler decided for one message: the records to publish before its offset is
 * committed. An empty list commits the offset and publishes nothing.
 */
export interface MessageOutcome {
  readonly publish: readonly TopicRecords[];
}

/**
 * Handles one message. The transport calls it one message at a time per partition (order is
 * kept within a partition) and for up to `concurrency` partitions at once. When it resolves,
 * the transport publishes `publish` and then commits the offset after the message (atomically
 * when the transport is transactional), retrying with backoff while the broker is away. When it
 * rejects, nothing is published or committed and the message is delivered again (to this
 * member or, after a rebalance, to another). `signal` aborts when the transport stops and the
 * grace period has run out: the handler should give up promptly and reject.
 */
export type MessageHandler = (
  message: InboundMessage,
  signal: AbortSignal,
) => Promise<MessageOutcome>;

/** A topic the transport creates when it is missing. */
export interface TopicSpec {
  readonly topic: string;
  readonly numPartitions: number;
  readonly replicationFactor: number;
}

/** What {@link EventTransport.consume} needs. */
export interface ConsumeOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Partitions handled at once (at least 1). */
  readonly concurrency: number;
  readonly handler: MessageHandler;
  /**
   * Called with an error the transport cannot recover from (authentication refused, the topic
   * deleted); the consumer has stopped. Transient broker outages are retried, not reported.
   */
  readonly onFatal?: (error: Error) => void;
}

/** Options of {@link EventTransport.readTopic}. */
export interface ReadTopicOptions {
  /** Most records returned. Default 10 000. */
  readonly limit?: number;
  /** Quiet time that ends the read. Default 3000 ms. */
  readonly idleMs?: number;
  /** Longest the read takes. Default 60 000 ms. */
  readonly timeoutMs?: number;
}

/** A message broker as the watcher sees it. */
export interface EventTransport {
  /**
   * Whether the broker answers, within `timeoutMs`: rejects with an error that names the
   * brokers when it does not. A transport without a broker omits it.
   */
  checkConnection?(timeoutMs: number): Promise<void>;
  /**
   * The committed records of `topic` from its beginning (operator tools: `xzatoma-watcher dlq`),
   * in a consumer group of its own that commits nothing. Stops once `limit` records were read,
   * no record arrived for `idleMs` after the last one (the end of the topic), or `timeoutMs`
   * ran out. A transport without a broker may omit it.
   */
  readTopic?(topic: string, options?: ReadTopicOptions): Promise<InboundMessage[]>;
  /** Creates each topic that does not exist; an existing topic is left as it is. */
  ensureTopics(topics: readonly TopicSpec[]): Promise<void>;
  /** Joins `groupId` and starts handling messages; resolves once the consumer is running. */
  consume(options: ConsumeOptions): Promise<void>;
  /** Publishes records outside any consumed message (start-up notices, tests). */
  publish(batch: TopicRecords): Promise<void>;
  /** Messages of the consumed topic not yet committed by the group, summed over partitions. */
  lag(): Promise<number>;
  /**
   * Stops taking messages, lets in-flight handlers finish for up to `graceMs`, then aborts
   * their signals and waits for them to settle; commits what finished and disconnects.
   * Idempotent.
   */
  stop(graceMs: number): Promise<void>;
}
