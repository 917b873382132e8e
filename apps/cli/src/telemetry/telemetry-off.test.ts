// With telemetry off, startTelemetry must load none of the OpenTelemetry SDK. The SDK is
// bundled into @xzatoma/otel and loaded only inside startSdk (its bundle test checks that on
// the built package), so here: startSdk is never called.
import { describe, expect, it, vi } from "vitest";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import type * as Otel from "@xzatoma/otel";
import { startTelemetry } from "./index.js";

const loaded = vi.hoisted(() => new Set<string>());

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
  ])("returns undefined and starts no SDK (%s)", async (_label, env) => {
    expect(await startTelemetry(env)).toBeUndefined();
    expect([...loaded]).toEqual([]);
  });

  it("starts the SDK once telemetry is on (the check above would see it)", async () => {
    const collector = await startOtlpReceiver();
    try {
      const telemetry = await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
      expect(telemetry).toBeDefined();
      await telemetry!.shutdown();
      expect([...loaded]).toEqual(["startSdk"]);
    } finally {
      await collector.close();
    }
  });
});
