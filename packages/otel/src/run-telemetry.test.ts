import { context, SpanKind, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, defineTool, toolSuccess, type AgentEvent, type Tool } from "@xzatoma/core";
import { replies, scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import { createTestSdk, isChildOf, isError } from "./__fixtures__/telemetry-sdk.js";
import {
  createRunTelemetry,
  subagentErrorType,
  type RunTelemetry,
  type TelemetryEvent,
} from "./run-telemetry.js";

const echo = defineTool({
  name: "echo",
  description: "Repeats text.",
  inputSchema: z.object({ text: z.string() }).strict(),
  access: "read",
  execute: async ({ text }) => toolSuccess(`echo: ${text}`),
});

const remove = defineTool({
  name: "remove",
  description: "Deletes something.",
  inputSchema: z.object({ path: z.string() }).strict(),
  access: "write",
  execute: async ({ path }) => toolSuccess(`removed ${path}`),
});

const guarded = defineTool({
  name: "guarded",
  description: "Refuses every call by its own judgement.",
  inputSchema: z.object({}).strict(),
  access: "write",
  assess: () => ({ verdict: "block", reason: "never allowed" }),
  execute: async () => toolSuccess("ran"),
});

/** Runs `agent` on `input` with telemetry fed from its events; resolves with the events too. */
async function runWith(agent: Agent, telemetry: RunTelemetry, input = "go") {
  const events: AgentEvent[] = [];
  const result = await agent.run(input, {
    onEvent: (event) => {
      events.push(event);
      telemetry.onEvent(event);
    },
  });
  return { result, events };
}

describe("createRunTelemetry: spans of a run", () => {
  it("gives one invoke_agent span with a chat span per model request and an execute_tool span per call as children", async () => {
    const sdk = createTestSdk();
    const model = scriptedModel((call) => {
      if (call === 0)
        return {
          toolCalls: [
            { name: "echo", input: { text: "hi" }, id: "c-echo" },
            { name: "remove", input: { path: "a.txt" }, id: "c-ok" },
          ],
        };
      if (call === 1)
        return { toolCalls: [{ name: "remove", input: { path: "b.txt" }, id: "c-no" }] };
      return { text: "All done." };
    });
    const agent = new Agent({
      model,
      tools: [echo, remove],
      approve: (request) =>
        (request.input as { path: string }).path === "a.txt"
          ? { approved: true, byPerson: true }
          : { approved: false, reason: "not that one" },
    });
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "ollama",
      model: "llama3.2",
    });
    const { result } = await runWith(agent, telemetry);
    expect(result.stopReason).toBe("completed");

    const run = sdk.span("invoke_agent");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "ollama",
      "gen_ai.system": "ollama",
      "gen_ai.request.model": "llama3.2",
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.usage.output_tokens": 15,
      "xzatoma.stop_reason": "completed",
      "xzatoma.turns": 3,
      "xzatoma.tool_calls": 3,
      "xzatoma.agent.depth": 0,
    });
    expect(isError(run)).toBe(false);

    const chats = sdk.spans().filter((span) => span.name === "chat llama3.2");
    expect(chats).toHaveLength(3);
    for (const chat of chats) {
      expect(isChildOf(chat, run)).toBe(true);
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "ollama",
        "gen_ai.request.model": "llama3.2",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 5,
      });
    }
    expect(chats.map((chat) => chat.attributes["xzatoma.turn"]).sort()).toEqual([1, 2, 3]);

    const calls = sdk.spans().filter((span) => span.name.startsWith("execute_tool "));
    expect(calls.map((span) => span.name).sort()).toEqual([
      "execute_tool echo",
      "execute_tool remove",
      "execute_tool remove",
    ]);
    for (const call of calls) expect(isChildOf(call, run)).toBe(true);
    const byId = (id: string) =>
      calls.find((span) => span.attributes["gen_ai.tool.call.id"] === id)!;
    expect(byId("c-echo").attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "xzatoma.tool.verdict": "not_asked",
      "xzatoma.tool.outcome": "success",
      "xzatoma.tool.success": true,
    });
    expect(byId("c-ok").attributes).toMatchObject({
      "xzatoma.tool.verdict": "approved",
      "xzatoma.tool.success": true,
    });
    expect(byId("c-ok").events.map((event) => event.name)).toEqual([
      "approval requested",
      "approval answered",
    ]);
    expect(byId("c-ok").events[1]?.attributes).toMatchObject({
      "xzatoma.approval.decision": "approved",
      "xzatoma.approval.by_person": true,
    });
    const refused = byId("c-no");
    expect(refused.attributes).toMatchObject({
      "xzatoma.tool.verdict": "denied",
      "xzatoma.tool.outcome": "refused",
      "xzatoma.tool.success": false,
      "error.type": "refused",
    });
    expect(isError(refused)).toBe(true);
    expect(refused.status.message).toContain("was not approved");
    // Every span of the run is in one trace.
    expect(new Set(sdk.spans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("names the run span after the agent and records no prompt, answer or tool input", async () => {
    const sdk = createTestSdk();
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "openai",
      model: "gpt-x",
      agentName: "reviewer",
    });
    const agent = new Agent({
      model: replies(
        { toolCalls: [{ name: "echo", input: { text: "secret-input" } }] },
        { text: "secret-answer" },
      ),
      tools: [echo],
    });
    await runWith(agent, telemetry, "secret-prompt");
    expect(sdk.span("invoke_agent reviewer").attributes["gen_ai.agent.name"]).toBe("reviewer");
    const everything = JSON.stringify(
      sdk.spans().map((span) => [span.attributes, span.events.map((event) => event.attributes)]),
    );
    expect(everything).not.toMatch(/secret-/);
  });

  it("marks the run and the model request as failed when the model fails", async () => {
    const sdk = createTestSdk();
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "ollama",
      model: "m",
    });
    const agent = new Agent({
      model: replies(
        { toolCalls: [{ name: "echo", input: { text: "x" } }] },
        { error: "server on fire" },
      ),
      tools: [echo],
    });
    const { result } = await runWith(agent, telemetry);
    expect(result.stopReason).toBe("error");
    const run = sdk.span("invoke_agent");
    expect(isError(run)).toBe(true);
    expect(run.status.message).toContain("server on fire");
    expect(run.attributes).toMatchObject({
      "error.type": "PROVIDER_ERROR",
      "xzatoma.stop_reason": "error",
    });
    const chats = sdk.spans().filter((span) => span.name === "chat m");
    expect(chats.map((chat) => isError(chat))).toEqual([false, true]);
    expect(chats[1]?.attributes["error.type"]).toBe("PROVIDER_ERROR");
    expect(await sdk.sum("xzatoma_model_requests_total", { outcome: "success" })).toBe(1);
    expect(await sdk.sum("xzatoma_model_requests_total", { outcome: "error" })).toBe(1);
    expect(await sdk.sum("xzatoma_runs_total", { stop_reason: "error" })).toBe(1);
    expect(
      (await sdk.histogram("gen_ai.client.operation.duration", { "error.type": "PROVIDER_ERROR" }))
        .count,
    ).toBe(1);
  });

  it("ends a model request the run stopped in the middle of (timeout) as failed", async () => {
    const sdk = createTestSdk();
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const agent = new Agent({ model: replies({ hang: true }), limits: { timeoutMs: 50 } });
    const { result } = await runWith(agent, telemetry);
    expect(result.stopReason).toBe("timeout");
    const chat = sdk.span("chat m");
    expect(isError(chat)).toBe(true);
    expect(chat.attributes["error.type"]).toBe("timeout");
    expect(sdk.span("invoke_agent").attributes["xzatoma.stop_reason"]).toBe("timeout");
    expect(await sdk.sum("xzatoma_model_requests_total", { outcome: "error" })).toBe(1);
  });
});

