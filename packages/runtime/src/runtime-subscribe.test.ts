import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNotesWorkspace, removeNotesWorkspace } from "./notes-workspace.test-support.js";
import { createAgentRuntime, type AgentRuntime } from "./agent-runtime.js";
import { resolveRuntimeConfig } from "./resolve-config.js";
import type { RuntimeIO } from "./runtime-io.js";
import type { ChildInfo } from "./subagents/subagent-tools.js";

let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;
let runtime: AgentRuntime | undefined;

beforeEach(async () => {
  ({ home, workspace } = await makeNotesWorkspace("xz-subscribe"));
});

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await server?.close();
  server = undefined;
  await removeNotesWorkspace({ home, workspace });
});

const hasToolResult: (request: Parameters<ChatScenario>[0]) => boolean = (request) =>
  request.messages.some((message) => message.role === "tool");

/** Reads notes.txt, then answers with what the tool returned. */
const readThenAnswer: ChatScenario = (request) =>
  hasToolResult(request)
    ? { content: `Found: ${request.messages.findLast((m) => m.role === "tool")?.content ?? ""}` }
    : { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };

async function start(scenario: ChatScenario, io: Partial<RuntimeIO> = {}): Promise<AgentRuntime> {
  server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
  const config = resolveRuntimeConfig(
    {
      provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
      agent: { terminal: { sandbox: false } },
      persistence: { data_dir: path.join(home, "data") },
    },
    { homeDir: home, env: {} },
  );
  runtime = await createAgentRuntime(
    config,
    { warn: () => undefined, ...io },
    {
      workspace,
      modes: { chatMode: "write", approvalPolicy: "never" },
      env: { OPENAI_API_KEY: "sk-test" },
      subagents: true,
    },
  );
  return runtime;
}

const types = (events: readonly AgentEvent[]) => events.map((event) => event.type);

describe("runtime.subscribe", () => {
  it("hands every subscriber every event in order, and an unsubscribed one nothing", async () => {
    const agent = await start(readThenAnswer);
    const first: AgentEvent[] = [];
    const second: AgentEvent[] = [];
    const gone: AgentEvent[] = [];
    const order: string[] = [];
    agent.subscribe((event) => {
      first.push(event);
      order.push(`first:${event.type}`);
    });
    agent.subscribe((event) => {
      second.push(event);
      order.push(`second:${event.type}`);
    });
    const unsubscribe = agent.subscribe((event) => gone.push(event));
    unsubscribe();
    unsubscribe();

    const result = await agent.run("What is in notes.txt?");

    expect(result.stopReason).toBe("completed");
    expect(result.text).toContain("the answer is 42");
    // The run as it happened: the tool call, its result and the answer, finished last.
    const seen = types(first);
    expect(seen.indexOf("tool-call-requested")).toBeGreaterThan(-1);
    expect(seen.indexOf("tool-result")).toBeGreaterThan(seen.indexOf("tool-call-requested"));
    expect(seen.at(-1)).toBe("finished");
    expect(seen.filter((type) => type === "finished")).toHaveLength(1);
    const finished = first.at(-1);
    expect(finished?.type === "finished" && finished.text).toBe(result.text);
    // Both subscribers received the same events (the same objects), each before the next one.
    expect(second).toEqual(first);
    second.forEach((event, index) => expect(event).toBe(first[index]));
    expect(order).toEqual(
      first.flatMap((event) => [`first:${event.type}`, `second:${event.type}`]),
    );
    expect(gone).toEqual([]);
  });

  it("keeps a subscription across runs until it is ended, and stops between two runs", async () => {
    const agent = await start(() => ({ content: "done" }));
    const kept: AgentEvent[] = [];
    const ended: AgentEvent[] = [];
    agent.subscribe((event) => kept.push(event));
    const stop = agent.subscribe((event) => ended.push(event));

    await agent.run("one");
    const afterFirst = ended.length;
    stop();
    await agent.run("two");

    expect(types(ended).at(-1)).toBe("finished");
    expect(ended).toHaveLength(afterFirst);
    expect(types(kept).filter((type) => type === "finished")).toHaveLength(2);
    expect(kept.slice(0, afterFirst)).toEqual(ended);
  });

  it("stops a listener that unsubscribes itself mid-run from that event on", async () => {
    const agent = await start(readThenAnswer);
    const all: AgentEvent[] = [];
    const untilTool: AgentEvent[] = [];
    agent.subscribe((event) => all.push(event));
    const stop = agent.subscribe((event) => {
      untilTool.push(event);
      if (event.type === "tool-result") stop();
    });

    await agent.run("What is in notes.txt?");

    const cut = types(all).indexOf("tool-result");
    expect(cut).toBeGreaterThan(0);
    expect(untilTool).toEqual(all.slice(0, cut + 1));
    expect(types(all).at(-1)).toBe("finished");
  });

  it("hands subagents' events, with their child, only to who asked for them", async () => {
    const depth = (request: Parameters<ChatScenario>[0]) =>
      /You are a subagent/.test(
        request.messages.find((message) => message.role === "system")?.content ?? "",
      );
    const agent = await start((request) => {
      if (depth(request)) return { content: "child says hello" };
      return hasToolResult(request)
        ? { content: "parent done" }
        : {
            toolCalls: [{ name: "subagent", arguments: { label: "greeter", task_prompt: "hi" } }],
          };
    });
    const withChildren: { event: AgentEvent; child: ChildInfo | undefined }[] = [];
    const own: { event: AgentEvent; child: ChildInfo | undefined }[] = [];
    agent.subscribe((event, child) => withChildren.push({ event, child }), { subagents: true });
    agent.subscribe((event, child) => own.push({ event, child }));

    const result = await agent.run("delegate");

    expect(result.stopReason).toBe("completed");
    expect(own.every((entry) => entry.child === undefined)).toBe(true);
    const children = withChildren.filter((entry) => entry.child !== undefined);
    expect(children.length).toBeGreaterThan(0);
    expect(children.every((entry) => entry.child?.label === "greeter")).toBe(true);
    expect(children.every((entry) => entry.child?.depth === 1)).toBe(true);
    expect(children.some((entry) => entry.event.type === "finished")).toBe(true);
    // Without the children's events, the two subscribers saw the same run.
    expect(withChildren.filter((entry) => entry.child === undefined)).toEqual(own);
  });

  it("still hands events to the deprecated io.render and per-run onEvent, after the subscribers", async () => {
    const order: string[] = [];
    const agent = await start(() => ({ content: "done" }), {
      render: (event) => order.push(`render:${event.type}`),
    });
    agent.subscribe((event) => order.push(`subscriber:${event.type}`));

    await agent.run("one", { onEvent: (event) => order.push(`onEvent:${event.type}`) });
    const firstRun = order.length;
    await agent.run("two");

    const perEvent = order.slice(0, firstRun);
    const events = perEvent.filter((entry) => entry.startsWith("render:"));
    expect(events.at(-1)).toBe("render:finished");
    expect(perEvent).toEqual(
      events.flatMap((entry) => {
        const type = entry.slice("render:".length);
        return [`render:${type}`, `subscriber:${type}`, `onEvent:${type}`];
      }),
    );
    // The per-run listener ended with its run; the others carried on.
    expect(order.slice(firstRun).some((entry) => entry.startsWith("onEvent:"))).toBe(false);
    expect(order.at(-1)).toBe("subscriber:finished");
  });
});
