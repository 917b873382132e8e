import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  metrics,
  trace,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
} from "@opentelemetry/api";
import { createRunTelemetry } from "@xzatoma/otel";
import { openHistory } from "@xzatoma/persistence";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { startScriptedXzepr, type ScriptedXzepr } from "@xzatoma/scripted-servers/xzepr";
import { createMemoryTransport, parseResultEvent, type MemoryTransport } from "@xzatoma/xzepr";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveRuntimeConfig } from "@xzatoma/runtime";
import { startWatcher, type StartedWatcher } from "./start-watcher.js";

const BUILD = readFileSync(
  new URL("../../../xzepr/src/__fixtures__/build_success_event.json", import.meta.url),
  "utf8",
);

let home: string;
let workspace: string;
let model: ScriptedOpenAI | undefined;
let xzepr: ScriptedXzepr | undefined;
let watcher: StartedWatcher | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "xz-watch-home-"));
  workspace = await mkdtemp(path.join(os.tmpdir(), "xz-watch-ws-"));
});

afterEach(async () => {
  await watcher?.close(1000);
  watcher = undefined;
  await model?.close();
  model = undefined;
  await xzepr?.close();
  xzepr = undefined;
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

function withPlan(plan: Record<string, unknown>, id = "01JXZEPR0BUILD0DEMO000001"): string {
  const event = JSON.parse(BUILD) as { id: string; data: { events: Record<string, unknown>[] } };
  event.id = id;
  const first = event.data.events[0] ?? {};
  event.data.events = [{ ...first, payload: { plan: JSON.stringify(plan) } }];
  return JSON.stringify(event);
}

/** A tracer that records each span's name, parent and own context, as an SDK would make them. */
function recordingTracer() {
  const spans: { name: string; parent?: SpanContext; context: SpanContext }[] = [];
  const tracer = {
    startSpan(name: string, _options?: SpanOptions, context?: Context): Span {
      const parent = context === undefined ? undefined : trace.getSpanContext(context);
      const own: SpanContext = {
        traceId: parent?.traceId ?? randomBytes(16).toString("hex"),
        spanId: randomBytes(8).toString("hex"),
        traceFlags: 1,
      };
      spans.push({ name, ...(parent ? { parent } : {}), context: own });
      const span: Record<string, unknown> = {
        spanContext: () => own,
        isRecording: () => true,
        end: () => undefined,
        recordException: () => undefined,
      };
      for (const method of ["setAttribute", "setAttributes", "setStatus", "addEvent", "updateName"])
        span[method] = () => span;
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

async function start(
  scenario: ChatScenario,
  extra: Record<string, unknown> = {},
  telemetry?: { tracer: Tracer },
): Promise<{ transport: MemoryTransport; lines: string[] }> {
  model = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: model.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data") },
      watcher: { filters: { event_types: ["build.success"] } },
      ...extra,
    },
    { homeDir: home, env: {} },
  );
  const transport = createMemoryTransport();
  const lines: string[] = [];
  watcher = await startWatcher({
    config,
    workspace,
    transport,
    env: { OPENAI_API_KEY: "sk-test", XZEPR_API_TOKEN: "xz-token" },
    write: (line) => lines.push(line),
    release: "9.9.9",
    ...(telemetry
      ? {
          telemetry: {
            tracer: telemetry.tracer,
            meter: metrics.getMeter("test"),
            createRunTelemetry,
          },
        }
      : {}),
  });
  return { transport, lines };
}

describe("startWatcher", () => {
  it("runs an event's plan through the agent, publishes its answer, and records the run in history and the ledger", async () => {
    const { transport } = await start(() => ({ content: "Build verified." }));
    await transport.publish({ topic: "xzepr.events", records: [{ key: "k", value: BUILD }] });
    await transport.drained();
    const [record] = transport.messages("xzepr.events.results");
    expect(record).toBeDefined();
    const parsed = parseResultEvent(record!);
    expect(parsed.kind).toBe("result");
    if (parsed.kind !== "result") return;
    expect(parsed.event.data).toMatchObject({
      status: "completed",
      answer: "Build verified.",
      stopReason: "completed",
      trigger: { id: "01JXZEPR0BUILD0DEMO000001", type: "build.success" },
    });
    const sent = JSON.stringify(model?.chatRequests[0]?.messages);
    expect(sent).toContain("build verification report");

    await watcher?.close(1000);
    watcher = undefined;
    const history = openHistory({ path: path.join(home, "data", "history.db") });
    try {
      const entry = history.lookupProcessedEvent(
        JSON.stringify(["xzepr.event.receiver.demo-receiver-001", "01JXZEPR0BUILD0DEMO000001"]),
      );
      expect(entry).toMatchObject({ outcome: "completed", delivery: "xzepr.events/0/0" });
      const conversation = history.getConversation(entry?.conversationId ?? "");
      expect(conversation?.title).toBe("event 01JXZEPR0BUILD0DEMO000001: build.success");
    } finally {
      history.close();
    }
  });

  it("continues the trigger's trace: the event's span under the sender's, the agent's run under it, the result in it", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const sender = "00f067aa0ba902b7";
    const { tracer, spans } = recordingTracer();
    const { transport } = await start(() => ({ content: "Build verified." }), {}, { tracer });
    await transport.publish({
      topic: "xzepr.events",
      records: [{ value: BUILD, headers: { traceparent: `00-${traceId}-${sender}-01` } }],
    });
    await transport.drained();
    const handling = spans.find((span) => span.name === "process xzepr.events");
    const run = spans.find((span) => span.name === "invoke_agent");
    expect(handling?.parent).toMatchObject({ traceId, spanId: sender });
    expect(run?.parent).toMatchObject({ traceId, spanId: handling?.context.spanId });
    expect(run?.context.traceId).toBe(traceId);
    const parsed = parseResultEvent(transport.messages("xzepr.events.results")[0]!);
    expect(parsed.kind).toBe("result");
    if (parsed.kind !== "result") return;
    expect(parsed.event.extensions.traceparent).toBe(
      `00-${traceId}-${handling?.context.spanId}-01`,
    );
  });

  it("gives a payload's allow_dangerous no effect, whatever the configuration allows", async () => {
    const plan = {
      name: "touch",
      tasks: [{ id: "t1", description: "Create made-by-plan.txt" }],
      allow_dangerous: true,
    };
    const scenario: ChatScenario = (_request, index) =>
      index === 0
        ? { toolCalls: [{ name: "terminal", arguments: { command: "touch made-by-plan.txt" } }] }
        : { content: "done" };
    const { transport } = await start(scenario);
    await transport.publish({ topic: "xzepr.events", records: [{ value: withPlan(plan) }] });
    await transport.drained();
    expect(existsSync(path.join(workspace, "made-by-plan.txt"))).toBe(false);
    await watcher?.close(1000);
    await model?.close();
    watcher = undefined;

    const allowed = await start(scenario, {
      watcher: { execution: { allow_dangerous: true } },
    });
    // Another event: the ledger already holds the first one, which must not run again.
    // Nobody is asked in the watcher and this configuration has no sandbox: a command that
    // is not provably read-only needs a person, whatever the plan or the configuration say.
    const second = withPlan(plan, "01JXZEPR0BUILD0DEMO000002");
    await allowed.transport.publish({ topic: "xzepr.events", records: [{ value: second }] });
    await allowed.transport.drained();
    expect(existsSync(path.join(workspace, "made-by-plan.txt"))).toBe(false);
  });

  it("reports each result to XZepr under its receiver when report_results is on", async () => {
    xzepr = await startScriptedXzepr({ token: "xz-token" });
    const { transport } = await start(() => ({ content: "Build verified." }), {
      xzepr: { api_url: xzepr.url, report_results: true },
    });
    await transport.publish({ topic: "xzepr.events", records: [{ value: BUILD }] });
    await transport.drained();
    await expect.poll(() => xzepr?.events.size, { timeout: 30_000 }).toBe(1);
    const [receiver] = [...xzepr.receivers.values()];
    expect(receiver).toMatchObject({ name: "xzatoma-watcher", type: "xzatoma.watcher.result" });
    const [event] = [...xzepr.events.values()];
    expect(event).toMatchObject({
      success: true,
      release: "9.9.9",
      description: expect.stringContaining("completed"),
    });
  });

  it("refuses a configuration without a watcher section or without brokers, naming the key", async () => {
    const config = resolveRuntimeConfig({}, { homeDir: home, env: {} });
    await expect(startWatcher({ config, workspace })).rejects.toThrow(/no watcher section/);
    const noBrokers = resolveRuntimeConfig({ watcher: {} }, { homeDir: home, env: {} });
    await expect(startWatcher({ config: noBrokers, workspace })).rejects.toThrow(
      /watcher\.kafka\.brokers is not set/,
    );
  });
});
