import type { Meter, MetricOptions } from "@opentelemetry/api";

/** A meter that keeps what the instruments were created with and what they recorded. */
export function recordingMeter() {
  const options = new Map<string, MetricOptions | undefined>();
  const added = new Map<string, number>();
  const recorded: { name: string; value: number; attributes: unknown }[] = [];
  const meter = {
    createCounter(name: string, given?: MetricOptions) {
      options.set(name, given);
      return { add: (value: number) => added.set(name, (added.get(name) ?? 0) + value) };
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
  return { meter, options, added, recorded };
}
