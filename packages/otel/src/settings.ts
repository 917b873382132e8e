/** Where one signal goes over OTLP/HTTP. */
export interface OtlpEndpoint {
  /** The full URL the exporter posts to (`.../v1/traces`, `.../v1/metrics`). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Milliseconds one export may take. */
  readonly timeoutMs: number;
}

/** What the standard OpenTelemetry variables (and `XZATOMA_TELEMETRY`) ask for. */
export interface TelemetrySettings {
  /** `OTEL_SDK_DISABLED=true` or `XZATOMA_TELEMETRY=0`: nothing starts, whatever else is set. */
  readonly disabled: boolean;
  /** `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else the default. */
  readonly serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, decoded. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** Where spans go; undefined when nothing asks for them. */
  readonly traces?: OtlpEndpoint;
  /** Where metrics go; undefined when nothing asks for them. */
  readonly metrics?: OtlpEndpoint;
  /** `OTEL_METRIC_EXPORT_INTERVAL`: milliseconds between two metric exports. */
  readonly metricExportIntervalMs: number;
  /** Variables that were set to something unusable, and what was done instead. */
  readonly warnings: readonly string[];
}

/** The OTLP/HTTP port every collector listens on, used when only `XZATOMA_TELEMETRY=1` is set. */
export const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

type Env = Readonly<Record<string, string | undefined>>;

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === undefined || text === "" ? undefined : text;
}

/** `key=value,key2=value2` with percent-encoded values (W3C baggage style, as the spec says). */
function parseList(
  text: string | undefined,
  name: string,
  warnings: string[],
): Record<string, string> {
  const result: Record<string, string> = {};
  if (text === undefined) return result;
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const equals = entry.indexOf("=");
    const key = equals > 0 ? entry.slice(0, equals).trim() : "";
    if (key === "") {
      warnings.push(`${name}: '${entry.trim()}' is not key=value; it is ignored.`);
      continue;
    }
    const raw = entry.slice(equals + 1).trim();
    try {
      result[key] = decodeURIComponent(raw);
    } catch {
      result[key] = raw;
    }
  }
  return result;
}

function positiveMs(
  env: Env,
  names: readonly string[],
  fallback: number,
  warnings: string[],
): number {
  for (const name of names) {
    const text = value(env, name);
    if (text === undefined) continue;
    const ms = Number(text);
    if (Number.isInteger(ms) && ms > 0) return ms;
    warnings.push(
      `${name}='${text}' is not a positive number of milliseconds; ${fallback} is used.`,
    );
    return fallback;
  }
  return fallback;
}

function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path}`;
}

/**
 * Whether an OTLP exporter is wanted for a signal, and where it posts. A signal's own
 * endpoint wins; the general one gets `/v1/<signal>` appended; `XZATOMA_TELEMETRY=1` alone
 * means the default collector on localhost. `OTEL_<SIGNAL>_EXPORTER=none` turns it off.
 */
function endpointFor(
  env: Env,
  signal: "traces" | "metrics",
  switchedOn: boolean,
  warnings: string[],
): OtlpEndpoint | undefined {
  const upper = signal.toUpperCase();
  const exporters = value(env, `OTEL_${upper}_EXPORTER`)
    ?.split(",")
    .map((name) => name.trim().toLowerCase());
  if (exporters?.includes("none")) return undefined;
  if (exporters && !exporters.includes("otlp")) {
    warnings.push(
      `OTEL_${upper}_EXPORTER='${exporters.join(",")}' is not supported; XZatoma exports ${signal} with OTLP only.`,
    );
  }
  const own = value(env, `OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`);
  const general = value(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const url =
    own ??
    (general !== undefined
      ? joinPath(general, `v1/${signal}`)
      : switchedOn
        ? joinPath(DEFAULT_OTLP_ENDPOINT, `v1/${signal}`)
        : undefined);
  if (url === undefined) return undefined;
  for (const name of [`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`, "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const protocol = value(env, name);
    if (protocol === undefined) continue;
    if (protocol !== "http/json") {
      warnings.push(
        `${name}='${protocol}' is not supported; XZatoma sends OTLP over HTTP with JSON bodies (http/json), which OTLP/HTTP receivers accept.`,
      );
    }
    break;
  }
  return {
    url,
    headers: {
      ...parseList(
        value(env, "OTEL_EXPORTER_OTLP_HEADERS"),
        "OTEL_EXPORTER_OTLP_HEADERS",
        warnings,
      ),
      ...parseList(
        value(env, `OTEL_EXPORTER_OTLP_${upper}_HEADERS`),
        `OTEL_EXPORTER_OTLP_${upper}_HEADERS`,
        warnings,
      ),
    },
    timeoutMs: positiveMs(
      env,
      [`OTEL_EXPORTER_OTLP_${upper}_TIMEOUT`, "OTEL_EXPORTER_OTLP_TIMEOUT"],
      DEFAULT_TIMEOUT_MS,
      warnings,
    ),
  };
}

function isTrue(text: string | undefined): boolean {
  return text !== undefined && ["1", "true", "on", "yes"].includes(text.toLowerCase());
}

function isFalse(text: string | undefined): boolean {
  return text !== undefined && ["0", "false", "off", "no"].includes(text.toLowerCase());
}

/**
 * Reads the standard OpenTelemetry environment variables (`OTEL_SDK_DISABLED`,
 * `OTEL_EXPORTER_OTLP_[TRACES_|METRICS_]ENDPOINT`, `..._HEADERS`, `..._TIMEOUT`,
 * `..._PROTOCOL`, `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`, `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_METRIC_EXPORT_INTERVAL`) and `XZATOMA_TELEMETRY`
 * (`1` turns telemetry on with the default collector, `0` turns it off). Telemetry is off
 * unless one of them asks for it. Pure: it loads nothing and starts nothing.
 *
 * @example
 * const settings = telemetrySettingsFromEnv(process.env, { serviceName: "xzatoma" });
 * if (!settings.disabled && (settings.traces || settings.metrics)) startSdk(settings);
 */
export function telemetrySettingsFromEnv(
  env: Env,
  defaults: { readonly serviceName: string },
): TelemetrySettings {
  const warnings: string[] = [];
  const switchValue = value(env, "XZATOMA_TELEMETRY");
  const disabled =
    value(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true" || isFalse(switchValue);
  const switchedOn = isTrue(switchValue);
  if (switchValue !== undefined && !switchedOn && !isFalse(switchValue)) {
    warnings.push(`XZATOMA_TELEMETRY='${switchValue}' is neither 1 nor 0; it is ignored.`);
  }
  const resourceAttributes = parseList(
    value(env, "OTEL_RESOURCE_ATTRIBUTES"),
    "OTEL_RESOURCE_ATTRIBUTES",
    warnings,
  );
  const serviceName =
    value(env, "OTEL_SERVICE_NAME") ?? resourceAttributes["service.name"] ?? defaults.serviceName;
  const traces = disabled ? undefined : endpointFor(env, "traces", switchedOn, warnings);
  const metrics = disabled ? undefined : endpointFor(env, "metrics", switchedOn, warnings);
  return {
    disabled,
    serviceName,
    resourceAttributes,
    ...(traces ? { traces } : {}),
    ...(metrics ? { metrics } : {}),
    metricExportIntervalMs: positiveMs(
      env,
      ["OTEL_METRIC_EXPORT_INTERVAL"],
      DEFAULT_METRIC_INTERVAL_MS,
      warnings,
    ),
    warnings: [...new Set(warnings)],
  };
}