describe("createRunTelemetry: metrics of a run", () => {
  it("counts model requests, tokens, tool calls by verdict and outcome, and approvals as the run made them", async () => {
    const sdk = createTestSdk();
    const model = scriptedModel((call) => {
      if (call === 0)
        return {
          toolCalls: [
            { name: "echo", input: { text: "1" } },
            { name: "remove", input: { path: "keep" } },
            { name: "guarded", input: {} },
          ],
        };
      if (call === 1)
        return {
          toolCalls: [
            { name: "remove", input: { path: "drop" } },
            { name: "made_up_tool", input: {} },
          ],
        };
      return { text: "done" };
    });
    const agent = new Agent({
      model,
      tools: [echo, remove, guarded],
      approve: (request) => ({ approved: (request.input as { path: string }).path === "keep" }),
    });
    const options = { tracer: sdk.tracer, meter: sdk.meter, provider: "ollama", model: "llama3.2" };
    await runWith(agent, createRunTelemetry(options));

    const model_ = { provider: "ollama", model: "llama3.2" };
    expect(await sdk.sum("xzatoma_model_requests_total", { ...model_, outcome: "success" })).toBe(
      3,
    );
    expect(await sdk.sum("xzatoma_tokens_total", { ...model_, type: "input" })).toBe(30);
    expect(await sdk.sum("xzatoma_tokens_total", { ...model_, type: "output" })).toBe(15);
    const usage = { "gen_ai.provider.name": "ollama", "gen_ai.request.model": "llama3.2" };
    expect(
      await sdk.histogram("gen_ai.client.token.usage", { ...usage, "gen_ai.token.type": "input" }),
    ).toEqual({
      count: 3,
      sum: 30,
    });
    expect((await sdk.histogram("gen_ai.client.operation.duration", usage)).count).toBe(3);

    const calls = (labels: Record<string, string> = {}) =>
      sdk.sum("xzatoma_tool_calls_total", labels);
    expect(await calls({ tool: "echo", verdict: "not_asked", outcome: "success" })).toBe(1);
    expect(await calls({ tool: "remove", verdict: "approved", outcome: "success" })).toBe(1);
    expect(await calls({ tool: "remove", verdict: "denied", outcome: "refused" })).toBe(1);
    expect(await calls({ tool: "guarded", verdict: "blocked", outcome: "refused" })).toBe(1);
    // A name the model made up is one label value, not a new series per invention.
    expect(await calls({ tool: "_OTHER", verdict: "not_asked", outcome: "error" })).toBe(1);
    expect(await calls()).toBe(5);
    expect((await sdk.histogram("xzatoma_tool_duration_seconds")).count).toBe(5);

    expect(await sdk.sum("xzatoma_approvals_total", { tool: "remove", decision: "approved" })).toBe(
      1,
    );
    expect(await sdk.sum("xzatoma_approvals_total", { tool: "remove", decision: "denied" })).toBe(
      1,
    );
    expect(await sdk.sum("xzatoma_runs_total", { stop_reason: "completed" })).toBe(1);

    // A second run on the same meter adds to the same instruments.
    await runWith(new Agent({ model: replies({ text: "again" }) }), createRunTelemetry(options));
    expect(await sdk.sum("xzatoma_model_requests_total", model_)).toBe(4);
    expect(await sdk.sum("xzatoma_runs_total")).toBe(2);
  });

  it("counts context pruning as the conversation reported it", async () => {
    const sdk = createTestSdk();
    const big = defineTool({
      name: "read_big",
      description: "Returns a lot of text.",
      inputSchema: z.object({ path: z.string() }).strict(),
      access: "read",
      execute: async ({ path }) => toolSuccess(`${path}: ${"lorem ipsum ".repeat(200)}`),
    });
    const model = scriptedModel((index) =>
      index < 12
        ? { text: `step ${index}`, toolCalls: [{ name: "read_big", input: { path: `f${index}` } }] }
        : { text: "done" },
    );
    const agent = new Agent({
      model,
      tools: [big],
      limits: { maxTurns: 20 },
      context: { maxTokens: 4000, minRetainTurns: 1 },
    });
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const { events } = await runWith(agent, telemetry);
    const pruned = events.filter((event) => event.type === "context-pruned");
    expect(pruned.length).toBeGreaterThan(0);
    expect(await sdk.sum("xzatoma_context_prunes_total")).toBe(pruned.length);
    expect(await sdk.sum("xzatoma_context_pruned_messages_total")).toBe(
      pruned.reduce((total, event) => total + event.dropped, 0),
    );
    const run = sdk.span("invoke_agent");
    expect(run.events.filter((event) => event.name === "context pruned")).toHaveLength(
      pruned.length,
    );
  });
});

