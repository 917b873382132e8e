import { SpanStatusCode, type Attributes } from "@opentelemetry/api";
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace";

/** A reader the test collects from when it wants (no timer). */
class CollectingReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

function matches(attributes: Attributes, labels: Attributes): boolean {
  return Object.entries(labels).every(([key, value]) => attributes[key] === value);
}

/** The real OpenTelemetry SDK with in-memory export: what a test reads back. */
export function createTestSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });

  async function collect(): Promise<MetricData[]> {
    const { resourceMetrics, errors } = await reader.collect();
    if (errors.length > 0) throw new Error(`metric collection failed: ${String(errors[0])}`);
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  }

  return {
    tracer: tracerProvider.getTracer("test"),
    meter: meterProvider.getMeter("test"),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The finished span with that name; fails when there is not exactly one. */
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      const [only, ...others] = found;
      if (!only || others.length > 0) throw new Error(`${found.length} spans named '${name}'`);
      return only;
    },
    /** Sum of a counter's (or up-down counter's) points whose attributes include `labels`. */
    async sum(name: string, labels: Attributes = {}): Promise<number> {
      const metric = (await collect()).find((entry) => entry.descriptor.name === name);
      if (!metric) return 0;
      if (metric.dataPointType !== DataPointType.SUM) throw new Error(`${name} is not a sum`);
      return metric.dataPoints
        .filter((point) => matches(point.attributes, labels))
        .reduce((total, point) => total + point.value, 0);
    },
    /** Count and sum of a histogram's points whose attributes include `labels`. */
    async histogram(
      name: string,
      labels: Attributes = {},
    ): Promise<{ count: number; sum: number }> {
      const metric = (await collect()).find((entry) => entry.descriptor.name === name);
      if (!metric) return { count: 0, sum: 0 };
      if (metric.dataPointType !== DataPointType.HISTOGRAM)
        throw new Error(`${name} is not a histogram`);
      return metric.dataPoints
        .filter((point) => matches(point.attributes, labels))
        .reduce(
          (total, point) => ({
            count: total.count + point.value.count,
            sum: total.sum + (point.value.sum ?? 0),
          }),
          { count: 0, sum: 0 },
        );
    },
    /** The label sets a metric has points for. */
    async labelSets(name: string): Promise<Attributes[]> {
      const metric = (await collect()).find((entry) => entry.descriptor.name === name);
      return metric ? metric.dataPoints.map((point) => point.attributes) : [];
    },
  };
}

/** True when `child`'s parent is `parent` (same trace, parent span id). */
export function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return (
    child.parentSpanContext?.spanId === parent.spanContext().spanId &&
    child.spanContext().traceId === parent.spanContext().traceId
  );
}

export function isError(span: ReadableSpan): boolean {
  return span.status.code === SpanStatusCode.ERROR;
}
