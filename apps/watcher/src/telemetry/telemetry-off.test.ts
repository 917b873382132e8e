// With telemetry off, startTelemetry must load none of the OpenTelemetry SDK. The SDK is
// bundled into @xzatoma/otel and loaded only inside startSdk (its bundle test checks that on
// the built package), so here: startSdk is never called, and the Prometheus exporter, the
// one SDK package the watcher imports itself, records when it is loaded.
import { describe, expect, it, vi } from "vitest";
import type * as Otel from "@xzatoma/otel";
import { startTelemetry } from "./index.js";

const loaded = vi.hoisted(() => new Set<string>());

vi.mock("@opentelemetry/exporter-prometheus", async (original) => {
  loaded.add("@opentelemetry/exporter-prometheus");
  return original();
});
vi.mock("@xzatoma/otel", async (original) => {
  const otel = await original<typeof Otel>();
  return {
    ...otel,
    startSdk: (...args: Parameters<typeof otel.startSdk>) => {
      loaded.add("startSdk");
      return otel.startSdk(...args);
    },
  };
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
  ])("returns undefined and loads no SDK (%s)", async (_label, env) => {
    expect(await startTelemetry(env)).toBeUndefined();
    expect([...loaded]).toEqual([]);
  });

  it("loads only what the Prometheus endpoint needs when only a metrics port is given", async () => {
    const telemetry = await startTelemetry({ XZATOMA_METRICS_PORT: "0" });
    expect(telemetry?.metricsUrl).toBeDefined();
    await telemetry!.shutdown();
    expect([...loaded].sort()).toEqual(["@opentelemetry/exporter-prometheus", "startSdk"]);
  });
});
