import path from "node:path";
import type { AgentEvent } from "@xzatoma/core";
import { openHistory } from "@xzatoma/persistence";
import {
  startScriptedOpenAI,
  type ChatScenario,
  type ChatView,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import {
  startScriptedOllama,
  type OllamaChatRequest,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNotesWorkspace, removeNotesWorkspace } from "../notes-workspace.test-support.js";
import {
  createAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
} from "../agent-runtime.js";
import { resolveRuntimeConfig } from "../resolve-config.js";

let home: string;
let workspace: string;
let server: ScriptedOpenAI | undefined;
let ollama: ScriptedOllama | undefined;
let runtime: AgentRuntime | undefined;

beforeEach(async () => {
  ({ home, workspace } = await makeNotesWorkspace("xz-sub"));
});

afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await server?.close();
  server = undefined;
  await ollama?.close();
  ollama = undefined;
  await removeNotesWorkspace({ home, workspace });
});

/** The depth of the agent that sent a request: 0 for the top-level one. */
function depthOf(request: ChatView): number {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return Number(/You are a subagent \(depth (\d+)\)/.exec(system)?.[1] ?? "0");
}

const lastTool = (request: ChatView) =>
  request.messages.findLast((message) => message.role === "tool")?.content ?? "";
const userText = (request: ChatView) =>
  request.messages.find((message) => message.role === "user")?.content ?? "";
const hasToolResult = (request: ChatView) => request.messages.some((m) => m.role === "tool");

async function start(
  scenario: ChatScenario,
  agent: Record<string, unknown> = {},
  events: AgentEvent[] = [],
  extra: Partial<
    Pick<AgentRuntimeOptions, "modes" | "limits" | "observeSubagent" | "subagents">
  > & {
    /** More of `provider` (another provider's section for `agent.subagent.provider`). */
    provider?: Record<string, unknown>;
  } = {},
): Promise<AgentRuntime> {
  server = await startScriptedOpenAI({
    scenario,
    apiKey: "sk-test",
    models: ["scripted-1", "scripted-child"],
  });
  const config = resolveRuntimeConfig(
    {
      provider: {
        type: "openai",
        openai: { base_url: server.url, model: "scripted-1" },
        ...extra.provider,
      },
      agent: { terminal: { sandbox: false }, ...agent },
      persistence: { data_dir: path.join(home, "data") },
    },
    { homeDir: home, env: {} },
  );
  runtime = await createAgentRuntime(
    config,
    { warn: () => undefined, render: (event) => events.push(event) },
    {
      workspace,
      modes: extra.modes ?? {
        chatMode: "write",
        approvalPolicy: "never",
      },
      env: { OPENAI_API_KEY: "sk-test" },
      subagents: extra.subagents ?? true,
      ...(extra.limits ? { limits: extra.limits } : {}),
      ...(extra.observeSubagent ? { observeSubagent: extra.observeSubagent } : {}),
    },
  );
  return runtime;
}

/** The statuses history stored for the children of a top-level conversation. */
async function storedChildren(agent: AgentRuntime): Promise<[string, string][]> {
  const parentId = agent.conversationId!;
  await agent.close();
  runtime = undefined;
  const history = openHistory({ path: path.join(home, "data", "history.db") });
  try {
    const tree = history.getConversationTree(parentId);
    return (tree?.children ?? []).map((child) => [child.label ?? "", child.status]);
  } finally {
    history.close();
  }
}

/** The requests the top-level agent sent (a subagent's system prompt names its depth). */
const topLevelRequests = () =>
  server!.chatRequests.filter(
    (body) => !JSON.stringify(body.messages).includes("You are a subagent (depth"),
  );

/** The texts of every tool result in a request. */
const toolResults = (request: ChatView) =>
  request.messages.filter((message) => message.role === "tool").map((message) => message.content);

