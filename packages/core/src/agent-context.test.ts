import { describe, expect, it } from "vitest";
import { z } from "zod";
import { replies, scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import type { AgentEvent } from "./agent-event.js";
import { Agent } from "./agent.js";
import { defineTool } from "./tool.js";
import { toolSuccess } from "./tool-result.js";

const big = defineTool({
  name: "read_big",
  description: "Returns a lot of text.",
  inputSchema: z.object({ path: z.string() }).strict(),
  access: "read",
  execute: async ({ path }) => toolSuccess(`${path}: ${"lorem ipsum ".repeat(200)}`),
});

describe("Agent context management", () => {
  it("prunes old tool exchanges in a long run, keeps calls with their results, and keeps history", async () => {
    let step = 0;
    const model = scriptedModel((index) =>
      index < 30
        ? {
            text: `step ${++step}`,
            toolCalls: [{ name: "read_big", input: { path: `f${index}.txt` } }],
          }
        : { text: "done" },
    );
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model,
      tools: [big],
      systemPrompt: "system prompt",
      limits: { maxTurns: 40 },
      context: { maxTokens: 4000, minRetainTurns: 1 },
    });
    const result = await agent.run("read many files", { onEvent: (event) => events.push(event) });
    expect(result.stopReason).toBe("completed");
    expect(events.some((event) => event.type === "context-pruned")).toBe(true);
    for (const call of model.doStreamCalls) {
      const prompt = call.prompt;
      expect(prompt[0]).toEqual({ role: "system", content: "system prompt" });
      const callIds = new Set(
        prompt.flatMap((message) =>
          message.role === "assistant"
            ? message.content
                .filter((part) => part.type === "tool-call")
                .map((part) => part.toolCallId)
            : [],
        ),
      );
      const resultIds = prompt.flatMap((message) =>
        message.role === "tool"
          ? message.content.map((part) => (part.type === "tool-result" ? part.toolCallId : ""))
          : [],
      );
      expect(resultIds.every((id) => callIds.has(id))).toBe(true);
      expect([...callIds].every((id) => resultIds.includes(id))).toBe(true);
    }
    expect(agent.messages.filter((message) => message.role === "tool")).toHaveLength(30);
    expect(agent.conversation.status().ratio).toBeLessThan(1);
  });

  it("lets the model write the summary of pruned context on request", async () => {
    const model = scriptedModel((index) =>
      index < 6
        ? { toolCalls: [{ name: "read_big", input: { path: `f${index}` } }], text: "reading" }
        : { text: "The user read six files." },
    );
    const agent = new Agent({
      model,
      tools: [big],
      limits: { maxTurns: 10 },
      context: { maxTokens: 3000, pruneThreshold: false },
    });
    await agent.run("go");
    const summary = await agent.summarizeContext();
    expect(summary).toContain("written by the model");
    expect(summary).toContain("The user read six files.");
  });

  it("reports context levels as they are crossed", async () => {
    const events: AgentEvent[] = [];
    const agent = new Agent({
      model: replies({ text: "x".repeat(800) }),
      context: {
        maxTokens: 200,
        pruneThreshold: false,
        warningThreshold: 0.5,
        criticalThreshold: 0.9,
      },
    });
    await agent.run("hello", { onEvent: (event) => events.push(event) });
    const levels = events.flatMap((event) =>
      event.type === "context-status" ? [event.level] : [],
    );
    expect(levels).toContain("critical");
  });
});
