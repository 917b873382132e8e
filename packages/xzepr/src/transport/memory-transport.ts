import type {
  ConsumeOptions,
  EventTransport,
  InboundMessage,
  OutboundRecord,
  TopicRecords,
  TopicSpec,
} from "./event-transport.js";

/** A message as the memory transport keeps it. */
export type StoredMessage = InboundMessage;

/** An {@link EventTransport} in memory, with a look inside for tests. */
export interface MemoryTransport extends EventTransport {
  /** Every message of `topic`, across partitions, in the order they were appended. */
  messages(topic: string): readonly StoredMessage[];
  /** The offsets `groupId` committed on `topic`, by partition. */
  committed(groupId: string, topic: string): ReadonlyMap<number, bigint>;
  /** Resolves once every message published so far to the consumed topic is committed. */
  drained(): Promise<void>;
}

/** Options of {@link createMemoryTransport}. */
export interface MemoryTransportOptions {
  /** Partitions of a topic published to before anyone created it. Default 1. */
  readonly defaultPartitions?: number;
  /** How long a rejected message waits before it is delivered again. Default 10 ms. */
  readonly redeliveryDelayMs?: number;
}

interface Topic {
  readonly partitions: StoredMessage[][];
  readonly order: StoredMessage[];
}

function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? new TextEncoder().encode(value) : value;
}

/** Kafka's default partitioner in spirit: the same key always lands on the same partition. */
function partitionOf(key: string | undefined, partitions: number, counter: number): number {
  if (key === undefined) return counter % partitions;
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(hash) % partitions;
}

/**
 * A broker in this process: topics with partitions, one consumer group member, offsets
 * committed after each handled message. It keeps the seam's promises (order within a
 * partition, publish before commit, redelivery after a rejection, graceful stop), so the
 * watcher's logic is tested without Kafka, and `--dry-run` never touches a real topic.
 */
export function createMemoryTransport(options: MemoryTransportOptions = {}): MemoryTransport {
  const topics = new Map<string, Topic>();
  const offsets = new Map<string, Map<number, bigint>>();
  const wakers = new Set<() => void>();
  const drainWaiters = new Set<() => void>();
  let counter = 0;
  let consuming: { options: ConsumeOptions; loops: Promise<void>[] } | undefined;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const inFlight = new Set<AbortController>();

  const topicOf = (name: string, partitions = options.defaultPartitions ?? 1): Topic => {
    let topic = topics.get(name);
    if (!topic) {
      topic = { partitions: Array.from({ length: partitions }, () => []), order: [] };
      topics.set(name, topic);
    }
    return topic;
  };
  const committedOf = (groupId: string, topic: string) => {
    const key = `${groupId}\u0000${topic}`;
    let map = offsets.get(key);
    if (!map) {
      map = new Map();
      offsets.set(key, map);
    }
    return map;
  };
  const wake = () => {
    for (const waker of [...wakers]) waker();
  };
  const isDrained = () => {
    if (!consuming) return true;
    const topic = topics.get(consuming.options.topic);
    if (!topic) return true;
    const committed = committedOf(consuming.options.groupId, consuming.options.topic);
    return topic.partitions.every(
      (messages, partition) => (committed.get(partition) ?? 0n) >= BigInt(messages.length),
    );
  };
  const checkDrained = () => {
    if (!isDrained()) return;
    for (const resolve of [...drainWaiters]) resolve();
    drainWaiters.clear();
  };

  const append = (name: string, record: OutboundRecord) => {
    const topic = topicOf(name);
    const partition = partitionOf(record.key, topic.partitions.length, counter++);
    const messages = topic.partitions[partition] ?? [];
    const message: StoredMessage = {
      topic: name,
      partition,
      offset: String(messages.length),
      key: record.key,
      value: toBytes(record.value),
      headers: { ...record.headers },
      timestamp: Date.now(),
    };
    messages.push(message);
    topic.order.push(message);
  };
  const publishAll = (batches: readonly TopicRecords[]) => {
    for (const batch of batches) for (const record of batch.records) append(batch.topic, record);
    wake();
  };

  const waitForWork = () =>
    new Promise<void>((resolve) => {
      const waker = () => {
        wakers.delete(waker);
        resolve();
      };
      wakers.add(waker);
    });

  // Partitions run one at a time each; `concurrency` of them at once.
  let running = 0;
  const slotWaiters: (() => void)[] = [];
  const acquire = async () => {
    while (running >= (consuming?.options.concurrency ?? 1)) {
      await new Promise<void>((resolve) => slotWaiters.push(resolve));
    }
    running += 1;
  };
  const release = () => {
    running -= 1;
    slotWaiters.shift()?.();
  };

  const partitionLoop = async (consume: ConsumeOptions, partition: number) => {
    const committed = committedOf(consume.groupId, consume.topic);
    while (!stopping) {
      const topic = topicOf(consume.topic);
      const next = committed.get(partition) ?? 0n;
      const message = topic.partitions[partition]?.[Number(next)];
      if (!message) {
        await waitForWork();
        continue;
      }
      await acquire();
      if (stopping) {
        release();
        break;
      }
      const controller = new AbortController();
      inFlight.add(controller);
      try {
        const outcome = await consume.handler(message, controller.signal);
        publishAll(outcome.publish);
        committed.set(partition, next + 1n);
        checkDrained();
      } catch {
        // Not committed: the same message comes again.
        await new Promise((resolve) => setTimeout(resolve, options.redeliveryDelayMs ?? 10));
      } finally {
        inFlight.delete(controller);
        release();
      }
    }
  };

  return {
    async ensureTopics(specs: readonly TopicSpec[]) {
      for (const spec of specs) topicOf(spec.topic, spec.numPartitions);
    },
    async consume(consume) {
      if (consuming) throw new Error("The memory transport consumes one topic at a time.");
      const topic = topicOf(consume.topic);
      consuming = {
        options: consume,
        loops: topic.partitions.map((_, partition) => partitionLoop(consume, partition)),
      };
    },
    async publish(batch) {
      publishAll([batch]);
    },
    async readTopic(topic, read = {}) {
      return topicOf(topic).order.slice(0, Math.max(1, read.limit ?? 10_000));
    },
    async lag() {
      if (!consuming) return 0;
      const topic = topicOf(consuming.options.topic);
      const committed = committedOf(consuming.options.groupId, consuming.options.topic);
      return topic.partitions.reduce(
        (sum, messages, partition) =>
          sum + Math.max(0, messages.length - Number(committed.get(partition) ?? 0n)),
        0,
      );
    },
    stop(graceMs) {
      stopped ??= (async () => {
        stopping = true;
        wake();
        for (const resolve of slotWaiters.splice(0)) resolve();
        const loops = Promise.all(consuming?.loops ?? []);
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        });
        await Promise.race([loops, grace]);
        clearTimeout(timer);
        for (const controller of inFlight) controller.abort(new Error("The watcher is stopping."));
        await loops;
      })();
      return stopped;
    },
    messages: (topic) => topics.get(topic)?.order ?? [],
    committed: (groupId, topic) => committedOf(groupId, topic),
    drained() {
      if (isDrained()) return Promise.resolve();
      return new Promise((resolve) => drainWaiters.add(resolve));
    },
  };
}
