import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replies, scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import type { AgentEvent } from "./agent-event.js";
import { isLimitStop } from "./agent-limits.js";
import { Agent } from "./agent.js";
import { defineTool } from "./tool.js";
import { toolSuccess } from "./tool-result.js";

const echo = defineTool({
  name: "echo",
  description: "Repeats text.",
  inputSchema: z.object({ text: z.string() }).strict(),
  access: "read",
  execute: async ({ text }) => toolSuccess(`echo: ${text}`),
});

const boom = defineTool({
  name: "boom",
  description: "Always fails.",
  inputSchema: z.object({}).strict(),
  access: "read",
  execute: async () => {
    throw new Error("disk on fire");
  },
});

const remove = defineTool({
  name: "remove",
  description: "Deletes something.",
  inputSchema: z.object({ path: z.string() }).strict(),
  access: "write",
  execute: async ({ path }) => toolSuccess(`removed ${path}`),
});

/** The text of the last tool message the model was sent. */
function lastToolText(prompt: LanguageModelV4Prompt): string {
  const message = prompt.findLast((entry) => entry.role === "tool");
  const part = message?.role === "tool" ? message.content[0] : undefined;
  if (part?.type !== "tool-result") return "";
  const output = part.output;
  return output.type === "text" || output.type === "error-text" ? output.value : "";
}

