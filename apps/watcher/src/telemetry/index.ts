import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { MetricReader } from "@opentelemetry/sdk-metrics";
import { startSdk, telemetrySettingsFromEnv, type Telemetry } from "@xzatoma/otel";
import { redactSecrets } from "@xzatoma/runtime";

export type { Telemetry } from "@xzatoma/otel";

/** The watcher's telemetry: {@link Telemetry}, and where Prometheus scrapes, when it does. */
export interface WatcherTelemetry extends Telemetry {
  /** `http://HOST:PORT/metrics` when the Prometheus endpoint is on. */
  readonly metricsUrl?: string;
  /** With `prometheusHandler`: answers a scrape, for a server the caller runs. */
  readonly metricsHandler?: (request: IncomingMessage, response: ServerResponse) => void;
}

/** Options of {@link startTelemetry}. */
export interface WatcherTelemetryOptions {
  /**
   * Serve Prometheus metrics on this port (0: any free port). Default `XZATOMA_METRICS_PORT`;
   * without either there is no Prometheus endpoint.
   */
  readonly metricsPort?: number;
  /** The address the endpoint binds to. Default `XZATOMA_METRICS_HOST`, else 127.0.0.1. */
  readonly metricsHost?: string;
  /** Told about unusable telemetry variables and the first failed export. */
  readonly warn?: (message: string) => void;
  /**
   * Collect Prometheus metrics but serve nothing: the caller serves `metricsHandler` on its
   * own endpoint (the watcher's health server). Overrides `metricsPort`.
   */
  readonly prometheusHandler?: boolean;
}

function watcherVersion(): string {
  const require = createRequire(import.meta.url);
  // From the bundle (dist/main.js) and from the source (src/telemetry/index.ts).
  for (const candidate of ["../package.json", "../../package.json"]) {
    try {
      const manifest = require(candidate) as { name?: string; version?: string };
      if (manifest.name === "@xzatoma/watcher-service" && manifest.version) return manifest.version;
    } catch {
      // Not there from this file: the other candidate.
    }
  }
  return "unknown";
}

function metricsPortOf(
  env: NodeJS.ProcessEnv,
  options: WatcherTelemetryOptions,
): number | undefined {
  if (options.metricsPort !== undefined) return options.metricsPort;
  const text = env["XZATOMA_METRICS_PORT"]?.trim();
  if (text === undefined || text === "") return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`XZATOMA_METRICS_PORT='${text}' is not a port number (0-65535).`);
  }
  return port;
}

/** Serves `handler` at `/metrics` on host:port; anything else is 404. */
async function servePrometheus(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host: string,
  port: number,
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "GET" && path === "/metrics") handler(request, response);
    else response.writeHead(404, { "content-type": "text/plain" }).end("Not found: try /metrics\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `Cannot serve metrics on ${host}:${port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message} (XZATOMA_METRICS_PORT, XZATOMA_METRICS_HOST).`,
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return server;
}

/**
 * Starts OpenTelemetry for `xzatoma-watcher` when the environment or `options` ask for it:
 * OTLP/HTTP export exactly as the CLI's (`OTEL_EXPORTER_OTLP_ENDPOINT`, its per-signal
 * forms, `XZATOMA_TELEMETRY=1`; service name `xzatoma-watcher` unless `OTEL_SERVICE_NAME`),
 * and a Prometheus endpoint at `/metrics` when a metrics port is given (`metricsPort` or
 * `XZATOMA_METRICS_PORT`), bound to 127.0.0.1 unless `metricsHost`/`XZATOMA_METRICS_HOST`
 * say otherwise. `OTEL_SDK_DISABLED=true` and `XZATOMA_TELEMETRY=0` turn all of it off.
 * Resolves with undefined when nothing is on, having loaded none of the SDK; rejects when
 * the metrics port cannot be bound.
 */
export async function startTelemetry(
  env: NodeJS.ProcessEnv = process.env,
  options: WatcherTelemetryOptions = {},
): Promise<WatcherTelemetry | undefined> {
  const settings = telemetrySettingsFromEnv(env, { serviceName: "xzatoma-watcher" });
  if (settings.disabled) return undefined;
  const port = options.prometheusHandler ? undefined : metricsPortOf(env, options);
  if (!settings.traces && !settings.metrics && port === undefined && !options.prometheusHandler)
    return undefined;
  for (const warning of settings.warnings) options.warn?.(warning);

  const extraReaders: MetricReader[] = [];
  let server: Server | undefined;
  let metricsUrl: string | undefined;
  let metricsHandler: WatcherTelemetry["metricsHandler"];
  if (options.prometheusHandler) {
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    const exporter = new PrometheusExporter({ preventServerStart: true });
    metricsHandler = (request, response) => exporter.getMetricsRequestHandler(request, response);
    extraReaders.push(exporter);
  } else if (port !== undefined) {
    const host = options.metricsHost ?? (env["XZATOMA_METRICS_HOST"]?.trim() || "127.0.0.1");
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    // The watcher serves the endpoint itself, so it binds where asked and knows its port.
    const exporter = new PrometheusExporter({ preventServerStart: true });
    server = await servePrometheus(
      (request, response) => exporter.getMetricsRequestHandler(request, response),
      host,
      port,
    );
    const address = server.address() as AddressInfo;
    const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
    metricsUrl = `http://${shownHost}:${address.port}/metrics`;
    extraReaders.push(exporter);
  }
  const telemetry = await startSdk(settings, {
    serviceVersion: watcherVersion(),
    scope: "xzatoma-watcher",
    redact: (text) => redactSecrets(text),
    extraReaders,
    ...(options.warn ? { warn: options.warn } : {}),
  });
  const running = server;
  let stopped: Promise<void> | undefined;
  return {
    tracer: telemetry.tracer,
    meter: telemetry.meter,
    createRunTelemetry: telemetry.createRunTelemetry,
    ...(metricsUrl ? { metricsUrl } : {}),
    ...(metricsHandler ? { metricsHandler } : {}),
    shutdown() {
      stopped ??= Promise.all([
        telemetry.shutdown(),
        new Promise<void>((resolve) => {
          if (!running) return resolve();
          running.close(() => resolve());
          // A scraper's kept-alive connection would hold the close open.
          running.closeAllConnections();
        }),
      ]).then(() => undefined);
      return stopped;
    },
  };
}
