import type { Meter, Tracer } from "@opentelemetry/api";
import type { IMetricReader } from "@opentelemetry/sdk-metrics";
import type { RunTelemetrySource } from "@xzatoma/core";
import { createRunTelemetry } from "./run-telemetry.js";
import type { TelemetrySettings } from "./settings.js";
import { redactingExporter } from "./redacting-exporter.js";

/**
 * A running OpenTelemetry SDK: what the agent runtime records into. It is a
 * `RunTelemetrySource`: pass it as `telemetry` of `createAgentRuntime`, and each run's
 * events become spans and metrics through its `createRunTelemetry`.
 */
export interface Telemetry extends RunTelemetrySource {
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** {@link createRunTelemetry}, so the runtime needs nothing of this package to record. */
  readonly createRunTelemetry: typeof createRunTelemetry;
  /**
   * Exports what is still buffered and stops the exporters. Never rejects; an unreachable
   * collector costs at most the export timeout (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
   */
  shutdown(): Promise<void>;
}

/**
 * A metric reader of `@opentelemetry/sdk-metrics` 3.x, such as the Prometheus exporter's.
 * The SDK is bundled into this package, so its types are not part of the public API: any
 * object with the reader's methods is accepted.
 */
export interface MetricReaderLike {
  setMetricProducer(producer: never): void;
  shutdown(options?: never): Promise<void>;
  forceFlush(options?: never): Promise<void>;
}

/** How the SDK is started, beyond the settings the environment gave. */
export interface SdkOptions {
  readonly serviceVersion: string;
  /** The instrumentation scope's name (the tracer's and meter's). */
  readonly scope: string;
  /** Metric readers besides OTLP (the watcher's Prometheus endpoint). */
  readonly extraReaders?: readonly MetricReaderLike[];
  /** Told about the first export failure, once. */
  readonly warn?: (message: string) => void;
  /**
   * Applied to every text a span carries on its way out (name, status message, string
   * attributes, event and link attributes): `redactSecrets` of `@xzatoma/safety`.
   * Required, so that no caller exports a failed command's output as it is.
   */
  readonly redact: (text: string) => string;
}

/**
 * What went wrong, from a message of the SDK's error handler: the cause of a failed export
 * (`connect ECONNREFUSED 127.0.0.1:4318`) rather than the JSON of an error with its stack.
 */
function exportFailure(message: string, args: unknown[]): string {
  let text = message;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    if (typeof parsed.message === "string") text = parsed.message;
  } catch {
    // Not JSON: the message as it is.
  }
  const extra = args.map((arg) => (arg instanceof Error ? arg.message : String(arg)));
  text = [text, ...extra].join(" ");
  const cause = /\(error (?:[A-Za-z]*Error: )?(.*)\)\s*$/s.exec(text);
  return (cause?.[1] ?? text).trim();
}

/**
 * Loads the OpenTelemetry SDK and the OTLP/HTTP (JSON) exporters the settings ask for and
 * starts them. Every import is dynamic: a process that never calls this loads none of them.
 */
export async function startSdk(
  settings: TelemetrySettings,
  options: SdkOptions,
): Promise<Telemetry> {
  const api = await import("@opentelemetry/api");
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  const resource = resourceFromAttributes({
    ...settings.resourceAttributes,
    "service.name": settings.serviceName,
    "service.version": options.serviceVersion,
  });

  if (options.warn) {
    const warn = options.warn;
    let told = false;
    // Export failures reach only the diagnostic logger: say the first one, then nothing more.
    api.diag.setLogger(
      {
        error: (message, ...args) => {
          if (told) return;
          told = true;
          warn(
            `telemetry: an export failed (${exportFailure(message, args)}); further failures are not reported.`,
          );
        },
        warn: () => {},
        info: () => {},
        debug: () => {},
        verbose: () => {},
      },
      { logLevel: api.DiagLogLevel.ERROR, suppressOverrideMessage: true },
    );
  }

  const stops: (() => Promise<void>)[] = [];
  let tracer: Tracer;
  if (settings.traces) {
    const [{ TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/exporter-trace-otlp-http"),
    ]);
    const exporter = redactingExporter(
      new OTLPTraceExporter({
        url: settings.traces.url,
        headers: { ...settings.traces.headers },
        timeoutMillis: settings.traces.timeoutMs,
      }),
      options.redact,
    );
    const provider = new TracerProvider({
      resource,
      spanProcessors: [
        new BatchSpanProcessor({ exporter, exportTimeoutMillis: settings.traces.timeoutMs }),
      ],
    });
    tracer = provider.getTracer(options.scope, options.serviceVersion);
    stops.push(() => provider.shutdown());
  } else {
    // Metrics only: spans go nowhere, at the cost of the API's no-op tracer.
    tracer = new api.ProxyTracerProvider().getTracer(options.scope);
  }

  // The reader came from another copy of sdk-metrics: only its interface is used.
  const readers = [...(options.extraReaders ?? [])] as IMetricReader[];
  if (settings.metrics) {
    const [{ PeriodicExportingMetricReader }, { OTLPMetricExporter }] = await Promise.all([
      import("@opentelemetry/sdk-metrics"),
      import("@opentelemetry/exporter-metrics-otlp-http"),
    ]);
    const interval = settings.metricExportIntervalMs;
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({
          url: settings.metrics.url,
          headers: { ...settings.metrics.headers },
          timeoutMillis: settings.metrics.timeoutMs,
        }),
        exportIntervalMillis: interval,
        exportTimeoutMillis: Math.min(settings.metrics.timeoutMs, interval),
      }),
    );
  }
  let meter: Meter;
  if (readers.length > 0) {
    const { MeterProvider } = await import("@opentelemetry/sdk-metrics");
    const provider = new MeterProvider({ resource, readers });
    meter = provider.getMeter(options.scope, options.serviceVersion);
    stops.push(() => provider.shutdown());
  } else {
    meter = api.createNoopMeter();
  }

  let stopped: Promise<void> | undefined;
  return {
    tracer,
    meter,
    createRunTelemetry,
    shutdown() {
      stopped ??= Promise.allSettled(stops.map((stop) => stop())).then(() => undefined);
      return stopped;
    },
  };
}
