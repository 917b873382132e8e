import { readFileSync } from "node:fs";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { MAX_TIMER_MS } from "@xzatoma/core";
import type { InboundMessage, MessageOutcome } from "@xzatoma/xzepr";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordingMeter } from "./recording-meter.test-support.js";
import { recordingTracer } from "./recording-tracer.test-support.js";
import { createMemoryLedger } from "./event-ledger.js";
import { createMessageHandler, type MessageHandlerOptions } from "./message-handler.js";
import type { ExecutionRequest, PlanExecutor } from "./plan-executor.js";
import { watcherConfigSchema } from "@xzatoma/runtime/sections";
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

const decoder = new TextDecoder();

/** The one result record an outcome publishes, parsed. */
function resultOf(outcome: MessageOutcome): Record<string, unknown> {
  const value = outcome.publish[0]?.records[0]?.value;
  expect(value).toBeDefined();
  return JSON.parse(typeof value === "string" ? value : decoder.decode(value)) as Record<
    string,
    unknown
  >;
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

describe("a run that ignores the stop", () => {
  const never: PlanExecutor = () => new Promise<never>(() => undefined);

  it("is abandoned after the timeout and 30 s more, reported failed, and frees its slot", async () => {
    vi.useFakeTimers();
    let stopped: AbortSignal | undefined;
    const { handler, metrics, logs } = handlerOf(
      { execution: { execution_timeout_secs: 5, max_retries: 2 } },
      (_request, signal) => {
        stopped = signal;
        return new Promise<never>(() => undefined);
      },
    );
    let outcome: MessageOutcome | undefined;
    void handler(messageOf(BUILD), new AbortController().signal).then((value) => {
      outcome = value;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stopped?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeDefined();
    const result = resultOf(outcome!);
    expect(result["type"]).toBe("io.xzatoma.watcher.plan.failed");
    expect(result["data"]).toMatchObject({
      status: "failed",
      stopReason: "timeout",
      error: {
        message: expect.stringMatching(
          /execution_timeout_secs \(5 s\).*did not stop within 30 s.*abandoned/,
        ),
      },
    });
    expect(metrics.counts).toMatchObject({ failed: 1, executed: 0 });
    expect(logs.some((line) => line.includes("abandoned"))).toBe(true);
    // A timeout is not retried: one attempt.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("takes its bounded wait from settleMs", async () => {
    vi.useFakeTimers();
    const { handler } = handlerOf({ execution: { execution_timeout_secs: 1 } }, never, {
      settleMs: 10,
    });
    const outcome = handler(messageOf(BUILD), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1_010);
    expect(resultOf(await outcome)["data"]).toMatchObject({ status: "failed" });
  });

  it("leaves no timer behind for a run that stops when told to", async () => {
    vi.useFakeTimers();
    const { handler } = handlerOf(
      { execution: { execution_timeout_secs: 1 } },
      (_request, signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve({ stopReason: "aborted", text: "" })),
        ),
    );
    const outcome = handler(messageOf(BUILD), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(resultOf(await outcome)["data"]).toMatchObject({
      stopReason: "timeout",
      error: { message: expect.stringMatching(/\(1 s\) and was stopped\.$/) },
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves a run that ignores the watcher stopping for redelivery, after the same wait", async () => {
    vi.useFakeTimers();
    const stopping = new AbortController();
    const { handler, metrics } = handlerOf({}, never);
    let failure: unknown;
    void handler(messageOf(BUILD), stopping.signal).catch((error: unknown) => {
      failure = error;
    });
    await vi.advanceTimersByTimeAsync(100);
    stopping.abort(new Error("The watcher is stopping."));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe("The watcher is stopping.");
    expect(metrics.counts).toMatchObject({ failed: 0, executed: 0 });
  });

  it("does not start a run when the watcher is already stopping", async () => {
    const stopping = new AbortController();
    stopping.abort(new Error("The watcher is stopping."));
    let calls = 0;
    const { handler } = handlerOf({}, async (request) => {
      calls += 1;
      return { stopReason: "completed", text: request.title };
    });
    await expect(handler(messageOf(BUILD), stopping.signal)).rejects.toThrow(
      "The watcher is stopping.",
    );
    expect(calls).toBe(0);
  });
});

describe("trace context", () => {
  const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  const SPAN = "00f067aa0ba902b7";
  const TRACEPARENT = `00-${TRACE}-${SPAN}-01`;
  const plan = { name: "verify", steps: [{ name: "s", action: "echo" }] };
  const cloudEvent = {
    specversion: "1.0",
    id: "ce-1",
    source: "https://ci.example.com/pipelines/42",
    type: "com.example.build.succeeded",
    datacontenttype: "application/json",
    data: { plan },
  };

  async function run(message: InboundMessage) {
    const { tracer, spans } = recordingTracer();
    const requests: ExecutionRequest[] = [];
    const { handler } = handlerOf(
      {},
      async (request) => {
        requests.push(request);
        return { stopReason: "completed", text: "ok" };
      },
      { tracer },
    );
    const outcome = await handler(message, new AbortController().signal);
    const [span, ...others] = spans;
    expect(others).toEqual([]);
    expect(span).toMatchObject({
      name: "process xzepr.events",
      kind: SpanKind.CONSUMER,
      ended: true,
    });
    return { span: span!, request: requests[0]!, result: resultOf(outcome) };
  }

  /** The run continues the trigger's trace: its span's parent is the trigger's span. */
  function expectContinued(outcome: Awaited<ReturnType<typeof run>>) {
    const { span, request, result } = outcome;
    expect(span.parent).toMatchObject({ traceId: TRACE, spanId: SPAN, isRemote: true });
    expect(span.spanContext.traceId).toBe(TRACE);
    const own = `00-${TRACE}-${span.spanContext.spanId}-01`;
    expect(request.traceparent).toBe(own);
    expect(result["traceparent"]).toBe(own);
  }

  it("continues the trace of a structured CloudEvent's traceparent attribute", async () => {
    const continued = await run(
      messageOf(JSON.stringify({ ...cloudEvent, traceparent: TRACEPARENT, tracestate: "ci=42" }), {
        headers: { "content-type": "application/cloudevents+json" },
      }),
    );
    expectContinued(continued);
    expect(continued.result["tracestate"]).toBe("ci=42");
    expect(continued.span.attributes).toMatchObject({
      "messaging.system": "kafka",
      "messaging.destination.name": "xzepr.events",
      "cloudevents.event_id": "ce-1",
      "xzatoma.stop_reason": "completed",
    });
  });

  it("continues the trace of a binary-mode CloudEvent's ce_traceparent header", async () => {
    expectContinued(
      await run(
        messageOf(JSON.stringify({ plan }), {
          headers: {
            ce_specversion: "1.0",
            ce_id: "ce-2",
            ce_source: "https://ci.example.com/pipelines/42",
            ce_type: "com.example.build.succeeded",
            ce_traceparent: TRACEPARENT,
            "content-type": "application/json",
          },
        }),
      ),
    );
  });

  it("continues the trace of a traceparent Kafka header on an XZepr event", async () => {
    expectContinued(await run(messageOf(BUILD, { headers: { traceparent: TRACEPARENT } })));
  });

  it("starts a new trace for an invalid traceparent, or none", async () => {
    for (const invalid of [
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      "not-a-traceparent",
      undefined,
    ]) {
      const { span, request, result } = await run(
        messageOf(BUILD, { headers: invalid === undefined ? {} : { traceparent: invalid } }),
      );
      expect(span.parent).toBeUndefined();
      expect(span.spanContext.traceId).not.toBe(TRACE);
      const own = `00-${span.spanContext.traceId}-${span.spanContext.spanId}-01`;
      expect(request.traceparent).toBe(own);
      expect(result["traceparent"]).toBe(own);
      expect(result["tracestate"]).toBeUndefined();
    }
  });

  it("keeps the trigger's trace id without an SDK, under a span id of its own", async () => {
    const requests: ExecutionRequest[] = [];
    const { handler } = handlerOf({}, async (request) => {
      requests.push(request);
      return { stopReason: "completed", text: "ok" };
    });
    const outcome = await handler(
      messageOf(BUILD, { headers: { traceparent: TRACEPARENT } }),
      new AbortController().signal,
    );
    const traceparent = resultOf(outcome)["traceparent"];
    expect(traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    expect(traceparent).not.toContain(SPAN);
    expect(requests[0]!.traceparent).toBe(traceparent);
  });

  it("marks the span of a failed run as an error", async () => {
    const { tracer, spans } = recordingTracer();
    const { handler } = handlerOf(
      { execution: { max_retries: 0 } },
      async () => ({ stopReason: "error", text: "", error: "no model" }),
      { tracer },
    );
    await handler(messageOf(BUILD), new AbortController().signal);
    expect(spans[0]?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(spans[0]?.attributes["error.type"]).toBe("error");
  });
});
