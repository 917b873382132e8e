// Subagents through the built `xzatoma`: the event stream of `run --json`, and a tree that
// survives the CLI being killed with -9 in the middle of a child.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type Scenario,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { startOtlpReceiver } from "@xzatoma/scripted-servers/otlp";
import { BIN, runCli } from "./cli.test-support.js";
import { runTestBed } from "./run-test-bed.test-support.js";
import { depthOf } from "./subagents.test-support.js";

const bed = runTestBed<ScriptedOllama>("xz-subagents", { "notes.txt": "launch at dawn\n" });
const { env } = bed;

const answered = (request: OllamaChatRequest) =>
  request.messages.some((message) => message.role === "tool");

describe("xzatoma run --subagents", () => {
  it("carries each subagent's start and end, with its depth, in the --json event stream", async () => {
    const scenario: Scenario = (request) => {
      if (depthOf(request) === 1) return { content: "The notes say: launch at dawn." };
      return answered(request)
        ? { content: "Delegated and done." }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "reader", task_prompt: "Read notes.txt" } },
            ],
          };
    };
    bed.serve(await startScriptedOllama({ scenario }));
    const outcome = await runCli(["run", "--subagents", "--json", "Use a subagent"], {
      cwd: bed.workspace,
      env: env(),
    });
    expect(outcome.code).toBe(0);
    const events = outcome.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.find((event) => event.type === "subagent-started")).toMatchObject({
      label: "reader",
      depth: 1,
    });
    expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
      label: "reader",
      depth: 1,
      stopReason: "completed",
      turns: 1,
    });
    expect(events.at(-1)).toMatchObject({ type: "finished", stopReason: "completed" });
  });

  it.each([
    ["agent.subagent.enabled: true in the configuration file", "file"],
    ["XZATOMA_AGENT_SUBAGENT_ENABLED=true", "variable"],
  ])("is offered without --subagents when %s", async (_how, how) => {
    const server = bed.serve(await startScriptedOllama({ scenario: () => ({ content: "fine" }) }));
    const config = path.join(bed.base, "subagents-enabled.yaml");
    await writeFile(config, "agent:\n  subagent:\n    enabled: true\n");
    const outcome = await runCli(
      how === "file" ? ["--config", config, "run", "hello"] : ["run", "hello"],
      {
        cwd: bed.workspace,
        env: how === "file" ? env() : { ...env(), XZATOMA_AGENT_SUBAGENT_ENABLED: "true" },
      },
    );
    expect(outcome.code).toBe(0);
    const offered = server.requests[0]?.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(["subagent", "parallel_subagent"]));
  });

  it("ends a tree that uses up its token quota with stopReason quota and exit code 4", async () => {
    let listed = 0;
    const scenario: Scenario = (request) => {
      if (depthOf(request) === 1) {
        listed += 1;
        return {
          toolCalls: [
            { name: "list_directory", arguments: { path: ".", pattern: "*".repeat(listed) } },
          ],
        };
      }
      const label = answered(request) ? "second" : "spender";
      return {
        toolCalls: [{ name: "subagent", arguments: { label, task_prompt: `${label}: list` } }],
      };
    };
    bed.serve(await startScriptedOllama({ scenario }));
    const outcome = await runCli(["run", "--subagents", "--json", "Spend it all"], {
      cwd: bed.workspace,
      env: { ...env(), XZATOMA_AGENT_QUOTA_MAX_TOTAL_TOKENS: "1500" },
    });
    expect(outcome.code).toBe(4);
    const events = outcome.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; label?: string; stopReason?: string });
    expect(
      events.filter((event) => event.type === "subagent-finished").map((event) => event.label),
    ).toEqual(["spender"]);
    expect(events.find((event) => event.type === "subagent-finished")?.stopReason).toBe("quota");
    // No other child started once the budget was spent.
    expect(events.filter((event) => event.type === "subagent-started")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "finished", stopReason: "quota" });
  });

  it("names each child's parent subagent at depth 2, and replay shows each completed child's answer under it", async () => {
    const scenario: Scenario = (request) => {
      const depth = depthOf(request);
      if (depth === 2) return { content: "Inner answer: launch at dawn." };
      if (answered(request))
        return { content: depth === 1 ? "Outer answer: the inner one found it." : "All done." };
      const label = depth === 0 ? "outer" : "inner";
      return {
        toolCalls: [{ name: "subagent", arguments: { label, task_prompt: `${label} task` } }],
      };
    };
    bed.serve(await startScriptedOllama({ scenario }));
    const outcome = await runCli(["run", "--subagents", "--json", "Nest two subagents"], {
      cwd: bed.workspace,
      env: env(),
    });
    expect(outcome.code).toBe(0);
    const events = outcome.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const of = (type: string, label: string) =>
      events.find((event) => event["type"] === type && event["label"] === label);
    expect(of("subagent-started", "outer")).toMatchObject({ depth: 1 });
    expect(of("subagent-started", "outer")).not.toHaveProperty("parent");
    expect(of("subagent-started", "inner")).toMatchObject({ depth: 2, parent: "outer" });
    expect(of("subagent-finished", "inner")).toMatchObject({
      depth: 2,
      parent: "outer",
      stopReason: "completed",
    });
    expect(of("subagent-finished", "outer")).not.toHaveProperty("parent");

    const listed = await runCli(["history", "list", "--json"], { cwd: bed.workspace, env: env() });
    const items = (JSON.parse(listed.stdout) as { items: { id: string; title: string }[] }).items;
    const top = items.find((item) => item.title === "Nest two subagents");
    expect(top).toBeDefined();
    const replay = await runCli(["replay", top!.id], { cwd: bed.workspace, env: env() });
    expect(replay.code).toBe(0);
    const lines = replay.stdout.split("\n");
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const outer = at(/^ {2}subagent 'outer' \w+ .* completed/);
    const outerAnswer = at(/^ {4}assistant: Outer answer: the inner one found it\.$/);
    const inner = at(/^ {4}subagent 'inner' \w+ .* completed/);
    const innerAnswer = at(/^ {6}assistant: Inner answer: launch at dawn\.$/);
    expect([outer, outerAnswer, inner, innerAnswer].every((index) => index > 0)).toBe(true);
    expect(outer).toBeLessThan(outerAnswer);
    expect(outerAnswer).toBeLessThan(inner);
    expect(inner).toBeLessThan(innerAnswer);
  });

  it("is not offered without --subagents or agent.subagent.enabled", async () => {
    const server = bed.serve(await startScriptedOllama({ scenario: () => ({ content: "fine" }) }));
    const outcome = await runCli(["run", "hello"], { cwd: bed.workspace, env: env() });
    expect(outcome.code).toBe(0);
    const offered = server.requests[0]?.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).not.toContain("subagent");
  });
});

