// The Prometheus endpoint fed by the real runtime: `createAgentRuntime` with the watcher's
// tracer and meter, its own `subagent` tool, and a scripted Ollama server as the model.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import { createAgentRuntime, resolveRuntimeConfig } from "@xzatoma/runtime";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type Scenario,
} from "@xzatoma/scripted-servers/ollama";
import { afterEach, describe, expect, it } from "vitest";
import { startTelemetry } from "./index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function depthOf(request: OllamaChatRequest): number {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return Number(/You are a subagent \(depth (\d+)\)/.exec(system)?.[1] ?? "0");
}

const toolResults = (request: OllamaChatRequest) =>
  request.messages.filter((message) => message.role === "tool").length;

/** Prometheus text lines without comments. */
async function scrape(url: string): Promise<string[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.text()).split("\n").filter((line) => line !== "" && !line.startsWith("#"));
}

/** The value of `name{labels}` (exactly those labels, besides otel_scope_*). */
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

describe("Prometheus metrics of a runtime run with the real subagent tool", () => {
  it("match the run: its requests and tokens, the child's run, and a refused call by its error_type", async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), "xz-watcher-metrics-"));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    await writeFile(path.join(home, "notes.txt"), "launch at dawn\n");

    const scenario: Scenario = (request) => {
      if (depthOf(request) === 1)
        return toolResults(request) === 0
          ? { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
          : { content: "It says launch at dawn." };
      switch (toolResults(request)) {
        case 0:
          return {
            toolCalls: [
              { name: "subagent", arguments: { label: "reader", task_prompt: "Read notes.txt" } },
            ],
          };
        case 1:
          return {
            toolCalls: [
              {
                name: "subagent",
                arguments: {
                  label: "greedy",
                  task_prompt: "Launch",
                  allowed_tools: ["launch_rockets"],
                },
              },
            ],
          };
        default:
          return { content: "All done." };
      }
    };
    const server = await startScriptedOllama({ scenario });
    cleanups.push(() => server.close());
    const telemetry = await startTelemetry({}, { metricsPort: 0 });
    cleanups.push(() => telemetry!.shutdown());

    const events: AgentEvent[] = [];
    const runtime = await createAgentRuntime(
      resolveRuntimeConfig(
        {
          provider: { type: "ollama", ollama: { host: server.url, model: "llama3.2:latest" } },
          agent: { terminal: { sandbox: false } },
          persistence: { enabled: false },
        },
        { homeDir: home, env: {} },
      ),
      { warn: () => undefined, render: (event) => events.push(event) },
      {
        workspace: home,
        modes: { chatMode: "write", approvalPolicy: "never" },
        env: {},
        subagents: true,
        telemetry: {
          tracer: telemetry!.tracer,
          meter: telemetry!.meter,
          createRunTelemetry: telemetry!.createRunTelemetry,
        },
      },
    );
    cleanups.push(() => runtime.close());
    const result = await runtime.run("Delegate the reading");
    expect(result.stopReason).toBe("completed");
    expect(server.requests.map(depthOf)).toEqual([0, 1, 1, 0, 0]);
    const finished = events.find((event) => event.type === "subagent-finished");
    if (finished?.type !== "subagent-finished") throw new Error("no subagent-finished event");
    expect(finished.stopReason).toBe("completed");

    const lines = await scrape(telemetry!.metricsUrl!);
    const model = { model: "llama3.2:latest", provider: "ollama" };
    expect(sample(lines, "xzatoma_model_requests_total", { ...model, outcome: "success" })).toBe(5);
    expect(sample(lines, "xzatoma_tokens_total", { ...model, type: "input" })).toBe(
      result.usage.inputTokens + finished.usage.inputTokens,
    );
    expect(sample(lines, "xzatoma_tokens_total", { ...model, type: "output" })).toBe(
      result.usage.outputTokens + finished.usage.outputTokens,
    );
    expect(sample(lines, "xzatoma_runs_total", { stop_reason: "completed" })).toBe(2);
    const subagentCalls = lines.filter((line) =>
      line.startsWith('xzatoma_tool_calls_total{tool="subagent"'),
    );
    expect(
      subagentCalls.map((line) => Number(line.split(" ").at(-1))).reduce((a, b) => a + b),
    ).toBe(2);
    expect(
      sample(lines, "xzatoma_tool_calls_total", {
        tool: "read_file",
        verdict: "not_asked",
        outcome: "success",
      }),
    ).toBe(1);
    // The child that ran.
    expect(sample(lines, "subagent_executions_total", { depth: "1" })).toBe(1);
    expect(sample(lines, "subagent_active_count", { depth: "1" })).toBe(0);
    expect(sample(lines, "subagent_completions_total", { depth: "1", status: "completed" })).toBe(
      1,
    );
    expect(sample(lines, "subagent_turns_used_sum", { depth: "1" })).toBe(2);
    expect(sample(lines, "subagent_tokens_consumed_sum", { depth: "1" })).toBe(
      finished.usage.totalTokens,
    );
    // The call refused before a child started: an error of the seeds' type, not an execution.
    expect(
      sample(lines, "subagent_errors_total", { depth: "1", error_type: "invalid_input" }),
    ).toBe(1);
    expect(lines.filter((line) => line.startsWith("subagent_errors_total"))).toHaveLength(1);
  });
});
