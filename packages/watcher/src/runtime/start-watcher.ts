import { hostname } from "node:os";
import type { Meter } from "@opentelemetry/api";
import { XzatomaError } from "@xzatoma/core";
import {
  createMemoryLedger,
  createWatcherLogger,
  createWatcherService,
  historyLedger,
  type PlanExecutor,
  type WatcherLogger,
  type WatcherService,
} from "../index.js";
import type { EventTransport } from "@xzatoma/xzepr";
import { resolveXzeprClientOptions } from "@xzatoma/xzepr/config";
import {
  openRuntimeHistory,
  redactSecrets,
  type AgentRuntimeOptions,
  type RuntimeConfig,
} from "@xzatoma/runtime";
import { createRuntimeExecutor } from "./runtime-executor.js";
import { createXzeprReporter } from "./xzepr-reporter.js";
import { createWatcherTransport } from "./watcher-transport.js";

/** What {@link startWatcher} needs. */
export interface StartWatcherOptions {
  readonly config: RuntimeConfig;
  /** Where plans run: an existing directory. */
  readonly workspace: string;
  readonly configPath?: string;
  /** Credentials (`KAFKA_SASL_PASSWORD`, the provider's) and the sandbox read it. */
  readonly env?: NodeJS.ProcessEnv;
  /** See `WatcherServiceOptions.dryRun`: nothing runs, nothing is published, no ledger is kept. */
  readonly dryRun?: boolean;
  /** Where log lines go (standard error by default). */
  readonly write?: (line: string) => void;
  readonly telemetry?: AgentRuntimeOptions["telemetry"] & { readonly meter?: Meter };
  /** A transport instead of Kafka (tests, embedders). */
  readonly transport?: EventTransport;
  /** An executor instead of the agent runtime (benchmarks). */
  readonly executor?: PlanExecutor;
  readonly provider?: AgentRuntimeOptions["provider"];
  /** Called once when the consumer stops for good (authentication refused, topic gone). */
  readonly onFatal?: (error: Error) => void;
  /**
   * The version results reported to XZepr carry (`release`): the front end's own. Default
   * the version of `@xzatoma/watcher`.
   */
  readonly release?: string;
}

/** A started watcher. */
export interface StartedWatcher {
  readonly service: WatcherService;
  readonly logger: WatcherLogger;
  /** Stops the service (see `WatcherService.stop`) and closes the ledger. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the watcher service a configuration describes: Kafka from `watcher.kafka`, the
 * idempotency ledger in the history database, each event's plan run in a fresh agent
 * runtime with the configuration's privileges. `xzatoma-watcher run` and `xzatoma watch`
 * both call this.
 */
export async function startWatcher(options: StartWatcherOptions): Promise<StartedWatcher> {
  const { config } = options;
  const watcher = config.watcher;
  if (watcher === undefined) {
    throw new XzatomaError(
      "CONFIG_INVALID",
      "The configuration has no watcher section: add `watcher:` with at least `kafka: { brokers: host:port }` (see docs/how-to/deploy-the-watcher.md).",
    );
  }
  const env = options.env ?? process.env;
  const logger = createWatcherLogger({
    level: watcher.logging.level,
    json: watcher.logging.json_format,
    ...(watcher.logging.file_path !== undefined ? { filePath: watcher.logging.file_path } : {}),
    ...(options.write ? { write: options.write } : {}),
    redact: (text) => redactSecrets(text),
  });
  const transport = options.transport ?? createWatcherTransport(watcher, { env, logger });
  // Commits reach the disk at checkpoints, not per event: what the service finished is on
  // record in Kafka (a result and its offset commit in one transaction), so the last ledger
  // entries lost to a power cut cost at most a second run of an event published twice
  // (docs/explanation/watcher-delivery.md). A killed process loses nothing.
  const history = options.dryRun
    ? undefined
    : openRuntimeHistory(config.persistence.db_path, "normal");
  const ledger = history ? historyLedger(history) : createMemoryLedger();
  const executor =
    options.executor ??
    createRuntimeExecutor({
      config,
      workspace: options.workspace,
      env,
      warn: (message) => logger.warn(message),
      ...(options.configPath !== undefined ? { configPath: options.configPath } : {}),
      ...(options.telemetry !== undefined
        ? {
            telemetry: {
              tracer: options.telemetry.tracer,
              meter: options.telemetry.meter,
              createRunTelemetry: options.telemetry.createRunTelemetry,
            },
          }
        : {}),
      ...(options.provider !== undefined ? { provider: options.provider } : {}),
      ...(history !== undefined ? { history } : {}),
    });
  const xzepr = config.xzepr;
  const client = xzepr?.report_results ? resolveXzeprClientOptions(xzepr, env) : undefined;
  const onResult =
    xzepr && client ? createXzeprReporter(xzepr, client, options.release) : undefined;
  const service = createWatcherService({
    config: watcher,
    transport,
    executor,
    ledger,
    logger,
    // The CloudEvents source of results: the stable identity when there is one.
    instance:
      watcher.kafka.instance_id !== undefined
        ? `xzatoma-watcher://${hostname()}/${watcher.kafka.instance_id}`
        : `xzatoma-watcher://${hostname()}/${process.pid}`,
    // Results, dead letters and the ledger's copies of them never hold a secret.
    redact: (text) => redactSecrets(text),
    ...(options.telemetry?.meter !== undefined ? { meter: options.telemetry.meter } : {}),
    ...(options.telemetry?.tracer !== undefined ? { tracer: options.telemetry.tracer } : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
    ...(options.onFatal ? { onFatal: options.onFatal } : {}),
    ...(onResult && !options.dryRun ? { onResult } : {}),
  });
  try {
    await service.start();
  } catch (error) {
    await service.stop(0).catch(() => undefined);
    history?.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    service,
    logger,
    close(graceMs) {
      closed ??= service.stop(graceMs).finally(() => history?.close());
      return closed;
    },
  };
}
