import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "./agent-event.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, isLimitStop } from "./agent-limits.js";
import { Agent } from "./agent.js";
import { ProviderError, XzatomaError } from "./errors.js";
import { defineTool } from "./tool.js";
import { toolSuccess } from "./tool-result.js";

const usage = {
  inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: undefined, reasoning: undefined },
};

/** One scripted response: text, tool calls with raw JSON input, how it finished, or a failure. */
interface Reply {
  readonly text?: string;
  readonly calls?: readonly { readonly name: string; readonly input: string }[];
  readonly finish?: "stop" | "length" | "tool-calls";
  /** Thrown by doStream before any part. */
  readonly reject?: Error;
  /** Sent as an error part after the text. */
  readonly fail?: Error;
}

function partsOf(reply: Reply, call: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const word of reply.text?.split(/(?<= )/) ?? [])
    parts.push({ type: "text-delta", id: "t", delta: word });
  if (reply.fail) return [...parts, { type: "error", error: reply.fail }];
  (reply.calls ?? []).forEach((toolCall, index) =>
    parts.push({
      type: "tool-call",
      toolCallId: `call-${call}-${index}`,
      toolName: toolCall.name,
      input: toolCall.input,
    }),
  );
  const finish = reply.finish ?? (reply.calls ? "tool-calls" : "stop");
  parts.push({ type: "finish", usage, finishReason: { unified: finish, raw: finish } });
  return parts;
}

/** A model that answers request n with `script(n)`. */
function model(script: (call: number) => Reply) {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const reply = script(calls);
      const parts = partsOf(reply, calls);
      calls += 1;
      if (reply.reject) throw reply.reject;
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

const written: string[] = [];
const write = defineTool({
  name: "write_file",
  description: "Writes a file.",
  inputSchema: z.object({ path: z.string(), content: z.string() }).strict(),
  access: "read",
  execute: async ({ path }) => {
    written.push(path);
    return toolSuccess(`wrote ${path}`);
  },
});

const contextFull = () =>
  new XzatomaError("CONTEXT_LENGTH_EXCEEDED", "The conversation does not fit the model's window.");

function collect(): { events: AgentEvent[]; onEvent: (event: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event) => events.push(event) };
}

