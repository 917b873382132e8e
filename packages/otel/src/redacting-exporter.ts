import type { AttributeValue, Attributes } from "@opentelemetry/api";

/** What a span exporter of the bundled SDK looks like from here: only what is wrapped. */
export interface SpanExporterLike<Span> {
  export(spans: Span[], resultCallback: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** The parts of a finished span that carry text: what {@link redactingExporter} rewrites. */
interface SpanText {
  readonly name: string;
  readonly attributes: Attributes;
  readonly status: { readonly code: number; readonly message?: string };
  readonly events: readonly { readonly name: string; readonly attributes?: Attributes }[];
  readonly links: readonly { readonly attributes?: Attributes }[];
}

function redactValue(value: AttributeValue | undefined, redact: (text: string) => string) {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value))
    return value.map((item: unknown) => (typeof item === "string" ? redact(item) : item));
  return value;
}

function redactAttributes(
  attributes: Attributes | undefined,
  redact: (text: string) => string,
): Attributes | undefined {
  if (attributes === undefined) return undefined;
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes))
    result[key] = redactValue(value, redact) as AttributeValue;
  return result;
}

/**
 * `span` as the exporter should see it: its name, status message, attributes and its
 * events' and links' attributes redacted. The span itself is left as it is: the copy
 * inherits everything else from it (its context, times, resource).
 */
function redactedSpan<Span extends SpanText>(span: Span, redact: (text: string) => string): Span {
  const status =
    span.status.message === undefined
      ? span.status
      : { ...span.status, message: redact(span.status.message) };
  return Object.create(span, {
    name: { value: redact(span.name), enumerable: true },
    attributes: { value: redactAttributes(span.attributes, redact), enumerable: true },
    status: { value: status, enumerable: true },
    events: {
      value: span.events.map((event) => ({
        ...event,
        name: redact(event.name),
        attributes: redactAttributes(event.attributes, redact),
      })),
      enumerable: true,
    },
    links: {
      value: span.links.map((link) => ({
        ...link,
        attributes: redactAttributes(link.attributes, redact),
      })),
      enumerable: true,
    },
  }) as Span;
}

/**
 * Wraps a span exporter so that nothing secret leaves in a span: every text a span
 * carries (its name, status message, string attributes and its events' and links'
 * attributes) goes through `redact` on its way out, whoever set it (XZatoma's run
 * telemetry, or an instrumentation that records URLs and errors).
 */
export function redactingExporter<Span extends SpanText>(
  exporter: SpanExporterLike<Span>,
  redact: (text: string) => string,
): SpanExporterLike<Span> {
  return {
    export(spans, resultCallback) {
      exporter.export(
        spans.map((span) => redactedSpan(span, redact)),
        resultCallback,
      );
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
