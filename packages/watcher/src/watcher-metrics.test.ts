import { describe, expect, it } from "vitest";
import { recordingMeter, seriesId } from "./recording-meter.test-support.js";
import {
  createWatcherMetrics,
  DEAD_LETTER_CODES,
  EVENT_DISPOSITIONS,
  EXECUTION_DURATION_BUCKETS,
  REPORT_DROP_REASONS,
  WATCHER_METRICS,
} from "./watcher-metrics.js";

describe("the watcher's metrics", () => {
  it("gives the execution duration histogram boundaries in seconds, up to an hour", () => {
    const { meter, options } = recordingMeter();
    createWatcherMetrics(meter);
    const histogram = options.get("xzatoma.watcher.execution.duration");
    expect(histogram?.unit).toBe("s");
    const buckets = histogram?.advice?.explicitBucketBoundaries;
    expect(buckets).toEqual([...EXECUTION_DURATION_BUCKETS]);
    expect(buckets?.[0]).toBe(0.1);
    expect(buckets?.at(-1)).toBe(3600);
    expect([...(buckets ?? [])].sort((a, b) => a - b)).toEqual(buckets);
  });

  it("creates every series at zero: each outcome, each dead-letter reason, each dropped-report reason", () => {
    const { meter, series } = recordingMeter();
    createWatcherMetrics(meter, { topic: "in", group: "g" });
    for (const outcome of EVENT_DISPOSITIONS) {
      expect(
        series.get(seriesId("xzatoma.watcher.events", { "xzatoma.watcher.outcome": outcome })),
      ).toBe(0);
    }
    for (const code of DEAD_LETTER_CODES) {
      expect(series.get(seriesId("xzatoma.watcher.dead_letters", { "error.type": code }))).toBe(0);
    }
    for (const reason of REPORT_DROP_REASONS) {
      expect(
        series.get(seriesId("xzatoma.watcher.xzepr.reports.dropped", { "error.type": reason })),
      ).toBe(0);
    }
    expect(
      series.get(
        seriesId("messaging.client.consumed.messages", {
          "messaging.system": "kafka",
          "messaging.destination.name": "in",
          "messaging.consumer.group.name": "g",
        }),
      ),
    ).toBe(0);
  });

  it("names instruments after OpenTelemetry's conventions: dotted lowercase, no _total, a UCUM unit", () => {
    const { meter, options } = recordingMeter();
    createWatcherMetrics(meter);
    for (const name of Object.values(WATCHER_METRICS)) {
      expect(name).toMatch(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);
      expect(name).not.toMatch(/total|count$/);
      expect(options.get(name)?.unit).toMatch(/^(s|\{[a-z]+\})$/);
    }
  });

  it("counts each outcome under its label, republished results apart from runs, dead letters by reason", () => {
    const { meter, series } = recordingMeter();
    const metrics = createWatcherMetrics(meter);
    metrics.handled("executed");
    metrics.handled("republished");
    metrics.deadLettered("invalid_plan");
    metrics.reportDropped("retries_exhausted");
    expect(metrics.counts).toMatchObject({ executed: 1, failed: 0, republished: 1 });
    const outcome = (value: string) =>
      series.get(seriesId("xzatoma.watcher.events", { "xzatoma.watcher.outcome": value }));
    expect([outcome("executed"), outcome("republished"), outcome("failed")]).toEqual([1, 1, 0]);
    expect(
      series.get(seriesId("xzatoma.watcher.dead_letters", { "error.type": "invalid_plan" })),
    ).toBe(1);
    expect(
      series.get(seriesId("xzatoma.watcher.dead_letters", { "error.type": "too_large" })),
    ).toBe(0);
    expect(
      series.get(
        seriesId("xzatoma.watcher.xzepr.reports.dropped", { "error.type": "retries_exhausted" }),
      ),
    ).toBe(1);
  });
});