describe("Agent at the model's limits", () => {
  it("ends with 'length' and the text so far when a response hits the output cap", async () => {
    const { events, onEvent } = collect();
    const result = await new Agent({
      model: model(() => ({ text: "The answer is a long list: one, two", finish: "length" })),
    }).run("list everything", { onEvent });
    expect(result).toMatchObject({
      stopReason: "length",
      text: "The answer is a long list: one, two",
      turns: 1,
    });
    expect(result.error).toBeUndefined();
    expect(isLimitStop(result.stopReason)).toBe(true);
    expect(events.map((event) => event.type)).not.toContain("error");
    expect(events.at(-1)).toMatchObject({ type: "finished", stopReason: "length" });
  });

  it("ends with 'length' when the provider says the conversation no longer fits", async () => {
    const script = model((call) =>
      call === 0
        ? { calls: [{ name: "write_file", input: '{"path":"a","content":"x"}' }], text: "Writing." }
        : { reject: contextFull() },
    );
    const { events, onEvent } = collect();
    const result = await new Agent({ model: script, tools: [write] }).run("go", { onEvent });
    expect(result).toMatchObject({
      stopReason: "length",
      text: "Writing.",
      turns: 2,
      toolCalls: 1,
    });
    expect(result.error).toBeUndefined();
    expect(events.map((event) => event.type)).not.toContain("error");
  });

  it("does not send a request the model's window cannot hold, and ends with 'length'", async () => {
    const big = defineTool({
      name: "read_big",
      description: "Reads a big file.",
      inputSchema: z.object({}).strict(),
      access: "read",
      execute: async () => toolSuccess("word ".repeat(2_000)),
    });
    const script = model(() => ({ calls: [{ name: "read_big", input: "{}" }], text: "Reading." }));
    const result = await new Agent({
      model: script,
      tools: [big],
      context: { maxTokens: 1_000 },
      callSettings: { maxOutputTokens: 200 },
    }).run("read it");
    // The tool result (about 2 500 tokens) cannot fit a 1 200-token window, pruned or not.
    expect(result).toMatchObject({ stopReason: "length", turns: 2, toolCalls: 1 });
    expect(script.doStreamCalls).toHaveLength(1);
  });

  it("keeps the text streamed before the window overflowed, in the result and the conversation", async () => {
    const agent = new Agent({
      model: model(() => ({ text: "Half of my answer", fail: contextFull() })),
    });
    const result = await agent.run("go");
    expect(result).toMatchObject({ stopReason: "length", text: "Half of my answer" });
    expect(agent.messages.at(-1)).toMatchObject({
      role: "assistant",
      content: "Half of my answer",
    });
  });

  it("still reports other provider failures as errors", async () => {
    const result = await new Agent({
      model: model(() => ({ text: "Half", fail: new ProviderError("server said 500") })),
    }).run("go");
    expect(result).toMatchObject({
      stopReason: "error",
      error: { code: "PROVIDER_ERROR", message: "server said 500" },
    });
  });

  it("does not run a call cut off by the output cap, and answers it", async () => {
    written.length = 0;
    const agent = new Agent({
      model: model(() => ({
        calls: [{ name: "write_file", input: '{"path":"big.ts","content":"export const' }],
        finish: "length",
      })),
      tools: [write],
    });
    const result = await agent.run("write big.ts");
    expect(result).toMatchObject({ stopReason: "length", toolCalls: 0 });
    expect(written).toEqual([]);
    expect(agent.messages.at(-1)).toMatchObject({
      role: "tool",
      isError: true,
      content: expect.stringContaining("cut off at the output limit"),
    });
  });

  it("runs the complete calls of a cut-off response and tells the model which one was cut off", async () => {
    written.length = 0;
    const seen: string[] = [];
    const script = new MockLanguageModelV4({
      doStream: async (options) => {
        const index = script.doStreamCalls.length - 1;
        if (index === 1) {
          const results = options.prompt.flatMap((message) =>
            message.role === "tool" ? message.content : [],
          );
          for (const part of results)
            if (part.type === "tool-result" && "value" in part.output)
              seen.push(String(part.output.value));
        }
        const reply: Reply =
          index === 0
            ? {
                calls: [
                  { name: "write_file", input: '{"path":"small.ts","content":"x"}' },
                  { name: "write_file", input: '{"path":"big.ts","content":"export' },
                ],
                finish: "length",
              }
            : { text: "I will write big.ts in parts." };
        const parts = partsOf(reply, index);
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      },
    });
    const result = await new Agent({ model: script, tools: [write] }).run("write both");
    expect(result).toMatchObject({
      stopReason: "completed",
      toolCalls: 1,
      text: "I will write big.ts in parts.",
    });
    expect(written).toEqual(["small.ts"]);
    expect(seen).toEqual([
      "wrote small.ts",
      expect.stringContaining("cut off at the output limit"),
    ]);
  });

  it("reports a call whose input is not JSON as such when the response was not cut off", async () => {
    written.length = 0;
    const agent = new Agent({
      model: model((call) =>
        call === 0 ? { calls: [{ name: "write_file", input: "{oops" }] } : { text: "sorry" },
      ),
      tools: [write],
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("completed");
    expect(agent.messages.find((message) => message.role === "tool")?.content).toContain(
      "are not valid JSON",
    );
  });
});

describe("Agent output cap", () => {
  it("asks the model for at most DEFAULT_MAX_OUTPUT_TOKENS per response unless told otherwise", async () => {
    const answering = () => model(() => ({ text: "ok" }));
    const byDefault = answering();
    await new Agent({ model: byDefault }).run("hi");
    expect(byDefault.doStreamCalls[0]?.maxOutputTokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS);

    const capped = answering();
    await new Agent({ model: capped, callSettings: { maxOutputTokens: 1000, temperature: 0 } }).run(
      "hi",
    );
    expect(capped.doStreamCalls[0]).toMatchObject({ maxOutputTokens: 1000, temperature: 0 });
  });

  it("rejects an output cap that is not a positive integer", () => {
    expect(
      () =>
        new Agent({ model: model(() => ({ text: "x" })), callSettings: { maxOutputTokens: 0 } }),
    ).toThrow(/maxOutputTokens must be a positive integer/);
  });
});
