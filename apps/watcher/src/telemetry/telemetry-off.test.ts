// With telemetry off, startTelemetry must load none of the OpenTelemetry SDK: each SDK
// module below records when it is loaded.
import { describe, expect, it, vi } from "vitest";
import { startTelemetry } from "./index.js";

const loaded = vi.hoisted(() => new Set<string>());

vi.mock("@opentelemetry/sdk-trace", async (original) => {
  loaded.add("@opentelemetry/sdk-trace");
  return original();
});
vi.mock("@opentelemetry/sdk-metrics", async (original) => {
  loaded.add("@opentelemetry/sdk-metrics");
  return original();
});
vi.mock("@opentelemetry/resources", async (original) => {
  loaded.add("@opentelemetry/resources");
  return original();
});
vi.mock("@opentelemetry/exporter-prometheus", async (original) => {
  loaded.add("@opentelemetry/exporter-prometheus");
  return original();
});
vi.mock("@opentelemetry/exporter-trace-otlp-http", async (original) => {
  loaded.add("@opentelemetry/exporter-trace-otlp-http");
  return original();
});
vi.mock("@opentelemetry/exporter-metrics-otlp-http", async (original) => {
  loaded.add("@opentelemetry/exporter-metrics-otlp-http");
  return original();
});

describe("xzatoma-watcher startTelemetry when telemetry is off", () => {
  it.each([
    ["nothing set", {}],
    [
      "OTEL_SDK_DISABLED=true beside an endpoint and a metrics port",
      {
        OTEL_SDK_DISABLED: "true",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1",
        XZATOMA_METRICS_PORT: "0",
      },
    ],
    [
      "XZATOMA_TELEMETRY=0 beside a metrics port",
      { XZATOMA_TELEMETRY: "0", XZATOMA_METRICS_PORT: "0" },
    ],
  ])("returns undefined and loads no SDK module (%s)", async (_label, env) => {
    expect(await startTelemetry(env)).toBeUndefined();
    expect([...loaded]).toEqual([]);
  });

  it("loads only what the Prometheus endpoint needs when only a metrics port is given", async () => {
    const telemetry = await startTelemetry({ XZATOMA_METRICS_PORT: "0" });
    expect(telemetry?.metricsUrl).toBeDefined();
    await telemetry!.shutdown();
    expect([...loaded].sort()).toEqual([
      "@opentelemetry/exporter-prometheus",
      "@opentelemetry/resources",
      "@opentelemetry/sdk-metrics",
    ]);
  });
});
