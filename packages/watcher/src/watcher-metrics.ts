import { metrics as otelMetrics, type Meter } from "@opentelemetry/api";

/** What happened to one consumed message. */
export type EventDisposition =
  "executed" | "failed" | "republished" | "filtered" | "duplicate" | "dead_lettered" | "skipped";

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

/** The watcher's instruments, through `@opentelemetry/api` (no SDK here; the app starts one). */
export interface WatcherMetrics {
  readonly counts: Readonly<WatcherCounts>;
  consumed(): void;
  handled(disposition: EventDisposition): void;
  /** A finished execution: its duration and whether it completed. */
  executionFinished(seconds: number, status: "completed" | "failed"): void;
  /** Reports the consumer lag through `read` when a reader collects metrics. */
  observeLag(read: () => number | undefined): void;
}

/**
 * Instruments named after what they count (`xzatoma.watcher.events.consumed`, ...), which a
 * Prometheus exporter shows as `xzatoma_watcher_events_consumed_total`.
 */
export function createWatcherMetrics(
  meter: Meter = otelMetrics.getMeter("xzatoma-watcher"),
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
  const consumed = meter.createCounter("xzatoma.watcher.events.consumed", {
    description: "Messages read from the input topic",
  });
  const counters = {
    executed: meter.createCounter("xzatoma.watcher.events.executed", {
      description: "Events whose plan ran to completion",
    }),
    failed: meter.createCounter("xzatoma.watcher.events.failed", {
      description: "Events whose plan ran and failed (error, limit or timeout)",
    }),
    republished: meter.createCounter("xzatoma.watcher.events.republished", {
      description: "Redelivered messages whose stored result was published again without running",
    }),
    filtered: meter.createCounter("xzatoma.watcher.events.filtered", {
      description: "Events the filters or the plan match turned away",
    }),
    duplicate: meter.createCounter("xzatoma.watcher.events.duplicate", {
      description: "Second copies of events already handled, not run again",
    }),
    dead_lettered: meter.createCounter("xzatoma.watcher.events.dead_lettered", {
      description: "Messages sent to the dead-letter topic",
    }),
    skipped: meter.createCounter("xzatoma.watcher.events.skipped", {
      description: "Valid events that carry nothing to run",
    }),
  };
  const duration = meter.createHistogram("xzatoma.watcher.execution.duration", {
    description: "How long a plan's execution took",
    unit: "s",
    advice: { explicitBucketBoundaries: [...EXECUTION_DURATION_BUCKETS] },
  });
  const lag = meter.createObservableGauge("xzatoma.watcher.consumer.lag", {
    description: "Messages of the input topic not yet committed by the group",
  });
  return {
    counts,
    consumed() {
      counts.consumed += 1;
      consumed.add(1);
    },
    handled(disposition) {
      counts[disposition] += 1;
      counters[disposition].add(1);
    },
    executionFinished(seconds, status) {
      duration.record(seconds, { status });
    },
    observeLag(read) {
      lag.addCallback((result) => {
        const value = read();
        if (value !== undefined) result.observe(value);
      });
    },
  };
}
