import { readFileSync } from "node:fs";
import { MAX_TIMER_MS } from "@xzatoma/core";
import type { InboundMessage } from "@xzatoma/xzepr";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordingMeter } from "./recording-meter.test-support.js";
import { createMemoryLedger } from "./event-ledger.js";
import { createMessageHandler, type MessageHandlerOptions } from "./message-handler.js";
import type { PlanExecutor } from "./plan-executor.js";
import { watcherConfigSchema } from "./watcher-config.js";
import { createWatcherLogger } from "./watcher-logger.js";
import { createWatcherMetrics } from "./watcher-metrics.js";

const BUILD = readFileSync(
  new URL("../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);

const encoder = new TextEncoder();

function messageOf(
  value: string,
  options: { offset?: number; headers?: Record<string, string> } = {},
): InboundMessage {
  return {
    topic: "xzepr.events",
    partition: 0,
    offset: String(options.offset ?? 0),
    key: undefined,
    value: encoder.encode(value),
    headers: options.headers ?? {},
    timestamp: 0,
  };
}

function handlerOf(
  section: Record<string, unknown>,
  executor: PlanExecutor,
  extra: Partial<MessageHandlerOptions> = {},
) {
  const metrics = extra.metrics ?? createWatcherMetrics();
  const logs: string[] = [];
  const handler = createMessageHandler({
    config: watcherConfigSchema.parse(section),
    executor,
    ledger: createMemoryLedger(),
    logger: createWatcherLogger({ level: "debug", json: true, write: (line) => logs.push(line) }),
    instance: "xzatoma-watcher://test/1",
    ...extra,
    metrics,
  });
  return { handler, metrics, logs };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("retries", () => {
  it("doubles the backoff up to the longest delay a timer keeps, never past it", async () => {
    const waits: number[] = [];
    const { handler } = handlerOf(
      { execution: { max_retries: 4, retry_backoff_ms: 2 ** 30 } },
      async () => ({ stopReason: "error", text: "", error: "model server unreachable" }),
      {
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    await handler(messageOf(BUILD), new AbortController().signal);
    expect(waits).toEqual([2 ** 30, MAX_TIMER_MS, MAX_TIMER_MS, MAX_TIMER_MS]);
  });
});

describe("metrics", () => {
  it("counts a run once: a redelivery that publishes the stored result is counted as republished", async () => {
    const { meter, recorded } = recordingMeter();
    const metrics = createWatcherMetrics(meter);
    const { handler } = handlerOf(
      {},
      async (request) => ({ stopReason: "completed", text: request.title }),
      { metrics },
    );
    const message = messageOf(BUILD, { offset: 7 });
    const first = await handler(message, new AbortController().signal);
    // The transport did not get the result out: the same message comes again.
    const again = await handler(message, new AbortController().signal);
    expect(again.publish).toEqual(first.publish);
    expect(metrics.counts).toMatchObject({
      consumed: 2,
      executed: 1,
      failed: 0,
      republished: 1,
      duplicate: 0,
    });
    expect(
      recorded.filter((entry) => entry.name === "xzatoma.watcher.execution.duration"),
    ).toHaveLength(1);
  });

  it("does not count a stored failed result as another failure", async () => {
    const metrics = createWatcherMetrics(recordingMeter().meter);
    const { handler } = handlerOf(
      { execution: { max_retries: 0 } },
      async () => ({ stopReason: "error", text: "", error: "no model" }),
      { metrics },
    );
    const message = messageOf(BUILD);
    await handler(message, new AbortController().signal);
    await handler(message, new AbortController().signal);
    expect(metrics.counts).toMatchObject({ executed: 0, failed: 1, republished: 1 });
  });
});
