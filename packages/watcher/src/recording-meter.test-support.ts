import type { Meter, MetricOptions } from "@opentelemetry/api";

/** A meter that keeps what the instruments were created with and what they recorded. */
export function recordingMeter() {
  const options = new Map<string, MetricOptions | undefined>();
  /** Sum of what each counter added, over all attributes. */
  const added = new Map<string, number>();
  /** Sum per counter and attributes: `name{key=value,...}` (keys sorted) → total. */
  const series = new Map<string, number>();
  const recorded: { name: string; value: number; attributes: unknown }[] = [];
  const meter = {
    createCounter(name: string, given?: MetricOptions) {
      options.set(name, given);
      return {
        add: (value: number, attributes: Record<string, unknown> = {}) => {
          added.set(name, (added.get(name) ?? 0) + value);
          const id = seriesId(name, attributes);
          series.set(id, (series.get(id) ?? 0) + value);
        },
      };
    },
    createHistogram(name: string, given?: MetricOptions) {
      options.set(name, given);
      return {
        record: (value: number, attributes?: unknown) => recorded.push({ name, value, attributes }),
      };
    },
    createObservableGauge(name: string, given?: MetricOptions) {
      options.set(name, given);
      return { addCallback: () => undefined };
    },
  } as unknown as Meter;
  return { meter, options, added, series, recorded };
}

/** The key of one series in {@link recordingMeter}'s `series`. */
export function seriesId(name: string, attributes: Record<string, unknown> = {}): string {
  const pairs = Object.keys(attributes)
    .sort()
    .map((key) => `${key}=${String(attributes[key])}`);
  return `${name}{${pairs.join(",")}}`;
}
