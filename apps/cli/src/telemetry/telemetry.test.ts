import { Agent, defineTool, toolSuccess } from "@xzatoma/core";
import { createRunTelemetry } from "@xzatoma/otel";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { scriptedModel } from "@xzatoma/scripted-servers/model";
import { startTelemetry } from "./index.js";

const echo = defineTool({
  name: "echo",
  description: "Repeats text.",
  inputSchema: z.object({ text: z.string() }).strict(),
  access: "read",
  execute: async ({ text }) => toolSuccess(`echo: ${text}`),
});

const receivers: Awaited<ReturnType<typeof startOtlpReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver() {
  const started = await startOtlpReceiver();
  receivers.push(started);
  return started;
}

describe("startTelemetry (xzatoma)", () => {
  it("sends a scripted run's spans and metrics to the OTLP endpoint, with the standard headers and service name", async () => {
    const collector = await receiver();
    const warnings: string[] = [];
    const telemetry = await startTelemetry(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=s3cret",
      },
      { warn: (message) => warnings.push(message) },
    );
    expect(telemetry).toBeDefined();
    const run = createRunTelemetry({
      tracer: telemetry!.tracer,
      meter: telemetry!.meter,
      provider: "ollama",
      model: "llama3.2",
    });
    const agent = new Agent({
      model: scriptedModel(
        { toolCalls: [{ name: "echo", input: { text: "hi" } }] },
        { text: "done" },
      ),
      tools: [echo],
    });
    const result = await agent.run("go", { onEvent: (event) => run.onEvent(event) });
    expect(result.stopReason).toBe("completed");
    await telemetry!.shutdown();

    const spans = collector.spans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      "chat llama3.2",
      "chat llama3.2",
      "execute_tool echo",
      "invoke_agent",
    ]);
    const root = spans.find((span) => span.name === "invoke_agent")!;
    expect(root.parentSpanId ?? "").toBe("");
    for (const span of spans.filter((entry) => entry !== root)) {
      expect(span.parentSpanId).toBe(root.spanId);
      expect(span.traceId).toBe(root.traceId);
    }
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "ollama",
      "gen_ai.request.model": "llama3.2",
      "gen_ai.usage.input_tokens": 20,
      "gen_ai.usage.output_tokens": 10,
      "xzatoma.stop_reason": "completed",
    });
    expect(spans.find((span) => span.name === "execute_tool echo")?.attributes).toMatchObject({
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "call-0-0",
      "xzatoma.tool.verdict": "not_asked",
      "xzatoma.tool.success": true,
    });
    expect(root.resource).toMatchObject({ "service.name": "xzatoma" });
    expect(typeof root.resource["service.version"]).toBe("string");

    expect(collector.metric("xzatoma_model_requests_total", { outcome: "success" }).value).toBe(2);
    expect(collector.metric("xzatoma_tokens_total", { type: "input" }).value).toBe(20);
    expect(
      collector.metric("xzatoma_tool_calls_total", { tool: "echo", outcome: "success" }).value,
    ).toBe(1);
    expect(
      collector.metric("gen_ai.client.token.usage", { "gen_ai.token.type": "output" }),
    ).toMatchObject({
      count: 2,
      sum: 10,
    });
    const paths = new Set(collector.requests.map((request) => request.path));
    expect(paths).toEqual(new Set(["/v1/traces", "/v1/metrics"]));
    for (const request of collector.requests) {
      expect(request.headers["x-api-key"]).toBe("s3cret");
      expect(request.headers["content-type"]).toContain("application/json");
    }
    expect(warnings).toEqual([]);
  });

  it("exports only the signal whose endpoint is set, and honours OTEL_SERVICE_NAME", async () => {
    const collector = await receiver();
    const telemetry = await startTelemetry({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
      OTEL_SERVICE_NAME: "agent-under-test",
    });
    const run = createRunTelemetry({
      tracer: telemetry!.tracer,
      meter: telemetry!.meter,
      provider: "p",
      model: "m",
    });
    await new Agent({ model: scriptedModel({ text: "hi" }) }).run("go", {
      onEvent: (event) => run.onEvent(event),
    });
    await telemetry!.shutdown();
    expect(collector.requests.map((request) => request.path)).toEqual(["/v1/traces"]);
    expect(collector.spans()[0]?.resource["service.name"]).toBe("agent-under-test");
  });

  it("warns once when the collector cannot be reached, and shuts down all the same", async () => {
    const closed = await receiver();
    const url = closed.url;
    await closed.close();
    receivers.length = 0;
    const warnings: string[] = [];
    const telemetry = await startTelemetry(
      { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_TIMEOUT: "2000" },
      { warn: (message) => warnings.push(message) },
    );
    const run = createRunTelemetry({
      tracer: telemetry!.tracer,
      meter: telemetry!.meter,
      provider: "p",
      model: "m",
    });
    await new Agent({ model: scriptedModel({ text: "hi" }) }).run("go", {
      onEvent: (event) => run.onEvent(event),
    });
    await telemetry!.shutdown();
    expect(warnings).toHaveLength(1);
    // The cause (refused, or a timeout on a loaded machine) in one line, not a stack.
    expect(warnings[0]).toMatch(
      /^telemetry: an export failed \(.+\); further failures are not reported\.$/,
    );
    expect(warnings[0]).not.toContain("\n");
  });

  it("reports unusable variables as warnings", async () => {
    const collector = await receiver();
    const warnings: string[] = [];
    const telemetry = await startTelemetry(
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      { warn: (message) => warnings.push(message) },
    );
    await telemetry!.shutdown();
    expect(warnings.join("\n")).toContain("OTEL_EXPORTER_OTLP_PROTOCOL='grpc' is not supported");
  });
});