describe("subagent", () => {
  it("runs a task in a fresh conversation and returns its answer with metadata; the tree is stored and reported", async () => {
    const events: AgentEvent[] = [];
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        // A fresh conversation: the child sees its task, not the parent's messages.
        expect(request.messages.filter((m) => m.role === "user")).toHaveLength(1);
        return hasToolResult(request)
          ? { content: `Found: ${lastTool(request).trim()}` }
          : { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
      }
      return hasToolResult(request)
        ? { content: `The subagent said: ${lastTool(request)}` }
        : {
            toolCalls: [
              {
                name: "subagent",
                arguments: {
                  label: "reader",
                  task_prompt: "Read notes.txt",
                  allowed_tools: ["read_file"],
                },
              },
            ],
          };
    };
    const agent = await start(scenario, {}, events);
    const result = await agent.run("Use a subagent to read notes.txt");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toContain('[subagent "reader" completed: 2 turns');
    expect(result.text).toContain("depth 1");
    expect(result.text).toContain("Found: the answer is 42");
    // The child was offered only what it was allowed, plus nothing else.
    const childRequest = server!.chatRequests.find((_, index) => index === 1)!;
    expect(childRequest.tools?.map((tool) => tool.function.name)).toEqual(["read_file"]);

    const started = events.find((event) => event.type === "subagent-started");
    const finished = events.find((event) => event.type === "subagent-finished");
    expect(started).toMatchObject({ label: "reader", depth: 1 });
    expect(finished).toMatchObject({
      label: "reader",
      depth: 1,
      stopReason: "completed",
      turns: 2,
    });

    const parentId = agent.conversationId!;
    await agent.close();
    runtime = undefined;
    const history = openHistory({ path: path.join(home, "data", "history.db") });
    try {
      const tree = history.getConversationTree(parentId);
      expect(tree?.children).toEqual([
        expect.objectContaining({ label: "reader", depth: 1, status: "completed" }),
      ]);
    } finally {
      history.close();
    }
  });

  it("never gives a child a tool its parent lacks: a call of another tool is refused", async () => {
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        return hasToolResult(request)
          ? { content: `child saw: ${lastTool(request)}` }
          : { toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] };
      }
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [
              {
                name: "subagent",
                arguments: {
                  label: "limited",
                  task_prompt: "Write x.txt",
                  allowed_tools: ["read_file"],
                },
              },
            ],
          };
    };
    const agent = await start(scenario);
    const result = await agent.run("delegate");
    expect(result.text).toContain("There is no tool named 'write_file'");
    await expect(
      import("node:fs/promises").then((fs) => fs.stat(path.join(workspace, "x.txt"))),
    ).rejects.toThrow();
  });

  it("sends a child's calls through the parent's approvals: refused when no one is asked, asked in chat", async () => {
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        return hasToolResult(request)
          ? { content: `child saw: ${lastTool(request)}` }
          : { toolCalls: [{ name: "terminal", arguments: { command: "touch made.txt" } }] };
      }
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "toucher", task_prompt: "touch it" } },
            ],
          };
    };
    const restricted = await start(scenario);
    const refused = await restricted.run("delegate");
    expect(refused.text).toContain("no one is asked here");
    const fs = await import("node:fs/promises");
    await expect(fs.stat(path.join(workspace, "made.txt"))).rejects.toThrow();
    await restricted.close();
    await server?.close();

    server = await startScriptedOpenAI({ scenario, apiKey: "sk-test", models: ["scripted-1"] });
    const asked: string[] = [];
    runtime = await createAgentRuntime(
      resolveRuntimeConfig(
        {
          provider: { type: "openai", openai: { base_url: server.url, model: "scripted-1" } },
          agent: { terminal: { sandbox: false } },
          persistence: { enabled: false },
        },
        { homeDir: home, env: {} },
      ),
      {
        warn: () => undefined,
        ask: async (request) => {
          asked.push(`${request.toolName}: ${(request.input as { command: string }).command}`);
          return { approved: true };
        },
      },
      {
        workspace,
        modes: { chatMode: "write", approvalPolicy: "untrusted" },
        env: { OPENAI_API_KEY: "sk-test" },
        subagents: true,
      },
    );
    await runtime.run("delegate");
    expect(asked).toEqual(["terminal: touch made.txt"]);
    expect((await fs.stat(path.join(workspace, "made.txt"))).isFile()).toBe(true);
  });

  it("refuses allowed_tools that name a tool the parent does not have", async () => {
    const scenario: ChatScenario = (request) =>
      hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [
              {
                name: "subagent",
                arguments: { label: "greedy", task_prompt: "x", allowed_tools: ["launch_rockets"] },
              },
            ],
          };
    const agent = await start(scenario);
    const result = await agent.run("delegate");
    expect(result.text).toContain("allowed_tools names tools you do not have: launch_rockets");
    expect(server!.chatRequests).toHaveLength(2);
  });

  it("ends a tree whose model always delegates at the depth limit, with a result the model reads", async () => {
    const scenario: ChatScenario = (request) =>
      hasToolResult(request)
        ? { content: `depth ${depthOf(request)} done: ${lastTool(request).slice(0, 400)}` }
        : {
            toolCalls: [
              {
                name: "subagent",
                arguments: { label: `level-${depthOf(request) + 1}`, task_prompt: "go deeper" },
              },
            ],
          };
    const agent = await start(scenario, { subagent: { max_depth: 2 } });
    const result = await agent.run("delegate forever");
    expect(result.stopReason).toBe("completed");
    // Depth 0 → 1 → 2; the depth-2 agent's call is refused, so each level asks twice.
    expect(server!.chatRequests).toHaveLength(6);
    expect(result.text).toContain("Maximum subagent depth (2) reached");
  });

  it("stops the whole tree when a child crosses the tree's token quota while it runs", async () => {
    let childRequests = 0;
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        childRequests += 1;
        return {
          toolCalls: [
            {
              name: "list_directory",
              arguments: { path: ".", pattern: "*".repeat(childRequests) },
            },
          ],
        };
      }
      return hasToolResult(request)
        ? { content: lastTool(request).slice(0, 300) }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "spender", task_prompt: "list forever" } },
            ],
          };
    };
    const agent = await start(scenario, {
      quota: { max_total_tokens: 1500 },
      subagent: { default_max_turns: 40 },
    });
    const events: AgentEvent[] = [];
    const result = await agent.run("delegate", { onEvent: (event) => events.push(event) });
    // The parent does not go on spending: it never asks its model again after the child.
    expect(result.stopReason).toBe("quota");
    expect(topLevelRequests()).toHaveLength(1);
    expect(childRequests).toBeGreaterThan(0);
    expect(childRequests).toBeLessThan(40);
    expect(result.quota).toMatchObject({
      budget: "tokens",
      limit: 1500,
      key: "agent.quota.max_total_tokens",
    });
    expect(result.quota!.used).toBeGreaterThan(1500);
    expect(result.treeUsage?.totalTokens).toBe(result.quota!.used);
    expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
      label: "spender",
      stopReason: "quota",
      error: expect.stringMatching(/^Stopped: the run's quota of 1500 tokens is used up/),
    });
    expect(events.at(-1)).toMatchObject({
      type: "finished",
      stopReason: "quota",
      treeUsage: result.treeUsage,
      quota: result.quota,
    });
  });

  it("counts a child's final answer: one that takes the tree past its budget stops the tree", async () => {
    // Measured first: the tokens of the top-level request and of the child's one answer.
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) return { content: "The notes say the answer is 42. ".repeat(20) };
      return hasToolResult(request)
        ? { content: "Delegated and done." }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "answerer", task_prompt: "Read notes" } },
            ],
          };
    };
    const measured: AgentEvent[] = [];
    const free = await start(scenario);
    const completed = await free.run("delegate", { onEvent: (event) => measured.push(event) });
    expect(completed.stopReason).toBe("completed");
    const first = measured.find((event) => event.type === "usage");
    const child = measured.find((event) => event.type === "subagent-finished");
    if (first?.type !== "usage" || child?.type !== "subagent-finished") throw new Error("no usage");
    // The whole tree's tokens: the top-level agent's two requests and the child's one.
    expect(completed.treeUsage?.totalTokens).toBe(
      completed.usage.totalTokens + child.usage.totalTokens,
    );
    await free.close();
    runtime = undefined;
    await server?.close();

    const limit = first.usage.totalTokens + Math.floor(child.usage.totalTokens / 2);
    const agent = await start(scenario, { quota: { max_total_tokens: limit } });
    const events: AgentEvent[] = [];
    const result = await agent.run("delegate", { onEvent: (event) => events.push(event) });
    expect(result.stopReason).toBe("quota");
    expect(result.quota).toMatchObject({ budget: "tokens", limit });
    expect(result.quota!.used).toBe(first.usage.totalTokens + child.usage.totalTokens);
    expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
      stopReason: "quota",
    });
    // The top-level agent never read the answer: its model was asked once.
    expect(topLevelRequests()).toHaveLength(1);
  });

  it("refuses a child once the run's executions are used up", async () => {
    const scenario: ChatScenario = (request, index) => {
      if (depthOf(request) === 1) return { content: "child done" };
      if (index > 6) return { content: "stop" };
      return {
        toolCalls: [
          { name: "subagent", arguments: { label: `c${index}`, task_prompt: `task ${index}` } },
        ],
      };
    };
    const agent = await start(scenario, { quota: { max_executions: 2 } });
    const result = await agent.run("delegate many");
    expect(result.stopReason).toBe("completed");
    const refusals = server!.chatRequests.flatMap((body) =>
      body.messages.filter(
        (m) =>
          m.role === "tool" &&
          JSON.stringify(m.content).includes("2 subagent executions is used up"),
      ),
    );
    expect(refusals.length).toBeGreaterThan(0);
  });
});

