// Runs the real SmolLM2-135M-Instruct GGUF in-process through node-llama-cpp. The file
// comes from `bash tools/models/fetch-smollm2.sh`; without it these tests are skipped and
// say so. They assert on the protocol and the agent loop, not on the model's answers.
import { existsSync } from "node:fs";
import path from "node:path";
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { Agent, defineTool, toolSuccess, type AgentEvent } from "@xzatoma/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createLocalModel,
  DEFAULT_LOCAL_MAX_TOKENS,
  disposeLocalModels,
  type LocalLanguageModel,
} from "./index.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const MODEL_PATH = path.join(ROOT, ".cache/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const HAS_MODEL = existsSync(MODEL_PATH);
if (!HAS_MODEL) {
  console.warn(
    `Skipping the local model tests: ${MODEL_PATH} is missing. Download it with 'bash tools/models/fetch-smollm2.sh'.`,
  );
}

const WEATHER_TOOL: LanguageModelV4FunctionTool = {
  type: "function",
  name: "get_weather",
  description: "Gets the current weather in a city.",
  inputSchema: z.toJSONSchema(
    z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]).optional() }).strict(),
    { io: "input" },
  ) as LanguageModelV4FunctionTool["inputSchema"],
};

function userPrompt(text: string): LanguageModelV4Prompt {
  return [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: [{ type: "text", text }] },
  ];
}

async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Checks the order rules of a stream: starts, blocks opened before deltas, one finish last. */
function expectWellFormed(parts: readonly LanguageModelV4StreamPart[]) {
  expect(parts[0]?.type).toBe("stream-start");
  expect(parts.at(-1)?.type).toBe("finish");
  expect(parts.filter((part) => part.type === "finish")).toHaveLength(1);
  const open = new Set<string>();
  for (const part of parts) {
    if (part.type === "text-start" || part.type === "reasoning-start") {
      expect(open.has(part.id)).toBe(false);
      open.add(part.id);
    } else if (part.type === "text-delta" || part.type === "reasoning-delta") {
      expect(open.has(part.id)).toBe(true);
    } else if (part.type === "text-end" || part.type === "reasoning-end") {
      expect(open.delete(part.id)).toBe(true);
    } else if (part.type === "tool-call" || part.type === "finish") {
      expect(open.size).toBe(0);
    }
  }
  const finish = parts.at(-1);
  if (finish?.type !== "finish") throw new Error("no finish part");
  expect(finish.usage.inputTokens.total).toBeGreaterThan(0);
  expect(finish.usage.outputTokens.total).toBeGreaterThan(0);
  return finish;
}

/** Makes the model call a tool on every turn that answers the user (not a tool result). */
function requireToolOnUserTurns(model: LanguageModelV4): LanguageModelV4 {
  const adjust = (options: LanguageModelV4CallOptions): LanguageModelV4CallOptions =>
    options.prompt.at(-1)?.role === "user"
      ? { ...options, toolChoice: { type: "required" } }
      : options;
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(adjust(options)),
    doStream: (options) => model.doStream(adjust(options)),
  };
}

