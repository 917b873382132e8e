import { randomBytes } from "node:crypto";
import {
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanOptions,
  type SpanStatus,
  type Tracer,
} from "@opentelemetry/api";

/** A span as {@link recordingTracer} keeps it. */
export interface RecordedSpan {
  readonly name: string;
  readonly kind: SpanKind | undefined;
  readonly attributes: Attributes;
  /** The span context of the parent it was started under, if any. */
  readonly parent: SpanContext | undefined;
  readonly spanContext: SpanContext;
  status: SpanStatus | undefined;
  ended: boolean;
}

/** A tracer that records like an SDK would (its own span ids, its parent's trace id). */
export function recordingTracer(): { tracer: Tracer; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
      const parent = context === undefined ? undefined : trace.getSpanContext(context);
      const record: RecordedSpan = {
        name,
        kind: options.kind,
        attributes: { ...options.attributes },
        parent,
        spanContext: {
          traceId: parent?.traceId ?? randomBytes(16).toString("hex"),
          spanId: randomBytes(8).toString("hex"),
          traceFlags: parent?.traceFlags ?? 1,
        },
        status: undefined,
        ended: false,
      };
      spans.push(record);
      const span = {
        spanContext: () => record.spanContext,
        setAttribute(key: string, value: AttributeValue) {
          record.attributes[key] = value;
          return span;
        },
        setAttributes(attributes: Attributes) {
          Object.assign(record.attributes, attributes);
          return span;
        },
        setStatus(status: SpanStatus) {
          record.status = status;
          return span;
        },
        addEvent: () => span,
        recordException: () => undefined,
        updateName: () => span,
        isRecording: () => !record.ended,
        end() {
          record.ended = true;
        },
      };
      return span as unknown as Span;
    },
    startActiveSpan() {
      throw new Error("not used by the watcher");
    },
  };
  return { tracer: tracer as unknown as Tracer, spans };
}