describe("parallel_subagent", () => {
  it("isolates a failing task, keeps task order and reports each", async () => {
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        const task = userText(request);
        if (task.startsWith("fail"))
          return { fault: { kind: "status", status: 400, message: "bad task" } };
        return { content: `done: ${task.split("\n")[0]}` };
      }
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [
              {
                name: "parallel_subagent",
                arguments: {
                  tasks: [
                    { label: "a", task_prompt: "alpha" },
                    { label: "b", task_prompt: "fail please" },
                    { label: "c", task_prompt: "gamma" },
                  ],
                  max_concurrent: 2,
                },
              },
            ],
          };
    };
    const agent = await start(scenario);
    const result = await agent.run("fan out");
    const report = JSON.parse(result.text) as {
      results: { label: string; success: boolean; output: string; error?: string }[];
      successful: number;
      failed: number;
    };
    expect(report.results.map((entry) => entry.label)).toEqual(["a", "b", "c"]);
    expect(report.results.map((entry) => entry.success)).toEqual([true, false, true]);
    expect(report.results[0]?.output).toBe("done: alpha");
    expect(report.results[1]?.error).toMatch(/Failed: /);
    expect([report.successful, report.failed]).toEqual([2, 1]);
  });

  it("with fail_fast, stops starting tasks once one fails", async () => {
    const started: string[] = [];
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        const task = userText(request).split("\n")[0] ?? "";
        started.push(task);
        return task.startsWith("fail")
          ? { fault: { kind: "status", status: 400, message: "bad task" } }
          : { content: `done: ${task}` };
      }
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [
              {
                name: "parallel_subagent",
                arguments: {
                  tasks: [
                    { label: "first", task_prompt: "fail at once" },
                    { label: "second", task_prompt: "beta" },
                    { label: "third", task_prompt: "gamma" },
                  ],
                  max_concurrent: 1,
                  fail_fast: true,
                },
              },
            ],
          };
    };
    const agent = await start(scenario);
    const result = await agent.run("fan out carefully");
    // Every task failed, so the whole call is an error the model reads.
    expect(result.text.startsWith("Error: ")).toBe(true);
    const report = JSON.parse(result.text.slice("Error: ".length)) as {
      results: { label: string; success: boolean; error?: string }[];
    };
    expect(started).toEqual(["fail at once"]);
    expect(report.results.map((entry) => [entry.label, entry.success])).toEqual([
      ["first", false],
      ["second", false],
      ["third", false],
    ]);
    expect(report.results[1]?.error).toContain("Not started: an earlier task failed (fail_fast)");
  });

  it("cancels every child when the parent's run is aborted, and stores each with its status", async () => {
    const controller = new AbortController();
    let waiting = 0;
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        waiting += 1;
        if (waiting === 3) setTimeout(() => controller.abort(), 0);
        return { fault: { kind: "stall", afterChunks: 1 } };
      }
      return {
        toolCalls: [
          {
            name: "parallel_subagent",
            arguments: {
              tasks: [1, 2, 3].map((n) => ({ label: `slow-${n}`, task_prompt: `wait ${n}` })),
              max_concurrent: 3,
            },
          },
        ],
      };
    };
    const agent = await start(scenario);
    const result = await agent.run("fan out and wait", { signal: controller.signal });
    expect(result.stopReason).toBe("aborted");
    const parentId = agent.conversationId!;
    await agent.close();
    runtime = undefined;
    const history = openHistory({ path: path.join(home, "data", "history.db") });
    try {
      const tree = history.getConversationTree(parentId);
      expect(tree?.status).toBe("interrupted");
      expect(tree?.children.map((child) => [child.label, child.status]).sort()).toEqual([
        ["slow-1", "interrupted"],
        ["slow-2", "interrupted"],
        ["slow-3", "interrupted"],
      ]);
    } finally {
      history.close();
    }
  });
});

