// One pass per tool call: the input is parsed from JSON once and validated once, `assess`
// judges that very value, and `execute` receives it with the judgement (verdict and facts)
// in its context. The zod schema of a tool given as a loader is loaded on its first call.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { scriptedModel } from "@xzatoma/scripted-servers/replies-model";
import { Agent } from "./agent.js";
import { defineTool, type ToolAssessment, type ToolExecutionContext } from "./tool.js";
import { createToolRegistry, type ApprovalRequest } from "./tool-registry.js";
import { toolSuccess } from "./tool-result.js";

const signal = new AbortController().signal;

/** A tool whose schema counts its parses and whose execution reports what it was given. */
function countingTool() {
  const counts = { parses: 0, loads: 0 };
  const seen: { input: unknown; context: ToolExecutionContext<{ token: string }> }[] = [];
  const assessed: unknown[] = [];
  const tool = defineTool({
    name: "note",
    description: "Writes a note.",
    modelInputSchema: { type: "object", properties: { text: { type: "string" } } },
    loadInputSchema: async () => {
      counts.loads += 1;
      return z
        .object({ text: z.string() })
        .strict()
        .transform((value) => {
          counts.parses += 1;
          return { ...value };
        });
    },
    access: "write",
    assess(input): ToolAssessment<{ token: string }> {
      assessed.push(input);
      return {
        verdict: "confirm",
        reason: "writes a note",
        summary: `note ${input.text}`,
        facts: { token: `judged ${input.text}` },
      };
    },
    async execute(input, context) {
      seen.push({ input, context });
      return toolSuccess(`${context.assessment?.verdict}: ${context.assessment?.facts?.token}`);
    },
  });
  return { tool, counts, seen, assessed };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("one pass per tool call", () => {
  it("validates a call once, and execute receives the judged value and the judgement's facts", async () => {
    const { tool, counts, seen, assessed } = countingTool();
    const registry = createToolRegistry();
    registry.register(tool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "note", input: JSON.stringify({ text: "hi" }) },
      { signal, approve: () => ({ approved: true }) },
    );
    expect(result.output).toBe("confirm: judged hi");
    expect(counts.parses).toBe(1);
    expect(seen[0]?.input).toBe(assessed[0]);
    expect(seen[0]?.context.assessment).toMatchObject({
      verdict: "confirm",
      reason: "writes a note",
      facts: { token: "judged hi" },
    });
  });

  it("loads a tool's zod schema on its first call, not to offer it, and once", async () => {
    const { tool, counts } = countingTool();
    const registry = createToolRegistry();
    registry.register(tool);
    expect(registry.specifications()[0]?.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
    });
    expect(counts.loads).toBe(0);
    for (const id of ["1", "2"]) {
      await registry.execute(
        { toolCallId: id, toolName: "note", input: JSON.stringify({ text: id }) },
        { signal, approve: () => ({ approved: true }) },
      );
    }
    expect(counts.loads).toBe(1);
    expect(counts.parses).toBe(2);
  });

  it("runs an input edited in the approval with the edit's own judgement, not the first", async () => {
    const { tool, seen } = countingTool();
    const registry = createToolRegistry();
    registry.register(tool);
    const result = await registry.execute(
      { toolCallId: "1", toolName: "note", input: JSON.stringify({ text: "draft" }) },
      { signal, approve: () => ({ approved: true, editedInput: { text: "final" } }) },
    );
    expect(result.output).toBe("confirm: judged final");
    expect(seen[0]?.input).toEqual({ text: "final" });
  });

  it("asks about, audits and runs the input a judgement replaced", async () => {
    const requests: ApprovalRequest[] = [];
    const subjects: string[] = [];
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "shell",
        description: "Runs a command.",
        inputSchema: z.object({ command: z.string() }).strict(),
        access: "execute",
        // What a PreToolUse hook does: the call runs with the input it rewrote.
        assess: () => ({ verdict: "confirm", reason: "runs it", input: { command: "ls -l" } }),
        execute: async ({ command }) => toolSuccess(`ran ${command}`),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "shell", input: JSON.stringify({ command: "rm -rf x" }) },
      {
        signal,
        approve: (request) => {
          requests.push(request);
          return { approved: true };
        },
        audit: (entry) => {
          if (entry.kind === "decision") subjects.push(entry.subject);
        },
      },
    );
    expect(result.output).toBe("ran ls -l");
    expect(requests[0]?.input).toEqual({ command: "ls -l" });
    expect(subjects).toEqual([JSON.stringify({ command: "ls -l" })]);
  });

  it("gives execute no judgement it did not make: a failing assess blocks", async () => {
    let ran = false;
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "risky",
        description: "",
        inputSchema: z.object({}).strict(),
        access: "write",
        assess: () => {
          throw new Error("policy unavailable");
        },
        execute: async () => {
          ran = true;
          return toolSuccess("ran");
        },
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "risky", input: "{}" },
      { signal, approve: () => ({ approved: true }) },
    );
    expect(result.error).toMatch(/^Refused: the safety check failed: policy unavailable/);
    expect(ran).toBe(false);
  });

  it("reports a schema that fails to load as the call's failure", async () => {
    const registry = createToolRegistry();
    registry.register(
      defineTool({
        name: "broken",
        description: "",
        modelInputSchema: { type: "object" },
        loadInputSchema: () => Promise.reject(new Error("module missing")),
        access: "read",
        execute: async () => toolSuccess("ran"),
      }),
    );
    const result = await registry.execute(
      { toolCallId: "1", toolName: "broken", input: "{}" },
      { signal },
    );
    expect(result).toMatchObject({ success: false });
    expect(result.error).toBe("'broken' could not load its input schema: module missing");
  });

  it("parses a model's tool call from JSON once on its way from the response to execute", async () => {
    const { tool, counts, seen } = countingTool();
    const arguments_ = JSON.stringify({ text: "from the model" });
    const parse = vi.spyOn(JSON, "parse");
    const model = scriptedModel((call) =>
      call === 0 ? { toolCalls: [{ name: "note", input: arguments_ }] } : { text: "done" },
    );
    const result = await new Agent({
      model,
      tools: [tool],
      approve: () => ({ approved: true }),
    }).run("go");
    expect(result.stopReason).toBe("completed");
    expect(seen[0]?.input).toEqual({ text: "from the model" });
    // Serialised again and parsed again, the same text would be parsed twice.
    expect(parse.mock.calls.filter(([text]) => text === arguments_)).toHaveLength(1);
    expect(counts.parses).toBe(1);
  });
});
