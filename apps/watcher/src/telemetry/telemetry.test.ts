import { Agent, defineTool, toolSuccess, type RunTelemetry } from "@xzatoma/core";
import { createRunTelemetry } from "@xzatoma/otel";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "@xzatoma/scripted-servers/model";
import { startTelemetry, type WatcherTelemetry } from "./index.js";

const echo = defineTool({
  name: "echo",
  description: "Repeats text.",
  inputSchema: z.object({ text: z.string() }).strict(),
  access: "read",
  execute: async ({ text }) => toolSuccess(`echo: ${text}`),
});

/**
 * A `delegate` tool that runs a child agent the way the runtime's subagent tools do: the
 * child's events go to `top.subagent(...)`, its start and end to the top-level stream.
 */
function delegate(top: () => RunTelemetry): ReturnType<typeof defineTool> {
  return defineTool({
    name: "delegate",
    description: "Runs a subagent.",
    inputSchema: z.object({}).strict(),
    access: "read",
    execute: async (_input, context) => {
      const info = { toolCallId: context.toolCallId, label: "helper", depth: 1 };
      const child = top().subagent(info);
      top().onEvent({ type: "subagent-started", turn: 1, ...info });
      const result = await new Agent({
        model: scriptedModel(
          { toolCalls: [{ name: "echo", input: { text: "x" } }] },
          { text: "ok" },
        ),
        tools: [echo],
      }).run("sub task", { onEvent: (event) => child.onEvent(event) });
      top().onEvent({
        type: "subagent-finished",
        turn: 1,
        ...info,
        stopReason: result.stopReason,
        turns: result.turns,
        usage: result.usage,
        durationMs: result.durationMs,
      });
      return toolSuccess(result.text);
    },
  });
}

/** Runs a scripted agent that delegates once, recording into `telemetry`. */
async function scriptedRunWithSubagent(telemetry: WatcherTelemetry) {
  const top = createRunTelemetry({
    tracer: telemetry.tracer,
    meter: telemetry.meter,
    provider: "ollama",
    model: "llama3.2",
  });
  const agent = new Agent({
    model: scriptedModel({ toolCalls: [{ name: "delegate", input: {} }] }, { text: "all done" }),
    tools: [delegate(() => top)],
  });
  const result = await agent.run("go", { onEvent: (event) => top.onEvent(event) });
  expect(result.stopReason).toBe("completed");
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Prometheus text lines without comments, as `name{labels} value`. */
async function scrape(url: string): Promise<string[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return (await response.text()).split("\n").filter((line) => line !== "" && !line.startsWith("#"));
}

/** The value of the sample `name{labels}` (labels in the exporter's order, without otel_scope_*). */
function sample(
  lines: string[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of lines) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
        (pair) => [pair[1], pair[2]],
      ),
    );
    const own = Object.keys(present).filter((key) => !key.startsWith("otel_scope_"));
    if (own.length === wanted.length && wanted.every(([key, value]) => present[key] === value))
      return Number(match[3]);
  }
  return undefined;
}

describe("startTelemetry (xzatoma-watcher)", () => {
  it("sends spans over OTLP with a subagent's run under the tool call that started it", async () => {
    const collector = await startOtlpReceiver();
    cleanups.push(() => collector.close());
    const telemetry = await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    expect(telemetry?.metricsUrl).toBeUndefined();
    await scriptedRunWithSubagent(telemetry!);
    await telemetry!.shutdown();

    const spans = collector.spans();
    const root = spans.find((span) => span.name === "invoke_agent")!;
    const call = spans.find((span) => span.name === "execute_tool delegate")!;
    const child = spans.find((span) => span.name === "invoke_agent helper")!;
    const childCall = spans.find((span) => span.name === "execute_tool echo")!;
    expect(call.parentSpanId).toBe(root.spanId);
    expect(child.parentSpanId).toBe(call.spanId);
    expect(childCall.parentSpanId).toBe(child.spanId);
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([root.traceId]));
    expect(spans.filter((span) => span.name === "chat llama3.2")).toHaveLength(4);
    expect(child.attributes).toMatchObject({
      "gen_ai.agent.name": "helper",
      "xzatoma.agent.depth": 1,
    });
    expect(root.resource["service.name"]).toBe("xzatoma-watcher");
    expect(collector.metric("subagent_executions_total", { depth: 1 }).value).toBe(1);
  });

  it("serves Prometheus metrics on 127.0.0.1 whose values match the run", async () => {
    const telemetry = await startTelemetry({}, { metricsPort: 0 });
    cleanups.push(() => telemetry!.shutdown());
    expect(telemetry?.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await scriptedRunWithSubagent(telemetry!);

    const lines = await scrape(telemetry!.metricsUrl!);
    const model = { model: "llama3.2", provider: "ollama" };
    // Parent: 2 requests; the subagent: 2 requests.
    expect(sample(lines, "xzatoma_model_requests_total", { ...model, outcome: "success" })).toBe(4);
    expect(sample(lines, "xzatoma_tokens_total", { ...model, type: "input" })).toBe(40);
    expect(sample(lines, "xzatoma_tokens_total", { ...model, type: "output" })).toBe(20);
    expect(
      sample(lines, "xzatoma_tool_calls_total", {
        tool: "delegate",
        verdict: "not_asked",
        outcome: "success",
      }),
    ).toBe(1);
    expect(
      sample(lines, "xzatoma_tool_calls_total", {
        tool: "echo",
        verdict: "not_asked",
        outcome: "success",
      }),
    ).toBe(1);
    expect(sample(lines, "xzatoma_runs_total", { stop_reason: "completed" })).toBe(2);
    expect(sample(lines, "subagent_executions_total", { depth: "1" })).toBe(1);
    expect(sample(lines, "subagent_active_count", { depth: "1" })).toBe(0);
    expect(sample(lines, "subagent_completions_total", { depth: "1", status: "completed" })).toBe(
      1,
    );
    expect(
      sample(lines, "subagent_duration_seconds_count", { depth: "1", status: "completed" }),
    ).toBe(1);
    expect(sample(lines, "subagent_turns_used_sum", { depth: "1" })).toBe(2);
    expect(sample(lines, "subagent_tokens_consumed_sum", { depth: "1" })).toBe(30);
    expect(
      sample(lines, "subagent_errors_total", { depth: "1", error_type: "execution_failed" }),
    ).toBeUndefined();

    const elsewhere = await fetch(telemetry!.metricsUrl!.replace("/metrics", "/other"));
    expect(elsewhere.status).toBe(404);
  });

  it("takes the port from XZATOMA_METRICS_PORT and says when it cannot bind it", async () => {
    const first = await startTelemetry({}, { metricsPort: 0 });
    cleanups.push(() => first!.shutdown());
    const port = new URL(first!.metricsUrl!).port;
    await expect(startTelemetry({ XZATOMA_METRICS_PORT: port })).rejects.toThrow(
      `Cannot serve metrics on 127.0.0.1:${port}: the port is in use`,
    );
    await expect(startTelemetry({ XZATOMA_METRICS_PORT: "http" })).rejects.toThrow(
      "XZATOMA_METRICS_PORT='http' is not a port number",
    );
  });

  it("keeps the Prometheus endpoint off when OTEL_SDK_DISABLED=true", async () => {
    expect(await startTelemetry({ OTEL_SDK_DISABLED: "true" }, { metricsPort: 0 })).toBeUndefined();
  });
});