describe("delegation across mode switches", () => {
  it("keeps subagent and parallel_subagent when the mode changes", async () => {
    const agent = await start(() => ({ content: "ok" }));
    expect(agent.status().tools).toEqual(expect.arrayContaining(["subagent", "parallel_subagent"]));
    agent.setMode("planning");
    expect(agent.status().tools).toEqual(expect.arrayContaining(["subagent", "parallel_subagent"]));
    agent.setMode("write");
    expect(agent.status().tools).toEqual(expect.arrayContaining(["subagent", "parallel_subagent"]));
  });
});

describe("the tree's quota", () => {
  it.each([
    ["agent.quota.max_total_tokens", { quota: { max_total_tokens: 1500 } }],
    ["agent.subagent.max_total_tokens (its older name)", { subagent: { max_total_tokens: 1500 } }],
  ])(
    "once %s is spent, starts no other child and stops the top-level run with quota",
    async (_key, limit) => {
      let spenderRequests = 0;
      const secondAsked: string[] = [];
      const scenario: ChatScenario = (request) => {
        if (depthOf(request) === 1) {
          if (userText(request).startsWith("second")) {
            secondAsked.push(userText(request));
            return { content: "second done" };
          }
          spenderRequests += 1;
          return {
            toolCalls: [
              {
                name: "list_directory",
                arguments: { path: ".", pattern: "*".repeat(spenderRequests) },
              },
            ],
          };
        }
        if (hasToolResult(request)) return { content: "never asked: the tree is stopped" };
        return {
          toolCalls: [
            {
              name: "parallel_subagent",
              arguments: {
                tasks: [
                  { label: "spender", task_prompt: "list forever" },
                  { label: "second", task_prompt: "second task" },
                ],
                max_concurrent: 1,
              },
            },
          ],
        };
      };
      const agent = await start(scenario, {
        ...("quota" in limit ? { quota: limit.quota } : {}),
        subagent: { default_max_turns: 40, ...("subagent" in limit ? limit.subagent : {}) },
      });
      const events: AgentEvent[] = [];
      const result = await agent.run("delegate twice", { onEvent: (event) => events.push(event) });
      // The spender crossed the budget: the whole tree stops, the top-level run included,
      // which does not ask its model again.
      expect(result.stopReason).toBe("quota");
      expect(result.text).not.toContain("never asked");
      expect(spenderRequests).toBeGreaterThan(0);
      // Reserving the second child is refused: it never asks its model.
      expect(secondAsked).toEqual([]);
      expect(result.quota).toMatchObject({ budget: "tokens", limit: 1500 });
      const started = events.filter((event) => event.type === "subagent-started");
      expect(started.map((event) => event.label)).toEqual(["spender"]);
      expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
        label: "spender",
        stopReason: "quota",
        error: expect.stringMatching(
          /^Stopped: the run's quota of 1500 tokens is used up \(\d+ used; agent\.quota\.max_total_tokens\)\.$/,
        ),
      });
    },
  );

  it("stops the tree at the tool call that passes agent.quota.max_total_tool_calls, before it runs", async () => {
    let childRequests = 0;
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        childRequests += 1;
        return {
          toolCalls: [
            { name: "read_file", arguments: { path: "notes.txt", offset: childRequests } },
          ],
        };
      }
      return hasToolResult(request)
        ? { content: "never asked: the tree is stopped" }
        : {
            toolCalls: [
              { name: "subagent", arguments: { label: "reader", task_prompt: "read forever" } },
            ],
          };
    };
    const agent = await start(scenario, {
      quota: { max_total_tool_calls: 3 },
      subagent: { default_max_turns: 40 },
    });
    const events: AgentEvent[] = [];
    const result = await agent.run("delegate", { onEvent: (event) => events.push(event) });
    expect(result.stopReason).toBe("quota");
    expect(result.quota).toMatchObject({
      budget: "tool-calls",
      limit: 3,
      used: 4,
      key: "agent.quota.max_total_tool_calls",
    });
    // The top-level subagent call and the child's first two reads ran; the third read, the
    // tree's fourth call, was asked for and never ran.
    expect(childRequests).toBe(3);
    const reads = events.filter((event) => event.type === "tool-call-requested");
    expect(reads.map((event) => event.toolName)).toEqual(["subagent"]);
    expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
      stopReason: "quota",
      error:
        "Stopped: the run's quota of 3 tool calls is used up (4 asked for; agent.quota.max_total_tool_calls).",
    });
    expect(topLevelRequests()).toHaveLength(1);
  });

  it("binds a run that may delegate, not a run without the delegation tools", async () => {
    // Two model requests, a tool call between them: far more tokens than the quota of 10.
    const scenario: ChatScenario = (request) =>
      hasToolResult(request)
        ? { content: "listed" }
        : { toolCalls: [{ name: "list_directory", arguments: { path: "." } }] };
    const delegating = await start(scenario, { quota: { max_total_tokens: 10 } });
    expect((await delegating.run("list")).stopReason).toBe("quota");
    await delegating.close();
    await server?.close();
    const plain = await start(scenario, { quota: { max_total_tokens: 10 } }, [], {
      subagents: false,
    });
    const result = await plain.run("list");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("listed");
  });

  it("reads agent.subagent.max_executions (its older name) before agent.quota.max_executions", async () => {
    let childRequests = 0;
    const scenario: ChatScenario = (request, index) => {
      if (depthOf(request) === 1) {
        childRequests += 1;
        return { content: "child done" };
      }
      if (index > 4) return { content: toolResults(request).join("\n---\n") };
      return {
        toolCalls: [
          { name: "subagent", arguments: { label: `c${index}`, task_prompt: `task ${index}` } },
        ],
      };
    };
    const agent = await start(scenario, {
      quota: { max_executions: 5 },
      subagent: { max_executions: 1 },
    });
    const result = await agent.run("delegate many");
    expect(result.stopReason).toBe("completed");
    expect(childRequests).toBe(1);
    expect(result.text).toContain(
      "Not started: the run's quota of 1 subagent executions is used up",
    );
  });

  it.each([
    ["agent.quota.max_total_time_seconds", { quota: { max_total_time_seconds: 1 } }],
    ["agent.subagent.max_total_time (its older name)", { subagent: { max_total_time: 1 } }],
  ])("stops a running child and the top-level run when %s is up", async (_key, limit) => {
    const asked: string[] = [];
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        asked.push(userText(request).split("\n")[0] ?? "");
        return { fault: { kind: "stall", afterChunks: 1 } };
      }
      const results = toolResults(request);
      if (results.length === 2) return { content: results.join("\n---\n") };
      const label = results.length === 0 ? "slow" : "late";
      return {
        toolCalls: [{ name: "subagent", arguments: { label, task_prompt: `${label} task` } }],
      };
    };
    const agent = await start(scenario, limit);
    const events: AgentEvent[] = [];
    const result = await agent.run("delegate slowly", { onEvent: (event) => events.push(event) });
    // The tree's time bounds every agent of it: the child and the top-level run stop.
    expect(result.stopReason).toBe("quota");
    expect(result.quota).toMatchObject({
      budget: "time",
      limit: 1,
      key: "agent.quota.max_total_time_seconds",
    });
    expect(asked).toEqual(["slow task"]);
    expect(events.find((event) => event.type === "subagent-finished")).toMatchObject({
      label: "slow",
      stopReason: "quota",
      error: "Stopped: the run's quota of 1 s is used up (agent.quota.max_total_time_seconds).",
    });
    // No second child: the top-level model was not asked again.
    expect(topLevelRequests()).toHaveLength(1);
  });
});