function collect(): { events: AgentEvent[]; onEvent: (event: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

describe("Agent loop", () => {
  it("returns the final answer with usage totals", async () => {
    const agent = new Agent({ model: replies({ text: "All done." }) });
    const result = await agent.run("hello");
    expect(result).toMatchObject({
      stopReason: "completed",
      text: "All done.",
      turns: 1,
      toolCalls: 0,
    });
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  });

  it("runs a tool call, feeds the result back and finishes", async () => {
    const seen: string[] = [];
    const model = scriptedModel((call, options) => {
      if (call === 0) return { toolCalls: [{ name: "echo", input: { text: "hi" } }] };
      seen.push(lastToolText(options.prompt));
      return { text: "The tool said hi." };
    });
    const { events, onEvent } = collect();
    const result = await new Agent({ model, tools: [echo], systemPrompt: "be brief" }).run("go", {
      onEvent,
    });
    expect(result).toMatchObject({ stopReason: "completed", turns: 2, toolCalls: 1 });
    expect(seen).toEqual(["echo: hi"]);
    expect(model.doStreamCalls[0]?.prompt[0]).toEqual({ role: "system", content: "be brief" });
    expect(model.doStreamCalls[0]?.tools?.map((tool) => tool.name)).toEqual(["echo"]);
    expect(events.map((event) => event.type)).toEqual([
      "run-started",
      "turn-started",
      "usage",
      "tool-call-requested",
      "tool-result",
      "turn-started",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-delta",
      "usage",
      "finished",
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "finished",
      stopReason: "completed",
      usage: { totalTokens: 30 },
    });
  });

  it.each([
    ["a thrown tool error", { name: "boom", input: {} }, "Error: 'boom' failed: disk on fire"],
    [
      "invalid tool input",
      { name: "echo", input: { text: 42 } },
      "Error: Invalid input for 'echo': text:",
    ],
    [
      "input that is not JSON",
      { name: "echo", input: "{not json" },
      "Error: The arguments for 'echo' are not valid JSON",
    ],
    [
      "an unknown tool name",
      { name: "rm_rf", input: {} },
      "Error: There is no tool named 'rm_rf'. Available tools: echo, boom",
    ],
  ])("feeds %s back to the model, which recovers", async (_label, call, expected) => {
    const seen: string[] = [];
    const model = scriptedModel((index, options) => {
      if (index === 0) return { toolCalls: [call] };
      seen.push(lastToolText(options.prompt));
      return { text: "recovered" };
    });
    const result = await new Agent({ model, tools: [echo, boom] }).run("go");
    expect(result.stopReason).toBe("completed");
    expect(seen[0]).toContain(expected);
  });

  it("stops at maxTurns when the model never stops calling tools", async () => {
    const model = replies({
      text: "working",
      toolCalls: [{ name: "echo", input: { text: "again" } }],
    });
    const result = await new Agent({ model, tools: [echo], limits: { maxTurns: 3 } }).run("loop");
    expect(result).toMatchObject({
      stopReason: "max-turns",
      turns: 3,
      toolCalls: 3,
      text: "working",
    });
    expect(model.doStreamCalls).toHaveLength(3);
  });

  it("stops at the wall-clock timeout, aborting the model request", async () => {
    const model = replies({ hang: true });
    const result = await new Agent({ model, limits: { timeoutMs: 50 } }).run("wait");
    expect(result.stopReason).toBe("timeout");
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
  });

  it("stops when the tool-call budget is used up, without running the extra calls", async () => {
    let executed = 0;
    const counted = defineTool({
      name: "count",
      description: "Counts.",
      inputSchema: z.object({}),
      access: "read",
      execute: async () => toolSuccess(String(++executed)),
    });
    const model = replies({ toolCalls: [{ name: "count", input: {} }] });
    const result = await new Agent({ model, tools: [counted], limits: { maxToolCalls: 2 } }).run(
      "go",
    );
    expect(result).toMatchObject({ stopReason: "tool-budget", toolCalls: 2 });
    expect(executed).toBe(2);
  });

  it("stops when one response asks for too many tool calls", async () => {
    const calls = [1, 2, 3].map((n) => ({ name: "echo", input: { text: String(n) } }));
    const agent = new Agent({
      model: replies({ toolCalls: calls }),
      tools: [echo],
      limits: { maxToolCallsPerStep: 2 },
    });
    const result = await agent.run("go");
    expect(result).toMatchObject({ stopReason: "tool-calls-per-step", toolCalls: 0 });
    expect(agent.messages.filter((message) => message.role === "tool")).toHaveLength(3);
  });

  it("stops with 'aborted' when the caller's signal fires during a tool call", async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: "slow",
      description: "Waits.",
      inputSchema: z.object({}),
      access: "read",
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener("abort", () => reject(new Error("cancelled")));
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const model = replies({ toolCalls: [{ name: "slow", input: {} }] });
    const result = await new Agent({ model, tools: [slow] }).run("go", {
      signal: controller.signal,
    });
    expect(result.stopReason).toBe("aborted");
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it("refuses a write tool when no approval handler exists, and runs it when approved", async () => {
    const script = () =>
      scriptedModel((index, options) =>
        index === 0
          ? { toolCalls: [{ name: "remove", input: { path: "a.txt" } }] }
          : { text: lastToolText(options.prompt) },
      );
    const refused = await new Agent({ model: script(), tools: [remove] }).run("go");
    expect(refused.text).toContain("was not approved (no one is available to approve it)");

    const { events, onEvent } = collect();
    const approved = await new Agent({
      model: script(),
      tools: [remove],
      approve: () => ({ approved: true }),
    }).run("go", {
      onEvent,
    });
    expect(approved.text).toBe("removed a.txt");
    expect(events.map((event) => event.type)).toContain("approval-requested");
    expect(events.find((event) => event.type === "approval-answered")).toMatchObject({
      approved: true,
    });
  });

  it("treats an approval handler that throws as a refusal", async () => {
    const model = scriptedModel((index, options) =>
      index === 0
        ? { toolCalls: [{ name: "remove", input: { path: "a" } }] }
        : { text: lastToolText(options.prompt) },
    );
    const approve = () => {
      throw new Error("terminal closed");
    };
    const result = await new Agent({ model, tools: [remove], approve }).run("go");
    expect(result.text).toContain("approval failed: terminal closed");
  });

  it("ends with stop reason 'error' and a coded error when the model stream fails", async () => {
    const { events, onEvent } = collect();
    const result = await new Agent({ model: replies({ error: "model exploded" }) }).run("go", {
      onEvent,
    });
    expect(result.stopReason).toBe("error");
    expect(result.error).toEqual({
      code: "PROVIDER_ERROR",
      message: "The model stream failed: model exploded",
    });
    expect(events.map((event) => event.type)).toEqual([
      "run-started",
      "turn-started",
      "error",
      "finished",
    ]);
  });

  it("continues the conversation across runs and yields events from stream()", async () => {
    const model = scriptedModel((index) => ({ text: `answer ${index}` }));
    const agent = new Agent({ model });
    await agent.run("first");
    const generator = agent.stream("second");
    const types: string[] = [];
    let next = await generator.next();
    while (!next.done) {
      types.push(next.value.type);
      next = await generator.next();
    }
    expect(next.value.text).toBe("answer 1");
    expect(types.at(0)).toBe("run-started");
    expect(types.at(-1)).toBe("finished");
    expect(agent.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(model.doStreamCalls[1]?.prompt).toHaveLength(3);
  });

  it("rejects invalid limits and empty input", async () => {
    expect(() => new Agent({ model: replies({ text: "x" }), limits: { maxTurns: 0 } })).toThrow(
      /maxTurns/,
    );
    await expect(new Agent({ model: replies({ text: "x" }) }).run("  ")).rejects.toThrow(/empty/);
  });
});

describe("Agent loop detection", () => {
  const read = defineTool({
    name: "read_file",
    description: "Reads a file.",
    inputSchema: z.object({ path: z.string(), offset: z.number().optional() }).strict(),
    access: "read",
    execute: async ({ path }) => toolSuccess(`contents of ${path}`),
  });

  /** The tool results of the agent's conversation, as the model was sent them. */
  const toolTexts = (agent: Agent) =>
    agent.messages.flatMap((message) => (message.role === "tool" ? [message.content] : []));

  it("lets the model read 30 different files in a row without a word, then answer", async () => {
    const model = scriptedModel((index) =>
      index < 30
        ? { toolCalls: [{ name: "read_file", input: { path: `src/file${index}.ts` } }] }
        : { text: "Read them all." },
    );
    const result = await new Agent({ model, tools: [read] }).run("read the sources");
    expect(result).toMatchObject({
      stopReason: "completed",
      toolCalls: 30,
      turns: 31,
      text: "Read them all.",
    });
  });

  it("stops a model that keeps making the same call, without running it a fourth time", async () => {
    let executed = 0;
    const counted = defineTool({
      name: "list_directory",
      description: "Lists a directory.",
      inputSchema: z.object({ path: z.string() }).strict(),
      access: "read",
      execute: async () => toolSuccess(`entry ${++executed}`),
    });
    const model = replies({
      text: "Let me look again.",
      toolCalls: [{ name: "list_directory", input: { path: "." } }],
    });
    const agent = new Agent({ model, tools: [counted] });
    const result = await agent.run("what is here?");
    expect(result).toMatchObject({
      stopReason: "repeated-tool-calls",
      toolCalls: 3,
      turns: 4,
      text: "Let me look again.",
    });
    expect(isLimitStop(result.stopReason)).toBe(true);
    expect(executed).toBe(3);
    expect(toolTexts(agent).at(-1)).toBe(
      "Error: not executed: 'list_directory' was already called with the same arguments 3 times in a row, so the run stops here.",
    );
  });

  it("counts the same arguments in another key order as the same call", async () => {
    const orders = ['{"path":"a.ts","offset":1}', '{"offset":1,"path":"a.ts"}'];
    const model = scriptedModel((index) => ({
      toolCalls: [{ name: "read_file", input: orders[index % 2] }],
    }));
    const result = await new Agent({ model, tools: [read] }).run("go");
    expect(result).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 3, turns: 4 });
  });

  it("stops a model that alternates between the same two calls", async () => {
    const model = scriptedModel((index) => ({
      toolCalls: [{ name: "read_file", input: { path: index % 2 === 0 ? "a.ts" : "b.ts" } }],
    }));
    const agent = new Agent({ model, tools: [read] });
    const result = await agent.run("go");
    expect(result).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 6, turns: 7 });
    expect(toolTexts(agent).at(-1)).toContain(
      "the same 2 calls were already made 3 times in a row",
    );
  });

  it("lets the model re-read a file after each change to it", async () => {
    const model = scriptedModel((index) => {
      if (index >= 10) return { text: "Fixed." };
      return index % 2 === 0
        ? { toolCalls: [{ name: "read_file", input: { path: "a.ts" } }] }
        : { toolCalls: [{ name: "remove", input: { path: `line ${index}` } }] };
    });
    const result = await new Agent({
      model,
      tools: [read, remove],
      approve: () => ({ approved: true }),
    }).run("fix a.ts");
    expect(result).toMatchObject({ stopReason: "completed", toolCalls: 10 });
  });

  it("takes maxRepeatedToolCalls as how often the same call may run in a row", async () => {
    const model = replies({ toolCalls: [{ name: "echo", input: { text: "x" } }] });
    const result = await new Agent({
      model,
      tools: [echo],
      limits: { maxRepeatedToolCalls: 1 },
    }).run("go");
    expect(result).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 1, turns: 2 });
  });

  it("runs none of the calls of a response that repeats one, and answers them all", async () => {
    const model = scriptedModel((index) =>
      index < 3
        ? { toolCalls: [{ name: "echo", input: { text: "same" } }] }
        : {
            toolCalls: [
              { name: "echo", input: { text: "same" } },
              { name: "echo", input: { text: "new" } },
            ],
          },
    );
    const agent = new Agent({ model, tools: [echo] });
    const result = await agent.run("go");
    expect(result).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 3 });
    expect(toolTexts(agent).slice(-2)).toEqual([
      expect.stringContaining("Error: not executed"),
      expect.stringContaining("Error: not executed"),
    ]);
  });

  it("starts every run with a clean slate, and a stopped run leaves a conversation the next one can use", async () => {
    const model = scriptedModel((index, options) =>
      index === 8
        ? {
            text: `answered after ${options.prompt.filter((m) => m.role === "tool").length} results`,
          }
        : { toolCalls: [{ name: "echo", input: { text: "x" } }] },
    );
    const agent = new Agent({ model, tools: [echo] });
    const first = await agent.run("go");
    expect(first).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 3, turns: 4 });
    const second = await agent.run("go on");
    expect(second).toMatchObject({ stopReason: "repeated-tool-calls", toolCalls: 3, turns: 4 });
    const third = await agent.run("answer now");
    expect(third).toMatchObject({ stopReason: "completed", text: "answered after 8 results" });
  });
});

describe("Agent runs", () => {
  it("refuses a second run while one is in progress, and runs again once it ended", async () => {
    const controller = new AbortController();
    const model = scriptedModel((index) => (index === 0 ? { hang: true } : { text: "again" }));
    const agent = new Agent({ model });
    const first = agent.run("wait", { signal: controller.signal });
    await expect(agent.run("meanwhile")).rejects.toThrow(/already running/);
    controller.abort();
    expect((await first).stopReason).toBe("aborted");
    expect(await agent.run("now")).toMatchObject({ stopReason: "completed", text: "again" });
  });
});
