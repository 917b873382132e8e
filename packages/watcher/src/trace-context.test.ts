import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import {
  contextOfTraceparent,
  formatTraceparent,
  parseTraceparent,
  traceparentOfRun,
} from "./trace-context.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";
const VALID = `00-${TRACE}-${SPAN}-01`;

describe("traceparent", () => {
  it("reads a valid traceparent, and writes it back", () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1 });
    expect(parseTraceparent(` ${VALID} `)).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1 });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.traceFlags).toBe(0);
    // A later version may add fields; the first four are read.
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-later`)?.traceId).toBe(TRACE);
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, traceFlags: 1 })).toBe(VALID);
  });

  it("ignores anything W3C trace context calls invalid", () => {
    for (const invalid of [
      undefined,
      "",
      "nonsense",
      `00-${TRACE}-${SPAN}`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE}a-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-1`,
    ]) {
      expect(parseTraceparent(invalid)).toBeUndefined();
      expect(contextOfTraceparent(invalid)).toBeUndefined();
    }
  });

  it("makes a context whose span is the remote parent, with its tracestate", () => {
    const context = contextOfTraceparent(VALID, "vendor=abc");
    const spanContext = context === undefined ? undefined : trace.getSpanContext(context);
    expect(spanContext).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: 1,
      isRemote: true,
    });
    expect(spanContext?.traceState?.get("vendor")).toBe("abc");
  });

  it("gives a run the span's context, or one of its own in the parent's trace without an SDK", () => {
    const parent = parseTraceparent(VALID);
    const own = { traceId: TRACE, spanId: "1111111111111111", traceFlags: 1 };
    expect(traceparentOfRun({ spanContext: () => own }, parent)).toBe(
      `00-${TRACE}-1111111111111111-01`,
    );
    // The API without an SDK hands back the parent's own context: a fresh span id is made.
    const noop = trace.getTracer("test").startSpan("x", {}, contextOfTraceparent(VALID));
    const made = parseTraceparent(traceparentOfRun(noop, parent));
    expect(made).toMatchObject({ traceId: TRACE, traceFlags: 1 });
    expect(made?.spanId).not.toBe(SPAN);
    // No parent: a new trace.
    const fresh = parseTraceparent(
      traceparentOfRun(trace.getTracer("test").startSpan("x"), undefined),
    );
    expect(fresh?.traceId).not.toBe(TRACE);
  });
});
