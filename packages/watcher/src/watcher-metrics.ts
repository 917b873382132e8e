import { metrics as otelMetrics, type Attributes, type Meter } from "@opentelemetry/api";
import type { DeadLetterCode } from "./wire.js";

/** What happened to one consumed message. */
export type EventDisposition =
  "executed" | "failed" | "republished" | "filtered" | "duplicate" | "dead_lettered" | "skipped";

/** Every {@link EventDisposition}, in the order the metrics list them. */
export const EVENT_DISPOSITIONS: readonly EventDisposition[] = [
  "executed",
  "failed",
  "republished",
  "filtered",
  "duplicate",
  "dead_lettered",
  "skipped",
];

/** Every {@link DeadLetterCode}: why a message went to the dead-letter topic, as a metric label. */
export const DEAD_LETTER_CODES: readonly DeadLetterCode[] = [
  "too_large",
  "tombstone",
  "undecodable",
  "no_plan",
  "invalid_plan",
];

/** Why a report to XZepr was given up (`error.type` of `xzatoma.watcher.xzepr.reports.dropped`). */
export type ReportDropReason = "retries_exhausted" | "rejected" | "queue_full" | "shutdown";

/** Every {@link ReportDropReason}. */
export const REPORT_DROP_REASONS: readonly ReportDropReason[] = [
  "retries_exhausted",
  "rejected",
  "queue_full",
  "shutdown",
];

/** Counts since start, for the health endpoint and logs. */
export interface WatcherCounts {
  consumed: number;
  executed: number;
  failed: number;
  republished: number;
  filtered: number;
  duplicate: number;
  dead_lettered: number;
  skipped: number;
}

/**
 * Bucket boundaries of the execution duration histogram, in seconds: from a plan that fails at
 * once to the hour a long run may take (the SDK's default boundaries are for milliseconds).
 */
export const EXECUTION_DURATION_BUCKETS: readonly number[] = [
  0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
];

/** Where the watcher consumes: the attributes OpenTelemetry's messaging conventions ask for. */
export interface ConsumerIdentity {
  /** `messaging.destination.name`. */
  readonly topic: string;
  /** `messaging.consumer.group.name`. */
  readonly group: string;
}

/** The metric names, as OpenTelemetry names them (a Prometheus exporter adds `_total` to counters). */
export const WATCHER_METRICS = {
  /** OpenTelemetry's messaging convention: messages a consumer received. */
  consumed: "messaging.client.consumed.messages",
  /** Handled messages by `xzatoma.watcher.outcome`. */
  events: "xzatoma.watcher.events",
  /** Dead letters by `error.type` (a {@link DeadLetterCode}). */
  deadLetters: "xzatoma.watcher.dead_letters",
  /** Reports to XZepr given up, by `error.type` (a {@link ReportDropReason}). */
  reportsDropped: "xzatoma.watcher.xzepr.reports.dropped",
  /** Reports to XZepr tried again after a failure. */
  reportsRetried: "xzatoma.watcher.xzepr.reports.retried",
  duration: "xzatoma.watcher.execution.duration",
  lag: "xzatoma.watcher.consumer.lag",
} as const;

/** The watcher's instruments, through `@opentelemetry/api` (no SDK here; the app starts one). */
export interface WatcherMetrics {
  readonly counts: Readonly<WatcherCounts>;
  consumed(): void;
  handled(disposition: EventDisposition): void;
  /** A message sent to the dead-letter topic, by why. */
  deadLettered(code: DeadLetterCode): void;
  /** A report to XZepr given up. */
  reportDropped(reason: ReportDropReason): void;
  /** A report to XZepr that failed and is tried again. */
  reportRetried(): void;
  /** A finished execution: its duration and whether it completed. */
  executionFinished(seconds: number, status: "completed" | "failed"): void;
  /** Reports the consumer lag through `read` when a reader collects metrics. */
  observeLag(read: () => number | undefined): void;
}

/**
 * The watcher's instruments, named after OpenTelemetry's semantic conventions: the messaging
 * convention's `messaging.client.consumed.messages` for what was read, and the watcher's own
 * under `xzatoma.watcher.*`, one instrument per quantity with what varies as an attribute
 * (`xzatoma.watcher.outcome`, `error.type`), units in UCUM (`{message}`, `s`). Every counter's
 * series is created at zero, so a rate or an alert works before the first event of its kind.
 */
export function createWatcherMetrics(
  meter: Meter = otelMetrics.getMeter("xzatoma-watcher"),
  identity?: ConsumerIdentity,
): WatcherMetrics {
  const counts: WatcherCounts = {
    consumed: 0,
    executed: 0,
    failed: 0,
    republished: 0,
    filtered: 0,
    duplicate: 0,
    dead_lettered: 0,
    skipped: 0,
  };
  const messaging: Attributes = identity
    ? {
        "messaging.system": "kafka",
        "messaging.destination.name": identity.topic,
        "messaging.consumer.group.name": identity.group,
      }
    : { "messaging.system": "kafka" };
  const consumed = meter.createCounter(WATCHER_METRICS.consumed, {
    description: "Messages read from the input topic",
    unit: "{message}",
  });
  const events = meter.createCounter(WATCHER_METRICS.events, {
    description:
      "Handled messages by outcome: executed, failed, republished, filtered, duplicate, dead_lettered, skipped",
    unit: "{event}",
  });
  const deadLetters = meter.createCounter(WATCHER_METRICS.deadLetters, {
    description: "Messages sent to the dead-letter topic, by why (error.type)",
    unit: "{message}",
  });
  const dropped = meter.createCounter(WATCHER_METRICS.reportsDropped, {
    description: "Results not reported to XZepr, by why (error.type)",
    unit: "{report}",
  });
  const retried = meter.createCounter(WATCHER_METRICS.reportsRetried, {
    description: "Reports to XZepr that failed and were tried again",
    unit: "{report}",
  });
  const outcome = (disposition: EventDisposition): Attributes => ({
    "xzatoma.watcher.outcome": disposition,
  });
  // Zero for every series: a dashboard or an alert sees 0, not "no data".
  consumed.add(0, messaging);
  for (const disposition of EVENT_DISPOSITIONS) events.add(0, outcome(disposition));
  for (const code of DEAD_LETTER_CODES) deadLetters.add(0, { "error.type": code });
  for (const reason of REPORT_DROP_REASONS) dropped.add(0, { "error.type": reason });
  retried.add(0);
  const duration = meter.createHistogram(WATCHER_METRICS.duration, {
    description: "How long a plan's execution took",
    unit: "s",
    advice: { explicitBucketBoundaries: [...EXECUTION_DURATION_BUCKETS] },
  });
  const lag = meter.createObservableGauge(WATCHER_METRICS.lag, {
    description: "Messages of the input topic not yet committed by the group",
    unit: "{message}",
  });
  return {
    counts,
    consumed() {
      counts.consumed += 1;
      consumed.add(1, messaging);
    },
    handled(disposition) {
      counts[disposition] += 1;
      events.add(1, outcome(disposition));
    },
    deadLettered(code) {
      deadLetters.add(1, { "error.type": code });
    },
    reportDropped(reason) {
      dropped.add(1, { "error.type": reason });
    },
    reportRetried() {
      retried.add(1);
    },
    executionFinished(seconds, status) {
      duration.record(seconds, { "xzatoma.watcher.run.status": status });
    },
    observeLag(read) {
      lag.addCallback((result) => {
        const value = read();
        if (value !== undefined) result.observe(value);
      });
    },
  };
}