// One thread: llama.cpp's threads spin while they wait for each other, which crawls when
// other test processes share the cores. Timeouts allow for a busy machine.
describe.skipIf(!HAS_MODEL)(
  "local model: SmolLM2-135M-Instruct in-process",
  { timeout: 60_000 },
  () => {
    let model: LocalLanguageModel;

    beforeAll(async () => {
      model = createLocalModel({
        modelPath: MODEL_PATH,
        contextSize: 2048,
        maxTokens: 48,
        threads: 1,
      });
      await model.load();
    }, 120_000);

    // Disposing waits for llama.cpp's threads, which a loaded machine may take long to schedule.
    afterAll(async () => {
      // A loaded CI machine has been seen to keep llama.cpp's dispose waiting past two minutes;
      // the test process ends right after and frees the model either way, so cleanup waits at
      // most a minute (recorded as an open question on disposal under load).
      await Promise.race([
        disposeLocalModels(),
        new Promise((resolve) => setTimeout(resolve, 60_000).unref()),
      ]);
    }, 120_000);

    it("streams text in well-formed parts and reports usage", async () => {
      expect(model).toMatchObject({ provider: "local", modelId: "SmolLM2-135M-Instruct.Q4_1" });
      const { stream } = await model.doStream({ prompt: userPrompt("Say hello in one sentence.") });
      const parts = await readAll(stream);
      const finish = expectWellFormed(parts);
      const text = parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");
      expect(text.trim()).not.toBe("");
      expect(["stop", "length"]).toContain(finish.finishReason.unified);
      expect(finish.usage.outputTokens.total).toBeLessThanOrEqual(48);
    });

    it("generates with doGenerate and honours maxOutputTokens", async () => {
      const result = await model.doGenerate({
        prompt: userPrompt("Count from one to fifty in words."),
        maxOutputTokens: 8,
      });
      expect(result.content[0]).toMatchObject({ type: "text", text: expect.any(String) });
      expect(result.usage.outputTokens.total).toBeLessThanOrEqual(8);
      expect(result.finishReason.unified).toBe("length");
    });

    it("honours stop sequences and a JSON response format", async () => {
      const stopped = await model.doGenerate({
        prompt: userPrompt("Write two sentences about the sea."),
        stopSequences: ["."],
      });
      const text = stopped.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      expect(text).not.toContain(".");

      const json = await model.doGenerate({
        prompt: userPrompt("Give the name of a city as JSON."),
        responseFormat: {
          type: "json",
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      });
      expect(json.finishReason.unified).toBe("stop");
      const [part] = json.content;
      if (part?.type !== "text") throw new Error("no text");
      expect(JSON.parse(part.text)).toEqual({ name: expect.any(String) });
    });

    it("returns a tool call when one is required, then reads its result", async () => {
      const { stream } = await model.doStream({
        prompt: userPrompt("What is the weather in Paris?"),
        tools: [WEATHER_TOOL],
        toolChoice: { type: "required" },
      });
      const parts = await readAll(stream);
      const finish = expectWellFormed(parts);
      expect(finish.finishReason.unified).toBe("tool-calls");
      // The compact grammar ends the call at its closing brace, well within 48 tokens.
      expect(finish.finishReason.raw).toBe("eogToken");
      const call = parts.find((part) => part.type === "tool-call");
      if (call?.type !== "tool-call") throw new Error("no tool call");
      expect(call.toolName).toBe("get_weather");
      const input = JSON.parse(call.input) as Record<string, unknown>;
      expect(typeof input["city"]).toBe("string");
      // An optional property the model leaves null is dropped, not sent as null.
      expect(input["unit"]).not.toBeNull();

      const next = await model.doGenerate({
        prompt: [
          ...userPrompt("What is the weather in Paris?"),
          {
            role: "assistant",
            content: [
              {
                type: "tool-call",
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                input: JSON.parse(call.input),
              },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                output: { type: "text", value: "Sunny, 21 degrees Celsius." },
              },
            ],
          },
        ],
        tools: [WEATHER_TOOL],
      });
      expect(next.usage.inputTokens.total).toBeGreaterThan(0);
      expect(["stop", "length", "tool-calls"]).toContain(next.finishReason.unified);
    });

    it("completes an agent run with a tool available", async () => {
      const executed: unknown[] = [];
      const agent = new Agent({
        model,
        systemPrompt: "You are a helpful assistant.",
        tools: [weatherTool(executed)],
        limits: { maxTurns: 3 },
      });
      const events: AgentEvent[] = [];
      const result = await agent.run("Hello! Who are you?", { onEvent: (e) => events.push(e) });
      expect(result.stopReason, JSON.stringify(result.error)).toBe("completed");
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(executed).toHaveLength(result.toolCalls);
      expect(events.at(-1)).toMatchObject({ type: "finished", stopReason: "completed" });
    });

    it("runs the tool the model calls and feeds the result back", async () => {
      const executed: unknown[] = [];
      const agent = new Agent({
        model: requireToolOnUserTurns(model),
        systemPrompt: "You are a helpful assistant.",
        tools: [weatherTool(executed)],
        limits: { maxTurns: 4 },
      });
      const result = await agent.run("What is the weather in Paris?");
      expect(result.stopReason, JSON.stringify(result.error)).toBe("completed");
      expect(result.toolCalls).toBeGreaterThanOrEqual(1);
      expect(executed).toHaveLength(result.toolCalls);
      expect(executed[0]).toMatchObject({ city: expect.any(String) });
      expect(result.turns).toBeGreaterThanOrEqual(2);
      const toolMessage = agent.messages.find((message) => message.role === "tool");
      expect(toolMessage).toMatchObject({ toolName: "get_weather", isError: false });
    });

    it("stops generating when the request is aborted", async () => {
      const controller = new AbortController();
      const { stream } = await model.doStream({
        prompt: userPrompt("Write a very long story about a dragon."),
        maxOutputTokens: 1000,
        abortSignal: controller.signal,
      });
      const reader = stream.getReader();
      let deltas = 0;
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return "done";
          if (value.type === "text-delta" && ++deltas === 3)
            controller.abort(new Error("stop now"));
        }
      })();
      await expect(reading).rejects.toThrow("stop now");
      expect(deltas).toBeLessThan(20);

      // The model is free again at once.
      const after = await model.doGenerate({ prompt: userPrompt("Hi"), maxOutputTokens: 4 });
      expect(after.usage.outputTokens.total).toBeGreaterThan(0);
    });

    it("ends an agent run as aborted", async () => {
      const controller = new AbortController();
      const agent = new Agent({ model, callSettings: { maxOutputTokens: 1000 } });
      const result = await agent.run("Write a very long story about a dragon.", {
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "text-delta") controller.abort();
        },
      });
      expect(result.stopReason).toBe("aborted");
    });

    it("runs concurrent requests one after the other", async () => {
      const [first, second] = await Promise.all([
        model.doGenerate({ prompt: userPrompt("Name a colour."), maxOutputTokens: 6 }),
        model.doGenerate({ prompt: userPrompt("Name a fruit."), maxOutputTokens: 6 }),
      ]);
      expect(first.usage.outputTokens.total).toBeGreaterThan(0);
      expect(second.usage.outputTokens.total).toBeGreaterThan(0);
    });

    // Sampling that lets the model run on, so only the limits under test can stop it.
    const endless = {
      repeatPenalty: false,
      dryRepeatPenalty: false,
      endOfAnswerBias: false,
    } as const;

    it("stops an answer at the end of the context with finish 'length', keeping its text", async () => {
      const small = createLocalModel({
        modelPath: MODEL_PATH,
        contextSize: 256,
        threads: 1,
        sampling: endless,
      });
      const { stream } = await small.doStream({
        prompt: userPrompt(`Here is a list: ${"apple, ".repeat(60)}. Continue the list forever.`),
        maxOutputTokens: 5000,
      });
      const parts = await readAll(stream);
      const finish = expectWellFormed(parts);
      expect(parts.filter((part) => part.type === "error")).toEqual([]);
      expect(finish.finishReason).toEqual({ unified: "length", raw: "contextFull" });
      const text = parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");
      expect(text.trim()).not.toBe("");
      // Prompt and answer together stayed within the 256 tokens of context.
      expect(
        (finish.usage.inputTokens.total ?? 0) + (finish.usage.outputTokens.total ?? 0),
      ).toBeLessThanOrEqual(256);
    });

    it("reports a prompt the context cannot hold as CONTEXT_LENGTH_EXCEEDED", async () => {
      const small = createLocalModel({ modelPath: MODEL_PATH, contextSize: 256, threads: 1 });
      const prompt = userPrompt(
        `Summarise: ${"the quick brown fox jumps over the lazy dog. ".repeat(40)}`,
      );
      const { stream } = await small.doStream({ prompt });
      const parts = await readAll(stream);
      const error = parts.find((part) => part.type === "error");
      expect(error?.type === "error" && error.error).toMatchObject({
        code: "CONTEXT_LENGTH_EXCEEDED",
        message: expect.stringMatching(
          /^The local model SmolLM2-135M-Instruct\.Q4_1 has a context of 256 tokens, and the conversation takes \d+ of them before the answer: nothing more fits\.$/,
        ),
        fields: { provider: "local", model: "SmolLM2-135M-Instruct.Q4_1", contextSize: 256 },
      });
      expect(parts.filter((part) => part.type === "text-delta")).toEqual([]);
      expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "error" } });
      await expect(small.doGenerate({ prompt })).rejects.toMatchObject({
        code: "CONTEXT_LENGTH_EXCEEDED",
      });
    });

    it("ends a runaway answer by itself with the default sampling", async () => {
      // Without the end-of-answer bias this story runs to about 800 tokens.
      const result = await createLocalModel({ modelPath: MODEL_PATH, threads: 1 }).doGenerate({
        prompt: userPrompt("Write a very long story about a dragon."),
        maxOutputTokens: 1500,
      });
      // The model ended the answer (end-of-turn token), well before the limit of the call.
      expect(result.finishReason).toEqual({ unified: "stop", raw: "eogToken" });
      expect(result.usage.outputTokens.total).toBeLessThan(DEFAULT_LOCAL_MAX_TOKENS);
    });

    it("answers at most DEFAULT_LOCAL_MAX_TOKENS tokens when the call sets no limit", async () => {
      const runOn = createLocalModel({ modelPath: MODEL_PATH, threads: 1, sampling: endless });
      const result = await runOn.doGenerate({
        prompt: userPrompt(`Continue this list forever: ${"apple, ".repeat(20)}`),
      });
      expect(result.usage.outputTokens.total).toBe(DEFAULT_LOCAL_MAX_TOKENS);
      expect(result.finishReason).toEqual({ unified: "length", raw: "maxTokens" });
    });
  },
);

function weatherTool(executed: unknown[]) {
  return defineTool({
    name: "get_weather",
    description: "Gets the current weather in a city.",
    inputSchema: z.object({ city: z.string() }).strict(),
    access: "read",
    execute: async (input) => {
      executed.push(input);
      return toolSuccess(`Sunny, 21 degrees Celsius in ${input.city}.`);
    },
  });
}
