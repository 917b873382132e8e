import { telemetrySettingsFromEnv } from "./settings.js";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { describe, expect, it } from "vitest";
import { startSdk } from "./start-sdk.js";

describe("startSdk", () => {
  it("exports spans and metrics over OTLP/HTTP with the service's resource, and flushes at shutdown", async () => {
    const collector = await startOtlpReceiver();
    try {
      const settings = telemetrySettingsFromEnv(
        { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
        { serviceName: "otel-test" },
      );
      const telemetry = await startSdk(settings, {
        serviceVersion: "9.9.9",
        scope: "otel-test",
        redact: (text) => text,
      });
      telemetry.tracer.startSpan("work").end();
      telemetry.meter.createCounter("work_done").add(3, { kind: "test" });
      await telemetry.shutdown();
      const spans = collector.spans();
      expect(spans.map((span) => span.name)).toEqual(["work"]);
      expect(spans[0]?.resource["service.name"]).toBe("otel-test");
      expect(spans[0]?.resource["service.version"]).toBe("9.9.9");
      expect(collector.metric("work_done", { kind: "test" }).value).toBe(3);
    } finally {
      await collector.close();
    }
  });
});
