/**
 * W3C trace context (`traceparent`, `tracestate`) as the watcher reads it from a trigger and
 * writes it on a result: the trace a run belongs to, continued from the event that asked for
 * it, or a new one when the event names none or an invalid one.
 */
import { randomBytes } from "node:crypto";
import {
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type SpanContext,
} from "@opentelemetry/api";

/** The fields of a `traceparent`. */
export interface TraceParent {
  readonly traceId: string;
  /** The id of the span that sent the event: the parent of what the event starts. */
  readonly spanId: string;
  readonly traceFlags: number;
}

// version-traceid-parentid-flags, lowercase hex. A later version may append fields.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/**
 * Reads a `traceparent` as W3C Trace Context says a receiver must: `undefined` (start a new
 * trace) for anything invalid: a wrong shape or length, upper-case hex, version `ff`, fields
 * after a version `00` value, an all-zero trace id or parent id.
 */
export function parseTraceparent(text: string | undefined): TraceParent | undefined {
  if (text === undefined) return undefined;
  const match = TRACEPARENT.exec(text.trim());
  if (!match) return undefined;
  const [, version = "", traceId = "", spanId = "", flags = "", rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** `00-<trace id>-<span id>-<flags>`. */
export function formatTraceparent(context: TraceParent): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/**
 * A `tracestate` worth passing on: printable ASCII of at most 512 characters (the list's
 * own rules are the tracing system's business), else `undefined`.
 */
export function usableTracestate(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === "" || trimmed.length > 512) return undefined;
  return /^[\x20-\x7e]+$/.test(trimmed) ? trimmed : undefined;
}

/**
 * The OpenTelemetry context whose span is the remote one `traceparent` names: pass it as the
 * parent of a span so the span continues that trace. `undefined` when `traceparent` is not
 * valid W3C trace context.
 */
export function contextOfTraceparent(
  traceparent: string | undefined,
  tracestate?: string,
): Context | undefined {
  const parent = parseTraceparent(traceparent);
  if (parent === undefined) return undefined;
  const state = usableTracestate(tracestate);
  const spanContext: SpanContext = {
    ...parent,
    isRemote: true,
    ...(state !== undefined ? { traceState: createTraceState(state) } : {}),
  };
  return trace.setSpanContext(ROOT_CONTEXT, spanContext);
}

/**
 * The trace context a run passes on (to the agent's spans and the result event): `span`'s own
 * when a tracer recorded it, else a context made here in the trace of `parent` (a new trace
 * without one), so that results carry trace context even where no OpenTelemetry SDK runs.
 */
export function traceparentOfRun(
  span: { spanContext(): SpanContext },
  parent: TraceParent | undefined,
): string {
  const own = span.spanContext();
  // Without an SDK, the API's span carries the parent's context (or none): not a span of its own.
  if (isSpanContextValid(own) && own.spanId !== parent?.spanId) return formatTraceparent(own);
  return formatTraceparent({
    traceId: parent?.traceId ?? randomBytes(16).toString("hex"),
    spanId: randomBytes(8).toString("hex"),
    traceFlags: parent?.traceFlags ?? TraceFlags.SAMPLED,
  });
}