describe("what a child returns", () => {
  it("caps the child's answer at agent.subagent.output_max_size", async () => {
    const long = Array.from({ length: 600 }, (_, index) => `w${index % 10}`).join(" ");
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) return { content: long };
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : {
            toolCalls: [{ name: "subagent", arguments: { label: "talker", task_prompt: "talk" } }],
          };
    };
    const agent = await start(scenario, { subagent: { output_max_size: 1024 } });
    const result = await agent.run("delegate");
    expect(result.stopReason).toBe("completed");
    const [header, ...rest] = result.text.split("\n");
    expect(header).toMatch(/^\[subagent "talker" completed: 1 turns/);
    const body = rest.join("\n");
    expect(body.endsWith("\n... (truncated)")).toBe(true);
    expect(Buffer.byteLength(body, "utf8")).toBeLessThanOrEqual(1024);
    expect(body.startsWith(long.slice(0, 900))).toBe(true);
  });
});

describe("the children's provider and model", () => {
  it("sends a child's requests to agent.subagent.model", async () => {
    const models: [number, string][] = [];
    const scenario: ChatScenario = (request) => {
      models.push([depthOf(request), request.model]);
      if (depthOf(request) === 1) return { content: "child answer" };
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : { toolCalls: [{ name: "subagent", arguments: { label: "m", task_prompt: "answer" } }] };
    };
    const agent = await start(scenario, { subagent: { model: "scripted-child" } });
    const result = await agent.run("delegate");
    expect(result.text).toContain("child answer");
    expect(models).toEqual([
      [0, "scripted-1"],
      [1, "scripted-child"],
      [0, "scripted-1"],
    ]);
  });

  it("sends a child's requests to agent.subagent.provider, another server than the parent's", async () => {
    const childRequests: OllamaChatRequest[] = [];
    ollama = await startScriptedOllama({
      scenario: (request) => {
        childRequests.push(request);
        return { content: "answered by the other provider" };
      },
    });
    const parentDepths: number[] = [];
    const scenario: ChatScenario = (request) => {
      parentDepths.push(depthOf(request));
      return hasToolResult(request)
        ? { content: lastTool(request) }
        : { toolCalls: [{ name: "subagent", arguments: { label: "o", task_prompt: "answer" } }] };
    };
    // Observers (telemetry among them) are told the provider and model the child runs on.
    const observed: unknown[] = [];
    const agent = await start(scenario, { subagent: { provider: "ollama" } }, [], {
      provider: { ollama: { host: ollama.url } },
      observeSubagent: (child) => {
        observed.push(child);
        return undefined;
      },
    });
    const result = await agent.run("delegate");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toContain("answered by the other provider");
    // The parent's server saw only the top-level agent; the child went to Ollama.
    expect(parentDepths).toEqual([0, 0]);
    expect(childRequests).toHaveLength(1);
    expect(childRequests[0]?.model).toBe("llama3.2:latest");
    expect(observed).toEqual([
      expect.objectContaining({
        label: "o",
        depth: 1,
        provider: "ollama",
        model: "llama3.2:latest",
      }),
    ]);
    expect(childRequests[0]?.messages.find((m) => m.role === "system")?.content).toContain(
      "You are a subagent (depth 1)",
    );
  });
});

