import { describe, expect, it } from "vitest";
import { telemetrySettingsFromEnv } from "./settings.js";

const read = (env: Record<string, string>) =>
  telemetrySettingsFromEnv(env, { serviceName: "xzatoma" });

describe("telemetrySettingsFromEnv", () => {
  it("is off when nothing asks for telemetry", () => {
    const settings = read({});
    expect(settings.traces).toBeUndefined();
    expect(settings.metrics).toBeUndefined();
    expect(settings.disabled).toBe(false);
    expect(settings.serviceName).toBe("xzatoma");
  });

  it("sends both signals to the general endpoint with the signal's path appended", () => {
    const settings = read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(settings.traces?.url).toBe("http://collector:4318/v1/traces");
    expect(settings.metrics?.url).toBe("http://collector:4318/v1/metrics");
    expect(settings.traces?.timeoutMs).toBe(10_000);
  });

  it("uses a signal's own endpoint as it is, and exports only that signal when no other is set", () => {
    const settings = read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:1234/custom" });
    expect(settings.traces?.url).toBe("http://t:1234/custom");
    expect(settings.metrics).toBeUndefined();
  });

  it("turns on with XZATOMA_TELEMETRY=1 and the local collector", () => {
    const settings = read({ XZATOMA_TELEMETRY: "1" });
    expect(settings.traces?.url).toBe("http://localhost:4318/v1/traces");
    expect(settings.metrics?.url).toBe("http://localhost:4318/v1/metrics");
  });

  it("lets OTEL_SDK_DISABLED=true and XZATOMA_TELEMETRY=0 win over endpoints", () => {
    const offs: Record<string, string>[] = [
      { OTEL_SDK_DISABLED: "TRUE" },
      { XZATOMA_TELEMETRY: "0" },
    ];
    for (const off of offs) {
      const settings = read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", ...off });
      expect(settings.disabled).toBe(true);
      expect(settings.traces).toBeUndefined();
      expect(settings.metrics).toBeUndefined();
    }
  });

  it("drops a signal whose exporter is 'none'", () => {
    const settings = read({ XZATOMA_TELEMETRY: "1", OTEL_METRICS_EXPORTER: "none" });
    expect(settings.traces).toBeDefined();
    expect(settings.metrics).toBeUndefined();
  });

  it("merges headers, the signal's own winning, and decodes values", () => {
    const settings = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-team=a",
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: "x-team=b",
    });
    expect(settings.traces?.headers).toEqual({ authorization: "Bearer abc", "x-team": "a" });
    expect(settings.metrics?.headers).toEqual({ authorization: "Bearer abc", "x-team": "b" });
  });

  it("reads the service name and resource attributes", () => {
    expect(read({ OTEL_SERVICE_NAME: "agent-a" }).serviceName).toBe("agent-a");
    const settings = read({
      OTEL_RESOURCE_ATTRIBUTES: "service.name=agent-b,deployment.environment=ci",
    });
    expect(settings.serviceName).toBe("agent-b");
    expect(settings.resourceAttributes).toEqual({
      "service.name": "agent-b",
      "deployment.environment": "ci",
    });
  });

  it("warns about values it cannot use and says what it does instead", () => {
    const settings = read({
      XZATOMA_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_TIMEOUT: "soon",
      OTEL_METRIC_EXPORT_INTERVAL: "-5",
    });
    expect(settings.traces?.timeoutMs).toBe(10_000);
    expect(settings.metricExportIntervalMs).toBe(60_000);
    expect(settings.warnings.join("\n")).toContain(
      "OTEL_EXPORTER_OTLP_PROTOCOL='grpc' is not supported",
    );
    expect(settings.warnings.join("\n")).toContain("OTEL_EXPORTER_OTLP_TIMEOUT='soon'");
    expect(settings.warnings.join("\n")).toContain("OTEL_METRIC_EXPORT_INTERVAL='-5'");
  });
});