describe("telemetry of a tree", () => {
  it("exports the run, its model requests and tool calls, and the subagent's run under the call that started it", async () => {
    const scenario: Scenario = (request) => {
      if (depthOf(request) === 1)
        return answered(request)
          ? { content: "It says launch at dawn." }
          : { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
      return answered(request)
        ? { content: "Done." }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "reader", task_prompt: "Read notes.txt" } },
            ],
          };
    };
    bed.serve(await startScriptedOllama({ scenario }));
    const collector = await startOtlpReceiver();
    try {
      const outcome = await runCli(["run", "--subagents", "Use a subagent"], {
        cwd: bed.workspace,
        env: { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      });
      expect(outcome.code).toBe(0);
      const spans = collector.spans();
      const byId = new Map(spans.map((span) => [span.spanId, span]));
      const parentOf = (span: (typeof spans)[number]) =>
        span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      const roots = spans.filter((span) => span.name.startsWith("invoke_agent") && !parentOf(span));
      expect(roots).toHaveLength(1);
      const root = roots[0]!;
      expect(root.attributes["gen_ai.provider.name"]).toBe("ollama");
      expect(root.resource["service.name"]).toBe("xzatoma");
      const delegation = spans.find((span) => span.name === "execute_tool subagent")!;
      expect(parentOf(delegation)?.spanId).toBe(root.spanId);
      const child = spans.find((span) => span.name.startsWith("invoke_agent") && span !== root)!;
      expect(parentOf(child)?.spanId).toBe(delegation.spanId);
      expect(child.attributes["gen_ai.agent.name"]).toBe("reader");
      const childRead = spans.find((span) => span.name === "execute_tool read_file")!;
      expect(parentOf(childRead)?.spanId).toBe(child.spanId);
      expect(spans.filter((span) => span.name.startsWith("chat ")).length).toBe(4);
      expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
      expect(collector.metric("subagent_executions_total", { depth: 1 }).value).toBe(1);
    } finally {
      await collector.close();
    }
  });
});

describe("a tree killed with -9", () => {
  it("keeps the parent and the running child, and replay shows the tree", async () => {
    const scenario: Scenario = (request) =>
      depthOf(request) === 1
        ? { content: "never sent", delayMs: 600_000 }
        : {
            toolCalls: [
              {
                name: "subagent",
                arguments: { label: "slowpoke", task_prompt: "Think for a long time" },
              },
            ],
          };
    const server = bed.serve(await startScriptedOllama({ scenario }));
    const child = spawn(process.execPath, [BIN, "run", "--subagents", "delegate slowly"], {
      cwd: bed.workspace,
      env: env(),
      stdio: "ignore",
    });
    let ended = false;
    const exited = new Promise<void>((resolve) =>
      child.on("close", () => {
        ended = true;
        resolve();
      }),
    );
    try {
      // Wait (by condition, not by time) until the subagent's request reached the model; a
      // run that ended first fails here rather than at the test's timeout.
      while (!server.requests.some((request) => depthOf(request) === 1)) {
        if (ended) throw new Error("xzatoma run ended before its subagent asked the model");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }

    const listed = await runCli(["history", "list", "--json"], { cwd: bed.workspace, env: env() });
    const items = (JSON.parse(listed.stdout) as { items: { id: string; title: string }[] }).items;
    const parent = items.find((item) => item.title === "delegate slowly");
    expect(parent).toBeDefined();
    const replay = await runCli(["replay", parent!.id], { cwd: bed.workspace, env: env() });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/^conversation \w+ .* running/m);
    expect(replay.stdout).toMatch(/^ {2}subagent 'slowpoke' \w+ .* running/m);
    expect(replay.stdout).toContain("Think for a long time");
  });
});
