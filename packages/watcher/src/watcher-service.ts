import { hostname } from "node:os";
import type { Meter, Tracer } from "@opentelemetry/api";
import type { EventTransport } from "@xzatoma/xzepr";
import type { EventLedger } from "./event-ledger.js";
import { createMessageHandler, type HandledResult } from "./message-handler.js";
import type { PlanExecutor } from "./plan-executor.js";
import { watcherTopics, type WatcherConfig } from "./watcher-config.js";
import { createWatcherLogger, type WatcherLogger } from "./watcher-logger.js";
import { createWatcherMetrics, type WatcherCounts } from "./watcher-metrics.js";
import type { Redact } from "./redact-record.js";

/** What {@link createWatcherService} needs. */
export interface WatcherServiceOptions {
  readonly config: WatcherConfig;
  readonly transport: EventTransport;
  readonly executor: PlanExecutor;
  readonly ledger: EventLedger;
  readonly logger?: WatcherLogger;
  /** Where the instruments live; default the global meter provider's (a no-op without an SDK). */
  readonly meter?: Meter;
  /**
   * Where each run's span (`process <topic>`, a child of the trace the event was sent in) is
   * recorded; default the global tracer provider's (a no-op without an SDK).
   */
  readonly tracer?: Tracer;
  /** This instance's CloudEvents source. Default `xzatoma-watcher://<host>/<pid>`. */
  readonly instance?: string;
  /**
   * Parse, filter and match, log what would run, run and publish nothing. Reads in its own
   * consumer group (`<group_id>.dry-run`), so the real group's offsets are left alone.
   */
  readonly dryRun?: boolean;
  /**
   * Applied to everything the watcher publishes, stores in its ledger and logs (results,
   * dead letters, log lines): `redactSecrets` of `@xzatoma/safety`, as the runtime passes
   * it. Default: as they are.
   */
  readonly redact?: Redact;
  readonly onResult?: (result: HandledResult) => Promise<void>;
  /** Called once when the consumer stops for good (authentication refused, topic gone). */
  readonly onFatal?: (error: Error) => void;
}

/** What the health endpoint reports. */
export interface WatcherStatus {
  /** False once the consumer stopped for good. */
  readonly live: boolean;
  /** Consuming. */
  readonly ready: boolean;
  readonly stopping: boolean;
  readonly counts: Readonly<WatcherCounts>;
  /** The last lag read, when one was. */
  readonly lag?: number;
}

/** A running watcher. */
export interface WatcherService {
  /** Creates missing topics (unless `auto_create_topics` is off) and starts consuming. */
  start(): Promise<void>;
  /**
   * Stops taking messages; in-flight runs get `graceMs` (default
   * `execution.shutdown_grace_secs`) to finish, then are abandoned uncommitted so another
   * member runs them. Idempotent.
   */
  stop(graceMs?: number): Promise<void>;
  status(): WatcherStatus;
}

/** Builds the watcher service over a transport: the whole consume, run, publish loop. */
export function createWatcherService(options: WatcherServiceOptions): WatcherService {
  const { config, transport } = options;
  const topics = watcherTopics(config);
  const logger =
    options.logger ??
    createWatcherLogger({
      level: config.logging.level,
      json: config.logging.json_format,
      ...(config.logging.file_path !== undefined ? { filePath: config.logging.file_path } : {}),
      ...(options.redact ? { redact: options.redact } : {}),
    });
  const metrics = createWatcherMetrics(options.meter);
  const instance = options.instance ?? `xzatoma-watcher://${hostname()}/${process.pid}`;
  const handler = createMessageHandler({
    config,
    executor: options.executor,
    ledger: options.ledger,
    logger,
    metrics,
    instance,
    ...(options.dryRun ? { dryRun: true } : {}),
    ...(options.onResult ? { onResult: options.onResult } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  let ready = false;
  let live = true;
  let stopping = false;
  let lag: number | undefined;
  let lagTimer: NodeJS.Timeout | undefined;
  let stopped: Promise<void> | undefined;
  metrics.observeLag(() => lag);
  const readLag = () => {
    transport.lag().then(
      (value) => {
        lag = value;
      },
      () => {
        // The broker may be away; the last value stands.
      },
    );
  };

  return {
    async start() {
      if (config.kafka.auto_create_topics) {
        const spec = {
          numPartitions: config.kafka.num_partitions,
          replicationFactor: config.kafka.replication_factor,
        };
        const names = options.dryRun
          ? [topics.input]
          : [topics.input, topics.output, topics.deadLetter];
        await transport.ensureTopics([...new Set(names)].map((topic) => ({ topic, ...spec })));
      }
      const groupId = options.dryRun ? `${config.kafka.group_id}.dry-run` : config.kafka.group_id;
      await transport.consume({
        topic: topics.input,
        groupId,
        concurrency: config.execution.max_concurrent_executions,
        handler,
        onFatal(error) {
          ready = false;
          live = false;
          logger.error("the consumer stopped", { error: error.message });
          options.onFatal?.(error);
        },
      });
      ready = true;
      readLag();
      lagTimer = setInterval(readLag, 10_000);
      lagTimer.unref();
      logger.info("watching", {
        type: config.watcher_type,
        topic: topics.input,
        output: topics.output,
        deadLetter: topics.deadLetter,
        group: groupId,
        ...(options.dryRun ? { dryRun: true } : {}),
      });
    },
    stop(graceMs = config.execution.shutdown_grace_secs * 1000) {
      stopped ??= (async () => {
        stopping = true;
        ready = false;
        clearInterval(lagTimer);
        logger.info("stopping", { graceMs });
        await transport.stop(graceMs);
        logger.info("stopped", { ...metrics.counts });
      })();
      return stopped;
    },
    status: () => ({
      live,
      ready,
      stopping,
      counts: { ...metrics.counts },
      ...(lag !== undefined ? { lag } : {}),
    }),
  };
}