describe("a planning-mode parent", () => {
  it("gives its children no write tool: naming one is refused, calling one fails", async () => {
    const childTools: string[][] = [];
    let parentTools: string[] = [];
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) {
        childTools.push(request.tools);
        return hasToolResult(request)
          ? { content: `child saw: ${lastTool(request)}` }
          : { toolCalls: [{ name: "write_file", arguments: { path: "x.txt", content: "x" } }] };
      }
      parentTools = request.tools;
      const results = toolResults(request);
      if (results.length === 2) return { content: results.join("\n---\n") };
      return {
        toolCalls: [
          {
            name: "subagent",
            arguments:
              results.length === 0
                ? { label: "writer", task_prompt: "Write x.txt", allowed_tools: ["write_file"] }
                : { label: "planner", task_prompt: "Write x.txt" },
          },
        ],
      };
    };
    const agent = await start(scenario, {}, [], {
      modes: { chatMode: "planning", approvalPolicy: "never" },
    });
    const result = await agent.run("plan and delegate");
    const [named, called] = result.text.split("\n---\n");
    expect(named).toContain("allowed_tools names tools you do not have: write_file");
    expect(called).toContain("There is no tool named 'write_file'");
    expect(parentTools).not.toContain("write_file");
    expect(childTools.length).toBeGreaterThan(0);
    for (const tools of childTools) {
      expect(tools).not.toContain("write_file");
      expect(tools).not.toContain("terminal");
      for (const name of tools) expect(parentTools).toContain(name);
    }
    await expect(
      import("node:fs/promises").then((fs) => fs.stat(path.join(workspace, "x.txt"))),
    ).rejects.toThrow();
  });
});

describe("a parent that hits its own limit", () => {
  it("cancels its running children on its timeout; each ends as stopped, not running", async () => {
    const events: AgentEvent[] = [];
    const scenario: ChatScenario = (request) => {
      if (depthOf(request) === 1) return { fault: { kind: "stall", afterChunks: 1 } };
      return {
        toolCalls: [
          {
            name: "parallel_subagent",
            arguments: {
              tasks: [1, 2].map((n) => ({ label: `waiter-${n}`, task_prompt: `wait ${n}` })),
            },
          },
        ],
      };
    };
    const agent = await start(scenario, {}, events, { limits: { timeoutMs: 1500 } });
    const result = await agent.run("fan out and wait");
    expect(result.stopReason).toBe("timeout");
    const finished = events.filter((event) => event.type === "subagent-finished");
    expect(finished.map((event) => [event.label, event.stopReason]).sort()).toEqual([
      ["waiter-1", "timeout"],
      ["waiter-2", "timeout"],
    ]);
    expect((await storedChildren(agent)).sort()).toEqual([
      ["waiter-1", "stopped"],
      ["waiter-2", "stopped"],
    ]);
  });
});
