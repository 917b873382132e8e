import { describe, expect, it } from "vitest";
import { recordingMeter } from "./recording-meter.test-support.js";
import { createWatcherMetrics, EXECUTION_DURATION_BUCKETS } from "./watcher-metrics.js";

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

  it("counts each disposition on its own counter, republished results apart from runs", () => {
    const { meter, added } = recordingMeter();
    const metrics = createWatcherMetrics(meter);
    metrics.handled("executed");
    metrics.handled("republished");
    expect(metrics.counts).toMatchObject({ executed: 1, failed: 0, republished: 1 });
    expect(added.get("xzatoma.watcher.events.executed")).toBe(1);
    expect(added.get("xzatoma.watcher.events.republished")).toBe(1);
  });
});
