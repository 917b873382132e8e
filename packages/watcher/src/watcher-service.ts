import { hostname } from "node:os";
import type { Meter, Tracer } from "@opentelemetry/api";
import type { EventTransport } from "@xzatoma/xzepr";
import type { EventLedger } from "./event-ledger.js";
import { createMessageHandler, type HandledResult } from "./message-handler.js";
import type { PlanExecutor } from "./plan-executor.js";
import { watcherTopics, type WatcherConfig } from "@xzatoma/runtime/sections";
import { createWatcherLogger, type WatcherLogger } from "./watcher-logger.js";
import { createWatcherMetrics, type WatcherCounts } from "./watcher-metrics.js";
import type { Redact } from "./redact-record.js";
import { createReportQueue, type ReportQueue, type ReportQueueOptions } from "./report-queue.js";

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
  /**
   * Reports each finished run elsewhere (XZepr's API). Called in the background through a
   * bounded queue: a failure is tried again with doubling waits and then given up and counted
   * (`xzatoma.watcher.xzepr.reports.dropped`); the consumer never waits for it.
   */
  readonly onResult?: (result: HandledResult, signal: AbortSignal) => Promise<void>;
  /** How {@link onResult} is tried again; see `ReportQueueOptions`. */
  readonly reportRetry?: Pick<
    ReportQueueOptions,
    "retries" | "initialDelayMs" | "maxDelayMs" | "maxQueued" | "isPermanent"
  >;
  /**
   * How long the broker has to answer at start before `start` fails with the error that says
   * it cannot be reached. Default 15 s.
   */
  readonly connectTimeoutMs?: number;
  /** How often the broker is asked for the lag, which tells readiness whether it answers. Default 10 s. */
  readonly brokerCheckMs?: number;
  /** Called once when the consumer stops for good (authentication refused, topic gone). */
  readonly onFatal?: (error: Error) => void;
}

/** What the health endpoint reports. */
export interface WatcherStatus {
  /** False once the consumer stopped for good. */
  readonly live: boolean;
  /** Consuming, and the broker answered the last time it was asked. */
  readonly ready: boolean;
  readonly stopping: boolean;
  /** `starting`, `consuming`, `broker-unreachable`, `stopping` or `failed`: why `ready` is what it is. */
  readonly state: "starting" | "consuming" | "broker-unreachable" | "stopping" | "failed";
  /** The broker's last error, while it does not answer. */
  readonly brokerError?: string;
  /** Reports to XZepr waiting to be sent. */
  readonly reportsPending?: number;
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
  const groupId = options.dryRun ? `${config.kafka.group_id}.dry-run` : config.kafka.group_id;
  const metrics = createWatcherMetrics(options.meter, { topic: topics.input, group: groupId });
  const instance = options.instance ?? `xzatoma-watcher://${hostname()}/${process.pid}`;
  const onResult = options.onResult;
  const reports: ReportQueue | undefined = onResult
    ? createReportQueue({
        send: onResult,
        logger,
        metrics,
        ...options.reportRetry,
      })
    : undefined;
  const handler = createMessageHandler({
    config,
    executor: options.executor,
    ledger: options.ledger,
    logger,
    metrics,
    instance,
    ...(options.dryRun ? { dryRun: true } : {}),
    ...(reports ? { onResult: async (result: HandledResult) => reports.enqueue(result) } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  let consuming = false;
  let live = true;
  let stopping = false;
  let lag: number | undefined;
  let brokerError: string | undefined;
  let lagTimer: NodeJS.Timeout | undefined;
  let stopped: Promise<void> | undefined;
  metrics.observeLag(() => lag);
  // The lag is read from the broker: whether that works is whether the broker answers.
  const readLag = () => {
    transport.lag().then(
      (value) => {
        lag = value;
        if (brokerError !== undefined) logger.info("the broker answers again");
        brokerError = undefined;
      },
      (error: unknown) => {
        // The last lag stands; readiness says the broker does not answer.
        const message = error instanceof Error ? error.message : String(error);
        if (brokerError === undefined)
          logger.warn("the broker does not answer", { error: message });
        brokerError = message;
      },
    );
  };
  const state = (): WatcherStatus["state"] =>
    !live
      ? "failed"
      : stopping
        ? "stopping"
        : !consuming
          ? "starting"
          : brokerError !== undefined
            ? "broker-unreachable"
            : "consuming";

  return {
    async start() {
      // An unreachable broker is said at once, before anything waits on it for minutes.
      await transport.checkConnection?.(options.connectTimeoutMs ?? 15_000);
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
      await transport.consume({
        topic: topics.input,
        groupId,
        concurrency: config.execution.max_concurrent_executions,
        handler,
        onFatal(error) {
          consuming = false;
          live = false;
          logger.error("the consumer stopped", { error: error.message });
          options.onFatal?.(error);
        },
      });
      consuming = true;
      readLag();
      lagTimer = setInterval(readLag, options.brokerCheckMs ?? 10_000);
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
        consuming = false;
        clearInterval(lagTimer);
        logger.info("stopping", { graceMs });
        const began = Date.now();
        await transport.stop(graceMs);
        // Reports still waiting get what is left of the grace (at least a second), then are
        // given up: the result on Kafka is the record that counts.
        await reports?.close(Math.max(1000, graceMs - (Date.now() - began)));
        logger.info("stopped", { ...metrics.counts });
      })();
      return stopped;
    },
    status: () => ({
      live,
      ready: state() === "consuming",
      stopping,
      state: state(),
      counts: { ...metrics.counts },
      ...(lag !== undefined ? { lag } : {}),
      ...(brokerError !== undefined ? { brokerError } : {}),
      ...(reports ? { reportsPending: reports.pending } : {}),
    }),
  };
}
