// Every text a span carries goes through the redactor on its way to the collector,
// whoever set it: checked at a real OTLP/HTTP receiver on 127.0.0.1.
import { telemetrySettingsFromEnv } from "./settings.js";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { describe, expect, it } from "vitest";
import { startSdk } from "./start-sdk.js";

const CANARY = "canary-Hq4nZ8wK2pD7";
const redact = (text: string) => text.split(CANARY).join("[REDACTED]");

describe("spans leave redacted", () => {
  it("name, status message, attributes and event attributes reach the collector redacted", async () => {
    const collector = await startOtlpReceiver();
    try {
      const settings = telemetrySettingsFromEnv(
        { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_METRICS_EXPORTER: "none" },
        { serviceName: "otel-redaction-test" },
      );
      const telemetry = await startSdk(settings, {
        serviceVersion: "1.0.0",
        scope: "otel-redaction-test",
        redact,
      });
      const span = telemetry.tracer.startSpan(`execute_tool ${CANARY}`, {
        attributes: { "xzatoma.command": `psql ${CANARY}`, "xzatoma.args": ["a", CANARY], turn: 3 },
      });
      span.addEvent("approval requested", { "xzatoma.reason": `reads ${CANARY}` });
      span.setStatus({ code: 2, message: `exit code 1\nFATAL: password ${CANARY} rejected` });
      span.end();
      await telemetry.shutdown();

      const received = collector.spans();
      expect(received).toHaveLength(1);
      expect(JSON.stringify(collector.requests)).not.toContain(CANARY);
      const [exported] = received;
      expect(exported?.name).toBe("execute_tool [REDACTED]");
      expect(exported?.status?.message).toBe("exit code 1\nFATAL: password [REDACTED] rejected");
      expect(exported?.attributes["xzatoma.command"]).toBe("psql [REDACTED]");
      expect(exported?.attributes["turn"]).toBe(3);
      expect(JSON.stringify(collector.requests)).toContain("reads [REDACTED]");
    } finally {
      await collector.close();
    }
  });
});
