// With telemetry off, startTelemetry must load none of the OpenTelemetry SDK: each SDK
// module below records when it is loaded.
import { describe, expect, it, vi } from "vitest";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
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
vi.mock("@opentelemetry/exporter-trace-otlp-http", async (original) => {
  loaded.add("@opentelemetry/exporter-trace-otlp-http");
  return original();
});
vi.mock("@opentelemetry/exporter-metrics-otlp-http", async (original) => {
  loaded.add("@opentelemetry/exporter-metrics-otlp-http");
  return original();
});

describe("startTelemetry when telemetry is off", () => {
  it.each([
    ["nothing set", {}],
    [
      "OTEL_SDK_DISABLED=true beside an endpoint",
      { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" },
    ],
    [
      "XZATOMA_TELEMETRY=0 beside an endpoint",
      { XZATOMA_TELEMETRY: "0", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" },
    ],
    [
      "both exporters 'none'",
      { XZATOMA_TELEMETRY: "1", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" },
    ],
  ])("returns undefined and loads no SDK module (%s)", async (_label, env) => {
    expect(await startTelemetry(env)).toBeUndefined();
    expect([...loaded]).toEqual([]);
  });

  it("loads the SDK once telemetry is on (the check above would see it)", async () => {
    const collector = await startOtlpReceiver();
    try {
      const telemetry = await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      expect(telemetry).toBeDefined();
      await telemetry!.shutdown();
      expect([...loaded].sort()).toEqual([
        "@opentelemetry/exporter-metrics-otlp-http",
        "@opentelemetry/exporter-trace-otlp-http",
        "@opentelemetry/resources",
        "@opentelemetry/sdk-metrics",
        "@opentelemetry/sdk-trace",
      ]);
    } finally {
      await collector.close();
    }
  });
});
