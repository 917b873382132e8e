import { redactSecrets } from "@xzatoma/redaction";
import { version } from "../version.js";
import { startSdk, telemetrySettingsFromEnv, type Telemetry } from "@xzatoma/otel";

export type { Telemetry } from "@xzatoma/otel";

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** Told about unusable telemetry variables and the first failed export. */
  readonly warn?: (message: string) => void;
}

/**
 * Starts OpenTelemetry for the `xzatoma` command when the environment asks for it:
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` set, or `XZATOMA_TELEMETRY=1` (the collector on
 * localhost:4318). `OTEL_SDK_DISABLED=true` and `XZATOMA_TELEMETRY=0` win. Spans and metrics
 * go over OTLP/HTTP with JSON bodies; the service name defaults to `xzatoma`
 * (`OTEL_SERVICE_NAME`). Resolves with undefined when telemetry is off, having loaded none
 * of the SDK.
 *
 * @example
 * const telemetry = await startTelemetry(process.env, { warn });
 * try { ... createAgentRuntime(config, io, { ..., telemetry }) ... }
 * finally { await telemetry?.shutdown(); }
 */
export async function startTelemetry(
  env: NodeJS.ProcessEnv = process.env,
  options: StartTelemetryOptions = {},
): Promise<Telemetry | undefined> {
  const settings = telemetrySettingsFromEnv(env, { serviceName: "xzatoma" });
  if (settings.disabled || (!settings.traces && !settings.metrics)) return undefined;
  for (const warning of settings.warnings) options.warn?.(warning);
  return startSdk(settings, {
    serviceVersion: version,
    scope: "xzatoma",
    redact: (text) => redactSecrets(text),
    ...(options.warn ? { warn: options.warn } : {}),
  });
}
