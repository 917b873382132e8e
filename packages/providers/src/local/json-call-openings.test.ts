import { existsSync } from "node:fs";
import path from "node:path";
import type { LanguageModelV4FunctionTool, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { ChatMLChatWrapper, ChatWrapper, QwenChatWrapper } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLocalModel, disposeLocalModels } from "./index.js";
import { JSON_CALL_OPENINGS, withJsonCallOpenings } from "./json-call-openings.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const MODEL_PATH = path.join(ROOT, ".cache/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const HAS_MODEL = existsSync(MODEL_PATH);
if (!HAS_MODEL) {
  console.warn(
    `Skipping the JSON call opening test with a real model: ${MODEL_PATH} is missing. Download it with 'bash tools/models/fetch-smollm2.sh'.`,
  );
}

describe("JSON call openings given to node-llama-cpp's function calling", () => {
  it("are added to the template's alternate prefixes; its own prefix and alternates stay", () => {
    const wrapper = withJsonCallOpenings(new QwenChatWrapper());
    const call = wrapper.settings.functions.call;
    expect(String(call.prefix)).toContain("name");
    expect(call.prefixAlternateMatches).toEqual(JSON_CALL_OPENINGS);
    // The openings small models were measured writing: bare, fenced, indented.
    expect(JSON_CALL_OPENINGS).toEqual(
      expect.arrayContaining([
        '{"name": "',
        '```json\n{"name": "',
        '```json\n{\n  "name": "',
        '{\n  "name": "',
      ]),
    );
  });

  it("keep a wrapper's own alternates and never change the defaults other wrappers share", () => {
    const defaults = structuredClone(
      ChatWrapper.defaultSettings.functions.call.prefixAlternateMatches,
    );
    const wrapper = withJsonCallOpenings(new ChatMLChatWrapper());
    const own = new ChatMLChatWrapper().settings.functions.call.prefixAlternateMatches ?? [];
    expect(wrapper.settings.functions.call.prefixAlternateMatches).toEqual([
      ...own,
      ...JSON_CALL_OPENINGS,
    ]);
    expect(ChatWrapper.defaultSettings.functions.call.prefixAlternateMatches).toEqual(defaults);
    expect(new ChatMLChatWrapper().settings.functions.call.prefixAlternateMatches).toEqual(own);
  });
});

describe.skipIf(!HAS_MODEL)("a real model that opens a call as JSON text", () => {
  afterAll(async () => {
    // Disposing waits for llama.cpp's threads, which a loaded machine may be slow to schedule.
    await Promise.race([
      disposeLocalModels(),
      new Promise((resolve) => setTimeout(resolve, 60_000).unref()),
    ]);
  }, 120_000);

  it(
    "gets a tool call that node-llama-cpp's grammar finished, and no text",
    { timeout: 300_000 },
    async () => {
      // SmolLM2's template (ChatML) opens calls with "||call: "; asked to write the call as
      // JSON, it writes {"name": "get_weather", ...}, which without the openings stays text.
      const weather: LanguageModelV4FunctionTool = {
        type: "function",
        name: "get_weather",
        description: "Gets the current weather in a city.",
        inputSchema: z.toJSONSchema(z.object({ city: z.string() }).strict(), {
          io: "input",
        }) as LanguageModelV4FunctionTool["inputSchema"],
      };
      const model = createLocalModel({
        modelPath: MODEL_PATH,
        contextSize: 2048,
        maxTokens: 64,
        threads: 1,
        toolInstructions: false,
      });
      const { stream } = await model.doStream({
        prompt: [
          { role: "system", content: "You are a helpful assistant." },
          {
            role: "user",
            content: [
              {
                type: "text",
                text: 'Write the JSON object {"name": "get_weather", "arguments": {"city": "Oslo"}} and nothing else.',
              },
            ],
          },
        ],
        tools: [weather],
      });
      const parts: LanguageModelV4StreamPart[] = [];
      for await (const part of stream) parts.push(part);
      expect(parts.filter((part) => part.type === "text-delta")).toEqual([]);
      const calls = parts.filter((part) => part.type === "tool-call");
      expect(calls).toMatchObject([{ toolName: "get_weather" }]);
      expect(JSON.parse(calls[0]?.type === "tool-call" ? calls[0].input : "null")).toEqual({
        city: "Oslo",
      });
      expect(parts.at(-1)).toMatchObject({
        type: "finish",
        finishReason: { unified: "tool-calls" },
      });
    },
  );
});