describe("createRunTelemetry: subagents", () => {
  /**
   * A `delegate` tool that runs a child agent the way the runtime's subagent tools do: the
   * child's events go to `telemetry.subagent(...)`, and subagent-started/-finished go to the
   * top-level run's stream.
   */
  function delegateTool(options: {
    depth: number;
    parent?: string;
    label: string;
    childModel: () => ReturnType<typeof replies>;
    childTools?: () => Tool[];
    top: () => RunTelemetry;
  }): Tool {
    return defineTool({
      name: "delegate",
      description: "Runs a subagent.",
      inputSchema: z.object({}).strict(),
      access: "read",
      execute: async (_input, context) => {
        const info = {
          toolCallId: context.toolCallId,
          label: options.label,
          depth: options.depth,
          ...(options.parent ? { parent: options.parent } : {}),
        };
        const childTelemetry = options.top().subagent(info);
        const top = options.top();
        top.onEvent({ type: "subagent-started", turn: 1, ...info } satisfies TelemetryEvent);
        const child = new Agent({
          model: options.childModel(),
          tools: options.childTools?.() ?? [],
        });
        const result = await child.run("sub task", {
          onEvent: (event) => childTelemetry.onEvent(event),
        });
        top.onEvent({
          type: "subagent-finished",
          turn: 1,
          ...info,
          stopReason: result.stopReason,
          turns: result.turns,
          usage: result.usage,
          durationMs: result.durationMs,
          ...(result.error ? { error: result.error.message } : {}),
        } satisfies TelemetryEvent);
        return toolSuccess(result.text);
      },
    });
  }

  it("puts a subagent's run span under its parent's tool-call span, two levels deep, in one trace", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "ollama",
      model: "m",
    });
    const getTop = () => top;
    const grandchildTool = () => [
      delegateTool({
        depth: 2,
        parent: "child",
        label: "grandchild",
        childModel: () => replies({ text: "grandchild answer" }),
        top: getTop,
      }),
    ];
    const agent = new Agent({
      model: replies(
        { toolCalls: [{ name: "delegate", input: {}, id: "top-call" }] },
        { text: "parent done" },
      ),
      tools: [
        delegateTool({
          depth: 1,
          label: "child",
          childModel: () =>
            replies(
              { toolCalls: [{ name: "delegate", input: {}, id: "child-call" }] },
              { text: "child done" },
            ),
          childTools: grandchildTool,
          top: getTop,
        }),
      ],
    });
    const { result } = await runWith(agent, top);
    expect(result.stopReason).toBe("completed");

    const parentRun = sdk.span("invoke_agent");
    const parentCall = sdk
      .spans()
      .find((span) => span.attributes["gen_ai.tool.call.id"] === "top-call")!;
    const childRun = sdk.span("invoke_agent child");
    const childCall = sdk
      .spans()
      .find((span) => span.attributes["gen_ai.tool.call.id"] === "child-call")!;
    const grandchildRun = sdk.span("invoke_agent grandchild");
    expect(isChildOf(parentCall, parentRun)).toBe(true);
    expect(isChildOf(childRun, parentCall)).toBe(true);
    expect(isChildOf(childCall, childRun)).toBe(true);
    expect(isChildOf(grandchildRun, childCall)).toBe(true);
    expect(childRun.attributes).toMatchObject({
      "gen_ai.agent.name": "child",
      "xzatoma.agent.depth": 1,
    });
    expect(grandchildRun.attributes["xzatoma.agent.depth"]).toBe(2);
    const grandchildChats = sdk
      .spans()
      .filter((span) => span.name === "chat m" && isChildOf(span, grandchildRun));
    expect(grandchildChats).toHaveLength(1);
    expect(new Set(sdk.spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(parentCall.events.map((event) => event.name)).toEqual([
      "subagent started",
      "subagent finished",
    ]);
    expect(childCall.events[1]?.attributes).toMatchObject({
      "xzatoma.subagent.label": "grandchild",
      "xzatoma.subagent.stop_reason": "completed",
    });

    // Subagent metrics, by depth.
    expect(await sdk.sum("subagent_executions_total", { depth: 1 })).toBe(1);
    expect(await sdk.sum("subagent_executions_total", { depth: 2 })).toBe(1);
    expect(await sdk.sum("subagent_active_count")).toBe(0);
    expect(await sdk.sum("subagent_completions_total", { depth: 1, status: "completed" })).toBe(1);
    expect(await sdk.sum("subagent_completions_total", { depth: 2, status: "completed" })).toBe(1);
    expect(await sdk.sum("subagent_errors_total")).toBe(0);
    // The child made 2 model requests (10 + 5 tokens each), the grandchild 1.
    expect(await sdk.histogram("subagent_turns_used", { depth: 1 })).toEqual({ count: 1, sum: 2 });
    expect(await sdk.histogram("subagent_tokens_consumed", { depth: 1 })).toEqual({
      count: 1,
      sum: 30,
    });
    expect(await sdk.histogram("subagent_tokens_consumed", { depth: 2 })).toEqual({
      count: 1,
      sum: 15,
    });
    expect(
      (await sdk.histogram("subagent_duration_seconds", { depth: 2, status: "completed" })).count,
    ).toBe(1);
    // Model requests of every level are counted: 2 parent + 2 child + 1 grandchild.
    expect(await sdk.sum("xzatoma_model_requests_total")).toBe(5);
  });

  it("labels a child on another provider and model with its own, in spans and metrics", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "openai",
      model: "gpt-parent",
    });
    const child = top.subagent({
      toolCallId: "call-1",
      label: "helper",
      depth: 1,
      provider: "ollama",
      model: "llama3.2",
    });
    const agent = new Agent({ model: replies({ text: "child answer" }) });
    await runWith(agent, child);
    const childRun = sdk.span("invoke_agent helper");
    expect(childRun.attributes).toMatchObject({
      "gen_ai.provider.name": "ollama",
      "gen_ai.request.model": "llama3.2",
    });
    expect(sdk.spans().some((span) => span.name === "chat llama3.2")).toBe(true);
    expect(
      await sdk.sum("xzatoma_model_requests_total", { provider: "ollama", model: "llama3.2" }),
    ).toBe(1);
    expect(await sdk.sum("xzatoma_model_requests_total", { provider: "openai" })).toBe(0);
  });

  it("counts a subagent that failed as an error of its type, and gives its run span an error status", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const agent = new Agent({
      model: replies({ toolCalls: [{ name: "delegate", input: {} }] }, { text: "parent done" }),
      tools: [
        delegateTool({
          depth: 1,
          label: "broken",
          childModel: () => replies({ error: "model gone" }),
          top: () => top,
        }),
      ],
    });
    await runWith(agent, top);
    expect(isError(sdk.span("invoke_agent broken"))).toBe(true);
    expect(isError(sdk.span("invoke_agent"))).toBe(false);
    // The seeds' error type; the exact stop reason stays the completions' status.
    expect(
      await sdk.sum("subagent_errors_total", { depth: 1, error_type: "execution_failed" }),
    ).toBe(1);
    expect(await sdk.sum("subagent_completions_total", { depth: 1, status: "error" })).toBe(1);
    expect(await sdk.sum("subagent_active_count", { depth: 1 })).toBe(0);
  });

  it("counts a child stopped by the quota as quota_exceeded, and refusals before a child starts by their type", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    top.onEvent({ type: "run-started", input: "x", tools: ["subagent"] });
    top.onEvent({
      type: "tool-call-requested",
      turn: 1,
      toolCallId: "s",
      toolName: "subagent",
      input: {},
    });
    const info = { toolCallId: "s", label: "spender", depth: 1 };
    top.onEvent({ type: "subagent-started", turn: 1, ...info });
    top.onEvent({
      type: "subagent-finished",
      turn: 1,
      ...info,
      stopReason: "quota",
      turns: 1,
      usage,
      durationMs: 1,
    });
    const refusals = [
      ["max_depth_reached", 3],
      ["invalid_input", 1],
      ["quota_exceeded", 1],
      ["initialization_failed", 1],
    ] as const;
    for (const [errorType, depth] of refusals) {
      top.onEvent({
        type: "subagent-refused",
        turn: 1,
        toolCallId: "s",
        label: errorType,
        depth,
        errorType,
        error: "refused",
      });
    }
    top.onEvent({
      type: "tool-result",
      turn: 1,
      toolCallId: "s",
      toolName: "subagent",
      result: toolSuccess("done"),
      durationMs: 2,
    });
    top.onEvent({
      type: "finished",
      stopReason: "completed",
      text: "",
      turns: 1,
      toolCalls: 1,
      usage,
      durationMs: 3,
    });
    expect(await sdk.sum("subagent_errors_total", { depth: 1, error_type: "quota_exceeded" })).toBe(
      2,
    );
    expect(
      await sdk.sum("subagent_errors_total", { depth: 3, error_type: "max_depth_reached" }),
    ).toBe(1);
    for (const errorType of ["invalid_input", "initialization_failed"])
      expect(await sdk.sum("subagent_errors_total", { depth: 1, error_type: errorType })).toBe(1);
    expect(await sdk.sum("subagent_errors_total")).toBe(5);
    // A refusal starts nothing: no execution, no active child, no completion.
    expect(await sdk.sum("subagent_executions_total")).toBe(1);
    expect(await sdk.sum("subagent_completions_total", { depth: 1, status: "quota" })).toBe(1);
    expect(await sdk.sum("subagent_active_count")).toBe(0);
    const call = sdk.span("execute_tool subagent");
    // On the span of the call refused (the depth-3 one names no running call at depth 2).
    expect(call.events.filter((event) => event.name === "subagent refused")).toHaveLength(3);
    expect(subagentErrorType("max-turns")).toBe("execution_failed");
    expect(subagentErrorType("aborted")).toBe("execution_failed");
  });

  it("hangs each child of one parallel call (ids '<call id>#<n>') under that call's span", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    top.onEvent({ type: "run-started", input: "x", tools: ["parallel_subagent"] });
    top.onEvent({
      type: "tool-call-requested",
      turn: 1,
      toolCallId: "p",
      toolName: "parallel_subagent",
      input: {},
    });
    for (const n of [0, 1]) {
      const info = { toolCallId: `p#${n}`, label: `task ${n}`, depth: 1 };
      const child = top.subagent(info);
      top.onEvent({ type: "subagent-started", turn: 1, ...info });
      child.onEvent({ type: "run-started", input: "t", tools: [] });
      child.onEvent({
        type: "finished",
        stopReason: "completed",
        text: "",
        turns: 0,
        toolCalls: 0,
        usage,
        durationMs: 1,
      });
      top.onEvent({
        type: "subagent-finished",
        turn: 1,
        ...info,
        stopReason: "completed",
        turns: 0,
        usage,
        durationMs: 1,
      });
    }
    top.onEvent({
      type: "tool-result",
      turn: 1,
      toolCallId: "p",
      toolName: "parallel_subagent",
      result: toolSuccess("both done"),
      durationMs: 2,
    });
    top.onEvent({
      type: "finished",
      stopReason: "completed",
      text: "",
      turns: 1,
      toolCalls: 1,
      usage,
      durationMs: 3,
    });
    const call = sdk.span("execute_tool parallel_subagent");
    expect(isChildOf(sdk.span("invoke_agent task 0"), call)).toBe(true);
    expect(isChildOf(sdk.span("invoke_agent task 1"), call)).toBe(true);
    expect(call.events.map((event) => event.name)).toEqual([
      "subagent started",
      "subagent finished",
      "subagent started",
      "subagent finished",
    ]);
    expect(await sdk.sum("subagent_executions_total", { depth: 1 })).toBe(2);
    expect(await sdk.sum("subagent_active_count", { depth: 1 })).toBe(0);
  });

  it("shows a running subagent in subagent_active_count, and none once the top-level run ends without its finish", async () => {
    const sdk = createTestSdk();
    const top = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    const feed = (event: TelemetryEvent) => top.onEvent(event);
    feed({ type: "run-started", input: "x", tools: ["subagent"] });
    feed({ type: "turn-started", turn: 1 });
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    feed({ type: "usage", turn: 1, usage, totals: usage });
    feed({
      type: "tool-call-requested",
      turn: 1,
      toolCallId: "t",
      toolName: "subagent",
      input: {},
    });
    feed({ type: "subagent-started", turn: 1, toolCallId: "t", label: "a", depth: 1 });
    feed({ type: "subagent-started", turn: 1, toolCallId: "t", label: "b", depth: 1 });
    expect(await sdk.sum("subagent_active_count", { depth: 1 })).toBe(2);
    expect(top.contextForToolCall("t")).toBeDefined();
    feed({
      type: "finished",
      stopReason: "aborted",
      text: "",
      turns: 1,
      toolCalls: 1,
      usage,
      durationMs: 5,
    });
    expect(await sdk.sum("subagent_active_count", { depth: 1 })).toBe(0);
    expect(top.contextForToolCall("t")).toBeUndefined();
    expect(sdk.span("execute_tool subagent").attributes["xzatoma.tool.outcome"]).toBe("unfinished");
  });
});

describe("createRunTelemetry: parents", () => {
  it("starts its own trace by default, and runs under an app's span given as parentContext", async () => {
    const sdk = createTestSdk();
    const appSpan = sdk.tracer.startSpan("handle request");
    const telemetry = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
      parentContext: trace.setSpan(context.active(), appSpan),
    });
    await runWith(new Agent({ model: replies({ text: "hi" }) }), telemetry);
    appSpan.end();
    expect(isChildOf(sdk.span("invoke_agent"), sdk.span("handle request"))).toBe(true);
    // The API reads the span of a context the telemetry made.
    const own = createRunTelemetry({
      tracer: sdk.tracer,
      meter: sdk.meter,
      provider: "p",
      model: "m",
    });
    own.onEvent({ type: "run-started", input: "x", tools: ["echo"] });
    own.onEvent({
      type: "tool-call-requested",
      turn: 1,
      toolCallId: "c",
      toolName: "echo",
      input: {},
    });
    const callContext = own.contextForToolCall("c")!;
    expect(trace.getSpan(callContext)?.spanContext().spanId).toBeDefined();
    expect(trace.getSpan(callContext)?.isRecording()).toBe(true);
  });
});
